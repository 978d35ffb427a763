import { createFileRoute } from '@tanstack/react-router';
import { LegalPrivacyPage } from '../../../features/content/legal-privacy-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/legal/privacy')({
  head: () => pageHead('Privacy'),
  component: LegalPrivacyPage,
});
