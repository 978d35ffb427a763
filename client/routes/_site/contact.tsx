import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '../../features/forms/message-form-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/contact')({
  head: () => pageHead('Contact'),
  component: ContactPage,
});
