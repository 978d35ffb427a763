import { createFileRoute } from '@tanstack/react-router';
import { FaqPage } from '../../features/content/faq-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/faq')({
  head: () =>
    pageHead('FAQ', 'Answers about offline use, sync, installing apps, privacy and limits.'),
  component: FaqPage,
});
