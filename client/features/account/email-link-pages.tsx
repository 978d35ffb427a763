import { ButtonLink } from '../../ui/button';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';

interface EmailLinkPageProps {
  title: string;
  /** What the link does, in a sentence. */
  purpose: string;
  hasToken: boolean;
}

function EmailLinkPage({ title, purpose, hasToken }: EmailLinkPageProps) {
  const online = useOnlineStatus();
  return (
    <Page title={title} lead={purpose} width="narrow">
      {online ? null : (
        <Notice tone="offline" title="This link needs a connection">
          You’re offline. Reconnect and open the link again.
        </Notice>
      )}
      {hasToken ? (
        <Notice tone="warning" title="This link can’t be used on this server">
          Accounts are not open on this Pipit server yet, so there is no account for this link to
          confirm.
        </Notice>
      ) : (
        <Notice tone="warning" title="The link is incomplete">
          This page opens from a link in an email from Pipit, and the address has no token. Copy the
          whole link from the email, or open it by tapping it.
        </Notice>
      )}
      <ButtonLink to="/">Go to the home page</ButtonLink>
    </Page>
  );
}

/** `/verify-email?token=…` */
export function VerifyEmailPage({ hasToken }: { hasToken: boolean }) {
  return (
    <EmailLinkPage
      title="Verify your email"
      purpose="This link confirms that the email address of your Pipit account is yours."
      hasToken={hasToken}
    />
  );
}

/** `/confirm-email-change?token=…` */
export function ConfirmEmailChangePage({ hasToken }: { hasToken: boolean }) {
  return (
    <EmailLinkPage
      title="Confirm your new email"
      purpose="This link moves your Pipit account to the new email address you asked for."
      hasToken={hasToken}
    />
  );
}
