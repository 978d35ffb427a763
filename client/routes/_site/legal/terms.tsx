import { createFileRoute } from '@tanstack/react-router';
import { LegalTermsPage } from '../../../features/content/legal-terms-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/legal/terms')({
  head: () => pageHead('Terms of use'),
  component: LegalTermsPage,
});
