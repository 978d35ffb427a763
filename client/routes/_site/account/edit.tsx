import { createFileRoute } from '@tanstack/react-router';
import { AccountEditPage } from '../../../features/account/account-edit-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/account/edit')({
  head: () => pageHead('Edit profile'),
  component: AccountEditPage,
});
