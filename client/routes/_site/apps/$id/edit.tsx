import { createFileRoute } from '@tanstack/react-router';
import * as zm from 'zod/mini';
import { ID_PATTERN, lazySchema } from '@pipit/protocol';
import { requireAccount } from '../../../../platform/session/route-guards';
import { AppNotFound } from '../../../../features/apps/app-not-found';
import { EditPage } from '../../../../features/editor/edit-page';
import {
  loadEditTarget,
  openEditorDocumentAhead,
} from '../../../../features/apps/load-edit-target';
import { pageHead } from '../../../../features/shell/head';
import { requireAppId } from '../-components/require-app-id';

export const Route = createFileRoute('/_site/apps/$id/edit')({
  beforeLoad: async (context) => {
    requireAppId(context);
    openEditorDocumentAhead(context.params.id);
    await requireAccount(context.location.href);
  },
  // `?draft={id}`: a draft of the app instead of the app (docs/product/drafts.md).
  validateSearch: lazySchema(() =>
    zm.object({ draft: zm.catch(zm.optional(zm.string().check(zm.regex(ID_PATTERN))), undefined) }),
  ),
  loader: ({ params }) => loadEditTarget(params.id),
  head: ({ loaderData }) =>
    pageHead(loaderData?.found === false ? 'App not found' : (loaderData?.title ?? 'Editor')),
  component: function EditRoute() {
    const { id } = Route.useParams();
    const { draft } = Route.useSearch();
    const { found } = Route.useLoaderData();
    return found ? <EditPage appId={id} draftId={draft ?? null} /> : <AppNotFound />;
  },
});
