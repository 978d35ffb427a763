import { createRootRoute, HeadContent, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useSession } from '../platform/session/session';
import { flushOutbox } from '../platform/outbox/outbox';
import '../platform/outbox/senders';
import { RouteError } from '../features/shell/route-error';
import { NotFoundPage } from '../features/shell/not-found-page';
import { SiteLayout } from '../features/shell/site-layout';
import { UpdatePrompt } from '../ui/update-prompt';
import { pageHead } from '../features/shell/head';

export const Route = createRootRoute({
  // A path no route knows is marked on the root match (router-core's global not-found); the root
  // renders the 404 page, so it names the tab too.
  head: ({ match }) => pageHead(match._notFound ? 'Page not found' : 'Pipit'),
  // The browser's router wraps the root in Suspense (it has a pending component); a server render
  // would not, unless asked: the same tree on both, so pre-rendered pages hydrate
  // (client/prerender/entry.tsx).
  wrapInSuspense: true,
  component: Root,
  notFoundComponent: () => (
    <SiteLayout>
      <NotFoundPage />
    </SiteLayout>
  ),
  errorComponent: (props) => (
    <main id="main" className="site-main">
      <RouteError {...props} />
    </main>
  ),
});

function Root() {
  // Writes queued while offline go out as soon as Pipit runs online again, each under the
  // account that wrote it (so also when that person signs back in).
  const accountId = useSession().account?.id;
  useEffect(() => {
    if (navigator.onLine) void flushOutbox();
  }, [accountId]);
  return (
    <>
      <HeadContent />
      {/* Above the page, in its flow: as a toast it covered forms' buttons. */}
      <UpdatePrompt placement="site" />
      <Outlet />
    </>
  );
}
