import type { ReactNode } from 'react';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';

interface AuthPageProps {
  title: string;
  lead: ReactNode;
  /** What the form does, for the offline notice ("Signing in needs a connection"). */
  action: string;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * The frame of every account-access page (SPEC §3: "needs network, says so"). Accounts are not open
 * on this server yet: the form is shown as it will be, inactive, with a plain explanation.
 */
export function AuthPage({ title, lead, action, children, footer }: AuthPageProps) {
  const online = useOnlineStatus();
  return (
    <Page title={title} lead={lead} width="narrow">
      {online ? null : (
        <Notice tone="offline" title={`${action} needs a connection`}>
          You’re offline. Reconnect, then try again.
        </Notice>
      )}
      <Notice tone="info" title="Accounts are not open on this server yet">
        You can explore public apps and read the documentation without an account.
      </Notice>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <fieldset disabled className="form-fieldset">
          <legend className="visually-hidden">{title}</legend>
          {children}
        </fieldset>
      </form>
      {footer ? <div className="stack">{footer}</div> : null}
    </Page>
  );
}
