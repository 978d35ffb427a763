import { createFileRoute } from '@tanstack/react-router';
import { LegalPolicyPage } from '../../../features/content/legal-policy-page';
import { pageHead } from '../../../features/shell/head';

export const Route = createFileRoute('/_site/legal/policy')({
  head: () => pageHead('Acceptable use and AI policy'),
  component: LegalPolicyPage,
});
