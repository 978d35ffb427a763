import { createFileRoute } from '@tanstack/react-router';
import { AppPage } from '../../../../features/app-page/app-page';
import { loadPublishedApp } from '../../../../features/app-page/load-published-app';
import { AppNotFound } from '../../../../features/apps/app-not-found';
import { pageHead } from '../../../../features/shell/head';
import { Loading } from '../../../../ui/loading';
import { requireAppId } from '../-components/require-app-id';

export const Route = createFileRoute('/_site/apps/$id/')({
  beforeLoad: requireAppId,
  loader: ({ params, abortController }) => loadPublishedApp(params.id, abortController.signal),
  head: ({ loaderData }) =>
    loaderData?.found
      ? pageHead(loaderData.app.title || 'Untitled app', loaderData.app.description || undefined)
      : pageHead('App not found'),
  pendingComponent: () => <Loading label="Loading the app…" />,
  component: function AppRoute() {
    const loaded = Route.useLoaderData();
    return loaded.found ? <AppPage {...loaded} /> : <AppNotFound />;
  },
});
