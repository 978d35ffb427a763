import { createFileRoute } from '@tanstack/react-router';
import { requireAccount } from '../../platform/session/route-guards';
import { StudioPage } from '../../features/apps/studio-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/studio')({
  beforeLoad: ({ location }) => requireAccount(location.href),
  head: () => pageHead('Studio'),
  component: StudioPage,
});
