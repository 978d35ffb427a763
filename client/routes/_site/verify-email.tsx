import { createFileRoute } from '@tanstack/react-router';
import { VerifyEmailPage } from '../../features/account/email-link-pages';
import { pageHead } from '../../features/shell/head';
import { tokenSearch } from './-search';

export const Route = createFileRoute('/_site/verify-email')({
  validateSearch: tokenSearch,
  head: () => pageHead('Verify your email'),
  component: function VerifyEmailRoute() {
    const { token, next } = Route.useSearch();
    return <VerifyEmailPage token={token} next={next} />;
  },
});
