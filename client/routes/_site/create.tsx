import { createFileRoute, redirect } from '@tanstack/react-router';
import { CreatePage } from '../../features/apps/create-page';
import { loadSession } from '../../platform/session/session';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/create')({
  // Without an account, the demo is where to try building (docs/product/routes.md).
  beforeLoad: async () => {
    if (!(await loadSession()).account) throw redirect({ to: '/demo' });
  },
  head: () => pageHead('Create an app'),
  component: CreatePage,
});
