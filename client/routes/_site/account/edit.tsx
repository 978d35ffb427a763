import { createFileRoute } from '@tanstack/react-router';
import { requireAccount } from '../../../platform/session/route-guards';
import { AccountEditPage } from '../../../features/account/account-edit-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/account/edit')({
  beforeLoad: ({ location }) => requireAccount(location.href),
  head: () => pageHead('Edit profile'),
  component: AccountEditPage,
});
