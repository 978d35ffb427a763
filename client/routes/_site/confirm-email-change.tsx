import { createFileRoute } from '@tanstack/react-router';
import { ConfirmEmailChangePage } from '../../features/account/email-link-pages';
import { pageHead } from '../../features/shell/head';
import { tokenSearch } from './-search';

export const Route = createFileRoute('/_site/confirm-email-change')({
  validateSearch: tokenSearch,
  head: () => pageHead('Confirm your new email'),
  component: function ConfirmEmailChangeRoute() {
    return <ConfirmEmailChangePage token={Route.useSearch().token} />;
  },
});
