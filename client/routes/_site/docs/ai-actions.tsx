import { createFileRoute } from '@tanstack/react-router';
import { DocsAiActionsPage } from '../../../features/content/docs-ai-actions-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/docs/ai-actions')({
  head: () => pageHead('AI actions', 'How AI actions work in Pipit apps.'),
  component: DocsAiActionsPage,
});
