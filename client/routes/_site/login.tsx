import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../../features/account/login-page';
import { redirectIfSignedIn } from '../../platform/session/route-guards';
import { pageHead } from '../../features/shell/head';
import { redirectSearch } from './-search';

export const Route = createFileRoute('/_site/login')({
  validateSearch: redirectSearch,
  beforeLoad: ({ search }) => redirectIfSignedIn(search.redirect),
  head: () => pageHead('Sign in'),
  component: function LoginRoute() {
    return <LoginPage redirect={Route.useSearch().redirect} />;
  },
});
