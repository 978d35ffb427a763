import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ConfirmEmailChangePage } from '../../features/account/email-link-pages';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/confirm-email-change')({
  validateSearch: z.object({ token: z.string().max(256).optional().catch(undefined) }),
  head: () => pageHead('Confirm your new email'),
  component: function ConfirmEmailChangeRoute() {
    return <ConfirmEmailChangePage token={Route.useSearch().token} />;
  },
});
