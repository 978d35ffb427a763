import { createFileRoute, Outlet } from '@tanstack/react-router';
import { RouteError } from '../features/shell/route-error';
import { SiteLayout } from '../features/shell/site-layout';

/** Every page but the installed app (/apps/{id}/pwa) shares the site's header and footer. */
export const Route = createFileRoute('/_site')({
  component: () => (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  ),
  // A page that fails keeps the navigation, so the person can go somewhere else.
  errorComponent: (props) => (
    <SiteLayout>
      <RouteError {...props} />
    </SiteLayout>
  ),
});
