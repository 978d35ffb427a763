import { createFileRoute } from '@tanstack/react-router';
import { appPwaPaths } from '@pipit/protocol';
import { useEffect } from 'react';
import { pageHead } from '../../../features/shell/head';
import { Loading } from '../../../ui/loading';
import { requireAppId } from '../../_site/apps/-components/require-app-id';

/**
 * The installed app has its own entry (client/app.html), which the server and the service worker
 * serve for `/apps/{id}/pwa`. The site only gets here for the same path written otherwise
 * (`/apps/{id}/PWA`): it loads the app's own page in its place.
 */
export const Route = createFileRoute('/apps/$id/pwa')({
  beforeLoad: requireAppId,
  head: () => pageHead('Opening the app'),
  component: function OpenInstalledApp() {
    const page = appPwaPaths(Route.useParams().id).page;
    const elsewhere = window.location.pathname !== page;
    useEffect(() => {
      if (elsewhere) window.location.replace(page);
    }, [elsewhere, page]);
    return (
      <main id="main" className="app-host__loading">
        {elsewhere ? <Loading label="Opening the app…" /> : <a href={page}>Open the app</a>}
      </main>
    );
  },
});
