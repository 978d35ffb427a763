import { createFileRoute } from '@tanstack/react-router';
import { DocsPlatformPage } from '../../../features/content/docs-platform-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/docs/platform')({
  head: () =>
    pageHead('The platform', 'App definitions, sync, publishing, self-hosting and the API.'),
  component: DocsPlatformPage,
});
