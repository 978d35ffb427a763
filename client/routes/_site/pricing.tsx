import { createFileRoute } from '@tanstack/react-router';
import { PricingPage } from '../../features/content/pricing-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/pricing')({
  head: () => pageHead('Pricing', 'The free plan and its limits.'),
  component: PricingPage,
});
