import { createFileRoute, Outlet } from '@tanstack/react-router';
import { useSession } from '../platform/session/session';
import { useAppReconciliation } from '../platform/app-registry';
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
  // installed app (/apps/{id}/pwa) needs none of the studio's code.
  useAppReconciliation(useSession().account?.id ?? null);
  return (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  );
}
