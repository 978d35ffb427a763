import { createFileRoute } from '@tanstack/react-router';
import { PwaNotFound } from '../../../features/apps/pwa-not-found';
import { pageHead } from '../../../features/shell/head';
import { requireAppId } from '../../_site/apps/-components/require-app-id';

/** The installed app itself: full screen, outside the site's layout. */
export const Route = createFileRoute('/apps/$id/pwa')({
  beforeLoad: requireAppId,
  head: () => pageHead('App not available'),
  component: PwaNotFound,
});
