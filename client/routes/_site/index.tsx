import { createFileRoute } from '@tanstack/react-router';
import { redirectIfSignedIn } from '../../platform/session/route-guards';
import { LandingPage } from '../../features/landing/landing-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/')({
  // Signed-in people go to their home page (docs/product/routes.md).
  beforeLoad: () => redirectIfSignedIn(),
  head: () =>
    pageHead(
      'Pipit',
      'Build small apps that work offline, co-edit them live, and install them on any device.',
    ),
  component: LandingPage,
});
