import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../../features/account/password-reset-pages';
import { pageHead } from '../../features/shell/head';
import { tokenSearch } from './-search';

export const Route = createFileRoute('/_site/reset-password')({
  validateSearch: tokenSearch,
  head: () => pageHead('Choose a new password'),
  component: function ResetPasswordRoute() {
    const { token, next } = Route.useSearch();
    return <ResetPasswordPage token={token} next={next} />;
  },
});
