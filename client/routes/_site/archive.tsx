import { createFileRoute } from '@tanstack/react-router';
import { ArchivePage } from '../../features/apps/archive-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/archive')({
  head: () => pageHead('Archive'),
  component: ArchivePage,
});
