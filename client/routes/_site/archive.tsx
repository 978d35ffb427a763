import { createFileRoute } from '@tanstack/react-router';
import { requireAccount } from '../../platform/session/route-guards';
import { ArchivePage } from '../../features/apps/archive-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/archive')({
  beforeLoad: ({ location }) => requireAccount(location.href),
  head: () => pageHead('Archive'),
  component: ArchivePage,
});
