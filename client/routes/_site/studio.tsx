import { createFileRoute } from '@tanstack/react-router';
import { StudioPage } from '../../features/apps/studio-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/studio')({
  head: () => pageHead('Studio'),
  component: StudioPage,
});
