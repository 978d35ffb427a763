import { createFileRoute } from '@tanstack/react-router';
import { AccountSettingsPage } from '../../../features/account/account-settings-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/account/settings')({
  head: () => pageHead('Settings'),
  component: AccountSettingsPage,
});
