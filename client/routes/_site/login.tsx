import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { LoginPage } from '../../features/account/login-page';
import { redirectIfSignedIn } from '../../platform/session/route-guards';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/login')({
  validateSearch: z.object({ redirect: z.string().max(2048).optional().catch(undefined) }),
  beforeLoad: () => redirectIfSignedIn(),
  head: () => pageHead('Sign in'),
  component: function LoginRoute() {
    return <LoginPage redirect={Route.useSearch().redirect} />;
  },
});
