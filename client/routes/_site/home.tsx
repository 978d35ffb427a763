import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../features/home/home-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/home')({
  head: () => pageHead('Home'),
  component: HomePage,
});
