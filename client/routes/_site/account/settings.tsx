import { createFileRoute } from '@tanstack/react-router';
import { requireAccount } from '../../../platform/session/route-guards';
import { AccountSettingsPage } from '../../../features/account/account-settings-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/account/settings')({
  beforeLoad: ({ location }) => requireAccount(location.href),
  head: () => pageHead('Settings'),
  component: AccountSettingsPage,
});
