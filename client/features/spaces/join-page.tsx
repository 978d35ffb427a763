import { type SpaceInvitePreview, type SpaceInviteStanding } from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { ApiRequestError, describeError } from '../../platform/api/request';
import { loadSession, useSession } from '../../platform/session/session';
import { acceptSpaceInvite, previewSpaceInvite } from '../../platform/spaces';
import { addSpace } from '../../sync/spaces/space-list';
import { Button } from '../../ui/button';
import { formatDate } from '../../ui/format-time';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import './join-page.css';

type Preview =
  | { status: 'loading' }
  | { status: 'ready'; invite: SpaceInvitePreview; standing: SpaceInviteStanding }
  | { status: 'failed'; code: string | undefined; message: string };

const ROLE_WORDS = {
  member: 'see, add and change the items you share there',
  reader: 'see the items shared there',
} as const;

/** The installed app, showing the space just joined. */
const appPath = (appId: string) => `/apps/${encodeURIComponent(appId)}/pwa`;

/**
 * `/join/{token}`: an invitation to a shared space (docs/product/spaces.md). Says whose space in
 * which app and what joining allows; signed out it asks to sign in first (and comes back here);
 * joining opens the app on the space.
 */
export function JoinSpacePage({ token }: { token: string }) {
  const { account, status } = useSession();
  const [preview, setPreview] = useState<Preview>({ status: 'loading' });
  const [joining, setJoining] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const [attempt, setAttempt] = useState(0);
  /** Where sign-in and sign-up bring the person back to (and the confirmation email's link). */
  const here = `/join/${token}`;
  useEffect(() => {
    // Whether to offer "Join" or "Sign in" (no guard loaded the session for this page).
    void loadSession();
  }, []);
  useEffect(() => {
    let cancelled = false;
    previewSpaceInvite(token).then(
      ({ invite, standing }) => {
        if (!cancelled) setPreview({ status: 'ready', invite, standing });
      },
      (error: unknown) => {
        if (cancelled) return;
        setPreview({
          status: 'failed',
          code: error instanceof ApiRequestError ? error.code : (error as { code?: string }).code,
          message: describeError(error).message,
        });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [token, attempt]);
  const load = () => {
    setPreview({ status: 'loading' });
    setAttempt((n) => n + 1);
  };

  const join = async () => {
    if (!account || joining) return;
    setJoining(true);
    setProblem(null);
    try {
      const space = await acceptSpaceInvite(token);
      addSpace(account.id, space.appId, space);
      // The installed app is its own page (its own manifest and service worker scope).
      location.assign(appPath(space.appId));
    } catch (error) {
      setProblem(describeError(error).message);
      setJoining(false);
    }
  };

  if (preview.status === 'loading') {
    return (
      <Page title="Invitation" width="narrow">
        <Loading label="Opening the invitation…" />
      </Page>
    );
  }
  if (preview.status === 'failed') {
    // Only a pause (offline, too many links from this network, a server hiccup) is worth another
    // try; a link that is withdrawn or expired stays so.
    const dead = preview.code === 'token_expired' || preview.code === 'not_found';
    const title =
      preview.code === 'token_expired'
        ? 'This invitation has expired'
        : preview.code === 'offline'
          ? 'You’re offline'
          : preview.code === 'rate_limited'
            ? 'Invitations can’t be opened from your network for now'
            : dead
              ? 'This invitation doesn’t work'
              : 'This invitation couldn’t be opened';
    return (
      <Page title="Invitation" width="narrow">
        <Notice tone="warning" title={title} live="alert">
          <p>
            {preview.code === 'offline'
              ? 'Opening an invitation needs a connection. Try again once you’re back online.'
              : preview.message}
          </p>
        </Notice>
        {dead ? null : (
          <p>
            <Button variant="secondary" onClick={load}>
              Try again
            </Button>
          </p>
        )}
      </Page>
    );
  }
  const { invite } = preview;
  const inviter = invite.invitedBy.displayName || invite.invitedBy.username;
  return (
    <Page
      title={`Join “${invite.space.name}”`}
      width="narrow"
      lead={`${inviter} invites you to a shared space in ${invite.app.title || 'an app'}.`}
    >
      <p>
        In the space you can {ROLE_WORDS[invite.role]} with{' '}
        {invite.space.memberCount === 1 ? inviter : `${invite.space.memberCount} people`}. Only the
        people in the space see what’s in it, and the rest of your data in the app stays yours
        alone.
      </p>
      <p className="join-page__muted">
        This invitation works until {formatDate(invite.expiresAt)}.
      </p>
      {problem ? (
        <Notice tone="danger" live="alert">
          {problem}
        </Notice>
      ) : null}
      {account && preview.standing === 'removed' ? (
        <Notice tone="warning" title="The owner took you out of this space">
          <p>
            So this link no longer lets you in as @{account.username}. If you should be in it, ask{' '}
            {inviter} to add you again.
          </p>
        </Notice>
      ) : account && preview.standing === 'member' ? (
        <p>
          <a className="button button--primary" href={appPath(invite.app.id)}>
            You’re in it already: open the app
          </a>
        </p>
      ) : account ? (
        <p>
          <Button onClick={() => void join()} disabled={joining}>
            {joining ? 'Joining…' : `Join as @${account.username}`}
          </Button>
        </p>
      ) : status === 'loading' ? (
        <Loading label="Checking who you are…" />
      ) : (
        <>
          <p className="join-page__actions">
            <Link className="button button--primary" to="/login" search={{ redirect: here }}>
              Sign in to join
            </Link>{' '}
            <Link className="button button--secondary" to="/signup" search={{ redirect: here }}>
              Create an account
            </Link>
          </p>
          <p className="join-page__muted">
            New to Pipit? Create an account and you’ll come straight back here to join.
          </p>
        </>
      )}
    </Page>
  );
}
