import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { requireAccount } from '../../platform/session/route-guards';
import { HomePage } from '../../features/home/home-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/home')({
  beforeLoad: ({ location }) => requireAccount(location.href),
  head: () => pageHead('Home'),
  validateSearch: z.object({
    notice: z.enum(['password-reset']).optional().catch(undefined),
  }),
  component: function HomeRoute() {
    return <HomePage notice={Route.useSearch().notice} />;
  },
});
