import { createFileRoute } from '@tanstack/react-router';
import { InstallPage } from '../../../../features/app-page/install-page';
import { loadPublishedApp } from '../../../../features/app-page/load-published-app';
import { AppNotFound } from '../../../../features/apps/app-not-found';
import { pageHead } from '../../../../features/shell/head';
import { Loading } from '../../../../ui/loading';
import { requireAppId } from '../-components/require-app-id';

export const Route = createFileRoute('/_site/apps/$id/install')({
  beforeLoad: requireAppId,
  loader: ({ params, abortController }) => loadPublishedApp(params.id, abortController.signal),
  head: ({ loaderData }) =>
    pageHead(
      loaderData?.found ? `Install ${loaderData.app.title || 'Untitled app'}` : 'App not found',
    ),
  pendingComponent: () => <Loading label="Loading the app…" />,
  component: function InstallRoute() {
    const loaded = Route.useLoaderData();
    return loaded.found ? <InstallPage {...loaded} /> : <AppNotFound />;
  },
});
