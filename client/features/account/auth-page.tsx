import type { ReactNode } from 'react';
import { Notice } from '../../ui/notice';
import { OnlineForm } from '../../ui/online-form';
import { Page } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';

interface AuthPageProps {
  title: string;
  lead: ReactNode;
  /** What the form does, for the offline notice ("Signing in needs a connection"). */
  action: string;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onSubmit: () => void;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * The frame of the account-access forms (docs/product/routes.md: they need the network, and say
 * so). The submit button says what is happening; an error says what went wrong and what to do next.
 */
export function AuthPage(props: AuthPageProps) {
  const online = useOnlineStatus();
  return (
    <Page title={props.title} lead={props.lead} width="narrow">
      {online ? null : (
        <Notice tone="offline" title={`${props.action} needs a connection`}>
          You’re offline. Reconnect, then try again.
        </Notice>
      )}
      {props.error ? (
        <Notice tone="danger" live="alert">
          {props.error}
        </Notice>
      ) : null}
      <OnlineForm
        legend={props.title}
        submitLabel={props.submitLabel}
        pending={props.pending}
        onSubmit={props.onSubmit}
      >
        {props.children}
      </OnlineForm>
      {props.footer ? <div className="stack">{props.footer}</div> : null}
    </Page>
  );
}
