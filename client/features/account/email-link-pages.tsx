import { Link } from '@tanstack/react-router';
import { accountSchema, returnPath } from '@pipit/protocol';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { buttonClass } from '../../ui/button';
import { ButtonLink } from '../../ui/button-link';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { ApiRequestError, apiSend, describeError } from '../../platform/api/request';
import { loadSession, setAccount, useSession } from '../../platform/session/session';
import { describeReturn } from './auth-page';
import { linkFailureWords } from './link-failure';

type LinkState =
  | { status: 'working' }
  | { status: 'done' }
  | { status: 'failed'; code: string | undefined; message: string };

/**
 * Uses an emailed link's token once, when the page opens (StrictMode mounts twice in development:
 * the ref keeps it to one request, which matters since a token works once).
 */
function useTokenLink(token: string | undefined, use: (token: string) => Promise<void>): LinkState {
  const [state, setState] = useState<LinkState>(() =>
    token ? { status: 'working' } : { status: 'failed', code: 'token_invalid', message: '' },
  );
  const started = useRef(false);
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    use(token).then(
      () => setState({ status: 'done' }),
      (error: unknown) =>
        setState({
          status: 'failed',
          code: error instanceof ApiRequestError ? error.code : undefined,
          message: describeError(error).message,
        }),
    );
  }, [token, use]);
  return state;
}

function Failure({
  state,
  retry,
}: {
  state: Extract<LinkState, { status: 'failed' }>;
  retry: React.ReactNode;
}) {
  const words = linkFailureWords(state.code, state.message);
  return (
    <>
      <Notice tone="warning" title={words.title} live="alert">
        <p>{words.body}</p>
      </Notice>
      {retry}
    </>
  );
}

/** Where a signed-in person goes on from the verify page: `next` when the link has one, else home. */
function ContinueLink({ returnTo }: { returnTo: string | undefined }) {
  const going = describeReturn(returnTo);
  return returnTo ? (
    <a className={buttonClass()} href={returnTo}>
      {going ? `Continue to ${going}` : 'Continue'}
    </a>
  ) : (
    <ButtonLink to="/home">Go to your home page</ButtonLink>
  );
}

const verifyResponse = z.object({ verified: z.boolean(), account: z.nullable(accountSchema) });

/**
 * `/verify-email?token=…&next=…`: `next` is where the person was going when they signed up (an
 * invitation); the page leads on there, signing in first on a device that is not signed in.
 */
export function VerifyEmailPage({
  token,
  next,
}: {
  token: string | undefined;
  next?: string | undefined;
}) {
  const { account } = useSession();
  const returnTo = returnPath(next);
  const going = describeReturn(returnTo);
  const state = useTokenLink(token, async (t) => {
    const result = await apiSend('POST', '/api/auth/verify-email', { token: t }, verifyResponse);
    if (result.account) setAccount(result.account);
  });
  // A public page asks nobody who is signed in (it shows the copy last seen on this device, none
  // on a device where the cookie is all there is): a refused link needs the server's answer.
  const failed = state.status === 'failed';
  useEffect(() => {
    if (failed) void loadSession();
  }, [failed]);
  // An older link opened after the address was confirmed: nothing is wrong, and the
  // "send a fresh link" banner it would point to is not there. Offline, we cannot know yet.
  const alreadyConfirmed =
    failed && state.code !== 'offline' && account?.emailVerified === true ? account : null;
  return (
    <Page title="Confirm your email" width="narrow">
      {state.status === 'working' ? <Loading label="Confirming your email…" /> : null}
      {state.status === 'done' ? (
        <>
          <Notice tone="success" title="Your email is confirmed">
            Thank you. You can publish your apps and invite people now, and if you ever forget your
            password, a reset link will reach you there.
          </Notice>
          {account ? (
            <ContinueLink returnTo={returnTo} />
          ) : (
            <ButtonLink to="/login" search={{ redirect: returnTo }}>
              {going ? `Sign in and continue to ${going}` : 'Sign in'}
            </ButtonLink>
          )}
        </>
      ) : null}
      {alreadyConfirmed ? (
        <>
          <Notice tone="success" title="Your email is already confirmed.">
            This link is no longer needed: the address <strong>{alreadyConfirmed.email}</strong> is
            confirmed.
          </Notice>
          <ContinueLink returnTo={returnTo} />
        </>
      ) : null}
      {state.status === 'failed' && !alreadyConfirmed ? (
        <Failure
          state={state}
          retry={
            <p>
              {account ? (
                <>A fresh link can be sent from the banner at the top of the page.</>
              ) : (
                <>
                  <Link to="/login" search={{ redirect: returnTo }}>
                    Sign in
                  </Link>{' '}
                  to get a fresh link.
                </>
              )}
            </p>
          }
        />
      ) : null}
    </Page>
  );
}

/** `/confirm-email-change?token=…` */
export function ConfirmEmailChangePage({ token }: { token: string | undefined }) {
  const state = useTokenLink(token, async (t) => {
    await apiSend(
      'POST',
      '/api/auth/confirm-email-change',
      { token: t },
      z.object({ confirmed: z.boolean() }),
    );
    // Every session ended with the change, this one too.
    setAccount(null);
  });
  return (
    <Page title="Confirm your new email" width="narrow">
      {state.status === 'working' ? <Loading label="Confirming your new email…" /> : null}
      {state.status === 'done' ? (
        <>
          <Notice tone="success" title="Your email has changed">
            For your safety every device was signed out. Sign in again with your new address.
          </Notice>
          <ButtonLink to="/login">Sign in</ButtonLink>
        </>
      ) : null}
      {state.status === 'failed' ? (
        <Failure
          state={state}
          retry={
            <p>
              You can ask for the change again from{' '}
              <Link to="/account/settings">your settings</Link>.
            </p>
          }
        />
      ) : null}
    </Page>
  );
}
