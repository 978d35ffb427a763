import { createFileRoute } from '@tanstack/react-router';
import { CreatePage } from '../../features/apps/create-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/create')({
  head: () => pageHead('Create an app'),
  component: CreatePage,
});
