import { createFileRoute } from '@tanstack/react-router';
import { DemoPage } from '../../features/editor/demo-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/demo')({
  head: () => pageHead('Try Pipit'),
  component: DemoPage,
});
