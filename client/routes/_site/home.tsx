import { createFileRoute } from '@tanstack/react-router';
import * as zm from 'zod/mini';
import { lazySchema } from '@pipit/protocol';
import { requireAccount } from '../../platform/session/route-guards';
import { HomePage } from '../../features/home/home-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/home')({
  beforeLoad: ({ location }) => requireAccount(location.href),
  head: () => pageHead('Home'),
  validateSearch: lazySchema(() =>
    zm.object({ notice: zm.catch(zm.optional(zm.enum(['password-reset'])), undefined) }),
  ),
  component: function HomeRoute() {
    return <HomePage notice={Route.useSearch().notice} />;
  },
});
