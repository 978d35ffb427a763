import { createFileRoute } from '@tanstack/react-router';
import { LandingPage } from '../../features/landing/landing-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/')({
  head: () =>
    pageHead(
      'Pipit',
      'Build small apps that work offline, co-edit them live, and install them on any device.',
    ),
  component: LandingPage,
});
