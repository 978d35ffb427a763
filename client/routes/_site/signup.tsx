import { createFileRoute } from '@tanstack/react-router';
import { redirectIfSignedIn } from '../../platform/session/route-guards';
import { SignupPage } from '../../features/account/signup-page';
import { pageHead } from '../../features/shell/head';
import { redirectSearch } from './-search';

export const Route = createFileRoute('/_site/signup')({
  validateSearch: redirectSearch,
  beforeLoad: ({ search }) => redirectIfSignedIn(search.redirect),
  head: () => pageHead('Create your account'),
  component: function SignupRoute() {
    return <SignupPage redirect={Route.useSearch().redirect} />;
  },
});
