import { createFileRoute } from '@tanstack/react-router';
import { requireAccount } from '../../../../features/account/session';
import { EditPage } from '../../../../features/apps/edit-page';
import { pageHead } from '../../../../features/shell/head';
import { requireAppId } from '../-components/require-app-id';

export const Route = createFileRoute('/_site/apps/$id/edit')({
  beforeLoad: async (context) => {
    requireAppId(context);
    await requireAccount(context.location.href);
  },
  head: () => pageHead('Editor'),
  component: function EditRoute() {
    const { id } = Route.useParams();
    return <EditPage appId={id} />;
  },
});
