import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ResetPasswordPage } from '../../features/account/password-reset-pages';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/reset-password')({
  validateSearch: z.object({ token: z.string().max(256).optional().catch(undefined) }),
  head: () => pageHead('Choose a new password'),
  component: function ResetPasswordRoute() {
    return <ResetPasswordPage token={Route.useSearch().token} />;
  },
});
