import { createFileRoute, redirect } from '@tanstack/react-router';
import { loadSession } from '../../features/account/session';
import { LandingPage } from '../../features/landing/landing-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/')({
  // Signed-in people go to their home page (SPEC §3).
  beforeLoad: async () => {
    if ((await loadSession()).account) throw redirect({ to: '/home' });
  },
  head: () =>
    pageHead(
      'Pipit',
      'Build small apps that work offline, co-edit them live, and install them on any device.',
    ),
  component: LandingPage,
});
