import { createFileRoute } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../../features/account/password-reset-pages';
import { pageHead } from '../../features/shell/head';
import { redirectSearch } from './-search';

export const Route = createFileRoute('/_site/forgot-password')({
  validateSearch: redirectSearch,
  head: () => pageHead('Reset your password'),
  component: function ForgotPasswordRoute() {
    return <ForgotPasswordPage redirect={Route.useSearch().redirect} />;
  },
});
