import { createFileRoute } from '@tanstack/react-router';
import { DocsThemesPage } from '../../../features/content/docs-themes-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/docs/themes')({
  head: () => pageHead('Themes', 'Theme presets, custom colours and accessibility.'),
  component: DocsThemesPage,
});
