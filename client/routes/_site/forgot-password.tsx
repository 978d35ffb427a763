import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../../features/account/password-reset-pages';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/forgot-password')({
  head: () => pageHead('Reset your password'),
  component: ForgotPasswordPage,
});
