import { createFileRoute } from '@tanstack/react-router';
import { DescribeApp } from '../../features/apps/describe-app';
import { DemoPage } from '../../features/editor/demo-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/demo')({
  head: () => pageHead('Try Pipit'),
  // /create's describe-an-app form, offered on /demo too when the server has AI.
  component: function DemoRoute() {
    return <DemoPage DescribeApp={DescribeApp} />;
  },
});
