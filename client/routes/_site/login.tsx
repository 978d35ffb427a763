import * as zm from 'zod/mini';
import { lazySchema } from '@pipit/protocol';
import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../../features/account/login-page';
import { redirectIfSignedIn } from '../../platform/session/route-guards';
import { pageHead } from '../../features/shell/head';
import { optionalText } from './-search';

export const Route = createFileRoute('/_site/login')({
  validateSearch: lazySchema(() => zm.object({ redirect: optionalText(2048) })),
  beforeLoad: () => redirectIfSignedIn(),
  head: () => pageHead('Sign in'),
  component: function LoginRoute() {
    return <LoginPage redirect={Route.useSearch().redirect} />;
  },
});
