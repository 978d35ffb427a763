import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { VerifyEmailPage } from '../../features/account/email-link-pages';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/verify-email')({
  validateSearch: z.object({ token: z.string().max(256).optional().catch(undefined) }),
  head: () => pageHead('Verify your email'),
  component: function VerifyEmailRoute() {
    return <VerifyEmailPage token={Route.useSearch().token} />;
  },
});
