import { createFileRoute, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useSession } from '../platform/session/session';
import { RouteError } from '../features/shell/route-error';
import { SiteLayout } from '../features/shell/site-layout';

/** Every page but the installed app (/apps/{id}/pwa) shares the site's header and footer. */
export const Route = createFileRoute('/_site')({
  component: SitePages,
  // A page that fails keeps the navigation, so the person can go somewhere else.
  errorComponent: (props) => (
    <SiteLayout>
      <RouteError {...props} />
    </SiteLayout>
  ),
});

function SitePages() {
  // The studio's list of apps follows the server while someone signed in is on the site. Here and
  // not in the layout, which the root's 404 page also uses: the root loads for every page, and the
  // installed app (/apps/{id}/pwa) needs none of the studio's code. Loaded once someone is signed
  // in: a visitor's public page never downloads the studio's storage (Dexie, Yjs).
  const accountId = useSession().account?.id ?? null;
  useEffect(() => {
    if (!accountId) return;
    let stop: (() => void) | undefined;
    let live = true;
    void import('../platform/app-registry').then(({ startAppReconciliation }) => {
      if (live) stop = startAppReconciliation(accountId);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [accountId]);
  return (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  );
}
