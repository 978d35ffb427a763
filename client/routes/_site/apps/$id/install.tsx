import { createFileRoute } from '@tanstack/react-router';
import { AppNotFound } from '../../../../features/apps/app-not-found';
import { pageHead } from '../../../../features/shell/head';
import { requireAppId } from '../-components/require-app-id';

export const Route = createFileRoute('/_site/apps/$id/install')({
  beforeLoad: requireAppId,
  head: () => pageHead('App not found'),
  component: AppNotFound,
});
