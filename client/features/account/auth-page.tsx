import type { ReactNode } from 'react';
import { appShellTarget, returnPath } from '@pipit/protocol';
import { pathnameOf } from '../../platform/session/route-guards';
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
  /** Where the person goes afterwards (`?redirect=`), said above the form so they know. */
  returnTo?: string | undefined;
}

/** What a return path is, in words ("your invitation"), or nothing for home and plain pages. */
export function describeReturn(path: string | undefined): string | undefined {
  const target = returnPath(path);
  if (!target || target === '/home') return undefined;
  const pathname = pathnameOf(target);
  if (pathname.startsWith('/join/')) return 'the invitation you opened';
  if (appShellTarget(pathname)) return 'the app you were using';
  return 'the page you were on';
}

/**
 * The frame of the account-access forms (docs/product/routes.md: they need the network, and say
 * so). The submit button says what is happening; an error says what went wrong and what to do next,
 * and a refused try focuses the first field to fix, or the error above the form.
 */
export function AuthPage(props: AuthPageProps) {
  const online = useOnlineStatus();
  const going = describeReturn(props.returnTo);
  return (
    <Page title={props.title} lead={props.lead} width="narrow">
      {going ? <Notice tone="info">Afterwards we’ll take you back to {going}.</Notice> : null}
      {online ? null : (
        <Notice tone="offline" title={`${props.action} needs a connection`}>
          You’re offline. Reconnect, then try again.
        </Notice>
      )}
      <OnlineForm
        legend={props.title}
        submitLabel={props.submitLabel}
        pending={props.pending}
        onSubmit={props.onSubmit}
        errorSummary={
          props.error ? (
            <Notice tone="danger" live="alert">
              {props.error}
            </Notice>
          ) : null
        }
      >
        {props.children}
      </OnlineForm>
      {props.footer ? <div className="stack">{props.footer}</div> : null}
    </Page>
  );
}
