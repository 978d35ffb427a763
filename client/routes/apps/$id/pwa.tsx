import { createFileRoute } from '@tanstack/react-router';
import { loadPwaApp } from '../../../features/runtime-host/load-pwa-app';
import { PwaPage } from '../../../features/runtime-host/pwa-page';
import { pageHead } from '../../../features/shell/head';
import { requireAppId } from '../../_site/apps/-components/require-app-id';

/** The installed app itself: full screen, outside the site's layout. */
export const Route = createFileRoute('/apps/$id/pwa')({
  beforeLoad: requireAppId,
  loader: ({ params, abortController }) => loadPwaApp(params.id, abortController.signal),
  // An installed app's window is titled with the app's own name, as a native app's is.
  head: ({ loaderData }) =>
    loaderData?.kind === 'ready'
      ? { meta: [{ title: loaderData.app.title || 'Untitled app' }] }
      : pageHead('App not available'),
  component: function PwaRoute() {
    return <PwaPage load={Route.useLoaderData()} />;
  },
});
