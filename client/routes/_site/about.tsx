import { createFileRoute } from '@tanstack/react-router';
import { AboutPage } from '../../features/content/about-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/about')({
  head: () => pageHead('About', 'What Pipit is, why it is local-first, and who it is for.'),
  component: AboutPage,
});
