import { createFileRoute } from '@tanstack/react-router';
import { FeedbackPage } from '../../features/forms/message-form-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/feedback')({
  head: () => pageHead('Send feedback'),
  component: FeedbackPage,
});
