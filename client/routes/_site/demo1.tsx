import { createFileRoute } from '@tanstack/react-router';
import { ShowcasePage } from '../../features/demo/demo-pages';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/demo1')({
  head: () => pageHead('Habit tracker showcase'),
  component: ShowcasePage,
});
