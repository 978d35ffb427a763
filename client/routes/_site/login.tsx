import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../../features/account/login-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/login')({
  head: () => pageHead('Sign in'),
  component: LoginPage,
});
