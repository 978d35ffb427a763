import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SiteLayout } from '../features/shell/site-layout';

/** Every page but the installed app (/apps/{id}/pwa) shares the site's header and footer. */
export const Route = createFileRoute('/_site')({
  component: () => (
    <SiteLayout>
      <Outlet />
    </SiteLayout>
  ),
});
