import { createFileRoute } from '@tanstack/react-router';
import { LibraryPage } from '../../../features/apps/library-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/apps/')({
  head: () => pageHead('Your apps'),
  component: LibraryPage,
});
