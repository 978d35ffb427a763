import {
  SPACE_LIMITS,
  type SpaceDetail,
  type SpaceGrantableRole,
  type SpaceRole,
  type SpaceSummary,
} from '@pipit/protocol';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { describeError } from '../../platform/api/request';
import {
  createSpace,
  createSpaceInvite,
  deleteSpace,
  fetchSpace,
  removeSpaceMember,
  revokeSpaceInvite,
  setSpaceMember,
} from '../../platform/spaces';
import { addSpace, chooseSpace, rememberPeople } from '../../sync/spaces/space-list';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { useModal } from '../../ui/use-modal';
import { formatDate } from '../../ui/format-time';
import { useOnlineStatus } from '../../ui/use-online-status';
import type { SpacesState } from './use-spaces';
import { SpaceNotifications } from './space-notifications';

const ROLE_LABELS: Record<SpaceRole, string> = {
  owner: 'Owner',
  member: 'Can add and change',
  reader: 'Can only view',
};

export interface SpacesDialogProps {
  appId: string;
  appTitle: string;
  /** Signed out: the dialog says how spaces work and asks to sign in. */
  account: { id: string; username: string } | null;
  spaces: SpacesState;
  /** The person's private items in the shared collections (offered to move into a new space). */
  privateSharedItems: number;
  /** A new space was made: move the private items of shared collections into it once it opens. */
  onCreated(moveItems: boolean): void;
  onClose(): void;
}

/** Which part of the dialog shows: the lists to choose from, a new space, or one space's people. */
type View = 'lists' | 'new' | 'space';

/**
 * Spaces in a running app (docs/product/spaces.md), as people know them from shared lists: one
 * sentence on what a space is, the lists to show (their own, and each space), "Share" leading to a
 * space's people and its link, and a new space on a page of its own. Choosing works offline;
 * everything about members needs the server, and says so.
 */
export function SpacesDialog(props: SpacesDialogProps) {
  const { onClose } = props;
  const ref = useModal();
  const titleId = useId();
  const [view, setView] = useState<View>('lists');
  const active = props.spaces.active;
  const shown: View = view === 'space' && !active ? 'lists' : view;
  const title =
    shown === 'new' ? 'New space' : shown === 'space' && active ? active.name : 'Share with people';
  // Each view starts at its heading (a screen reader hears where it is; a phone sees the top).
  const headingRef = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [shown]);
  // The lists as the server has them now (how many people, the person's role), each time they
  // show: the device's copy is from when the app opened.
  const { refresh } = props.spaces;
  const signedIn = props.account !== null;
  useEffect(() => {
    if (shown !== 'lists' || !signedIn || !navigator.onLine) return;
    refresh().catch((error: unknown) => console.info('Could not refresh your spaces:', error));
  }, [shown, signedIn, refresh]);
  return (
    <dialog
      ref={ref}
      className="spaces-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="spaces-dialog__head">
        {shown !== 'lists' ? (
          <Button variant="ghost" size="small" onClick={() => setView('lists')}>
            <span aria-hidden="true">‹ </span>Lists
          </Button>
        ) : null}
        <h2 className="spaces-dialog__title" id={titleId} dir="auto" tabIndex={-1} ref={headingRef}>
          {title}
        </h2>
        <Button variant="ghost" size="small" onClick={onClose}>
          Close
        </Button>
      </div>
      {props.account ? (
        <SignedIn {...props} account={props.account} view={shown} onView={setView} />
      ) : (
        <div className="spaces-dialog__body">
          <SpacesIntro appTitle={props.appTitle} />
          <p>
            <a href={`/login?redirect=${encodeURIComponent(location.pathname)}`}>Sign in</a> or{' '}
            <a href={`/signup?redirect=${encodeURIComponent(location.pathname)}`}>
              create an account
            </a>{' '}
            to make a space or join one; you’ll come straight back here.
          </p>
        </div>
      )}
    </dialog>
  );
}

/** What a space is and who sees what, in one sentence, for everyone who opens the dialog. */
function SpacesIntro({ appTitle }: { appTitle: string }) {
  return (
    <p>
      A space is a list you share: the people you invite see, add and change the same items as you —
      a household’s shopping, a trip’s packing. Everything else in {appTitle || 'this app'} stays
      yours alone.
    </p>
  );
}

function SignedIn({
  appId,
  appTitle,
  account,
  spaces,
  privateSharedItems,
  onCreated,
  view,
  onView,
}: SpacesDialogProps & {
  account: { id: string; username: string };
  view: View;
  onView(view: View): void;
}) {
  const online = useOnlineStatus();
  const active = spaces.active;
  const full = spaces.spaces.length >= SPACE_LIMITS.spacesPerPerson;
  const offline = !online ? (
    <Notice tone="offline" title="You’re offline">
      You can switch lists and add items; they sync when you’re back online. Making a space and
      inviting people need a connection.
    </Notice>
  ) : null;
  if (view === 'new') {
    return (
      <div className="spaces-dialog__body">
        {offline}
        <NewSpace
          appId={appId}
          accountId={account.id}
          online={online}
          privateSharedItems={privateSharedItems}
          full={full}
          onCreated={(move) => {
            onCreated(move);
            onView('space');
          }}
        />
      </div>
    );
  }
  if (view === 'space' && active) {
    return (
      <div className="spaces-dialog__body">
        {offline}
        <SpaceDetails
          key={active.id}
          space={active}
          account={account}
          online={online}
          onGone={(how) => {
            onView('lists');
            void spaces
              .goneHere(active, how)
              .then(() => spaces.refresh())
              .catch(() => undefined);
          }}
        />
      </div>
    );
  }
  return (
    <div className="spaces-dialog__body">
      <SpacesIntro appTitle={appTitle} />
      {offline}
      <fieldset className="spaces-dialog__choice">
        <legend>Show this list</legend>
        <label className="spaces-dialog__option">
          <input
            type="radio"
            name="space"
            checked={active === null}
            onChange={() => chooseSpace(account.id, appId, null)}
          />
          <span>
            <strong>My own list</strong>
            <span className="spaces-dialog__muted">Private: only you see it</span>
          </span>
        </label>
        {spaces.spaces.map((space) => (
          <label className="spaces-dialog__option" key={space.id}>
            <input
              type="radio"
              name="space"
              checked={active?.id === space.id}
              onChange={() => chooseSpace(account.id, appId, space.id)}
            />
            <span>
              <strong dir="auto">{space.name}</strong>
              <span className="spaces-dialog__muted">
                Shared ·{' '}
                {space.memberCount === 1 ? 'only you so far' : `${space.memberCount} people`} ·{' '}
                {space.role === 'owner' ? 'yours' : ROLE_LABELS[space.role].toLowerCase()}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="spaces-dialog__row">
        {active ? (
          <Button onClick={() => onView('space')}>
            {active.role === 'owner' ? 'Share' : 'People'}
            <span className="visually-hidden"> in “{active.name}”</span>
          </Button>
        ) : null}
        <Button
          variant={active ? 'secondary' : 'primary'}
          disabled={!online || full}
          onClick={() => onView('new')}
        >
          New space
        </Button>
      </div>
      {full ? (
        <p className="spaces-dialog__muted">
          You’re in {SPACE_LIMITS.spacesPerPerson} spaces, the most one person can be in. Leave one
          to make another.
        </p>
      ) : null}
    </div>
  );
}

function NewSpace({
  appId,
  accountId,
  online,
  privateSharedItems,
  full,
  onCreated,
}: {
  appId: string;
  accountId: string;
  online: boolean;
  privateSharedItems: number;
  full: boolean;
  onCreated(moveItems: boolean): void;
}) {
  const [name, setName] = useState('');
  const [move, setMove] = useState(true);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!name.trim()) {
      setProblem('Name the space, for example “Our flat”.');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const space = await createSpace(appId, name.trim());
      addSpace(accountId, appId, space);
      setName('');
      onCreated(move && privateSharedItems > 0);
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setBusy(false);
    }
  };
  const items = privateSharedItems === 1 ? 'item' : `${privateSharedItems} items`;
  return (
    <form className="spaces-dialog__form" onSubmit={(event) => void submit(event)} noValidate>
      <p>
        Give it a name the people you invite will recognise. Next you can invite them with a link.
      </p>
      <TextField
        label="Name of the space"
        value={name}
        maxLength={60}
        hint="For example “Our flat” or “Trip to Lisbon”."
        onChange={(event) => setName(event.currentTarget.value)}
        error={problem ?? undefined}
        disabled={!online || full}
      />
      {privateSharedItems > 0 ? (
        <div>
          <label className="spaces-dialog__check">
            <input
              type="checkbox"
              checked={move}
              onChange={(e) => setMove(e.currentTarget.checked)}
            />
            Move my {items} into it
          </label>
          <p className="spaces-dialog__muted">
            {move
              ? `The people you invite will see ${privateSharedItems === 1 ? 'it' : 'them'}, and ${privateSharedItems === 1 ? 'it leaves' : 'they leave'} your own list.`
              : `Your ${items} stay${privateSharedItems === 1 ? 's' : ''} in your own list; the space starts empty.`}
          </p>
        </div>
      ) : null}
      <Button type="submit" disabled={!online || busy || full}>
        {busy ? 'Making the space…' : 'Make the space'}
      </Button>
    </form>
  );
}

type Loaded =
  | { kind: 'loading' }
  | { kind: 'ready'; detail: SpaceDetail }
  | { kind: 'failed'; message: string };

function SpaceDetails({
  space,
  account,
  online,
  onGone,
}: {
  space: SpaceSummary;
  account: { id: string; username: string };
  online: boolean;
  /** The space is gone for the person: they left it, or deleted it. */
  onGone(how: 'left' | 'deleted'): void;
}) {
  const [state, setState] = useState<Loaded>({ kind: 'loading' });
  const [problem, setProblem] = useState<string | null>(null);
  const isOwner = space.role === 'owner';
  const load = useCallback(() => {
    fetchSpace(space.id).then(
      (detail) => {
        setState({ kind: 'ready', detail });
        rememberPeople(account.id, space.appId, space.id, detail.members);
      },
      (error: unknown) => setState({ kind: 'failed', message: describeError(error).message }),
    );
  }, [space.id, space.appId, account.id]);
  useEffect(() => {
    if (online) load();
  }, [online, load]);
  const act = async (
    action: () => Promise<unknown>,
    after: 'reload' | 'deleted' | 'left' = 'reload',
  ) => {
    setProblem(null);
    try {
      await action();
      if (after === 'reload') load();
      else onGone(after);
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };
  return (
    <>
      <p className="spaces-dialog__muted">
        {isOwner
          ? 'Your space. Everyone in it sees the same list; you decide who is in it.'
          : `You ${space.role === 'reader' ? 'can view' : 'can add to and change'} this list, shared by its owner.`}
      </p>
      {problem ? (
        <Notice tone="danger" live="alert">
          {problem}
        </Notice>
      ) : null}
      {!online ? (
        <p className="spaces-dialog__muted">Who is in this space shows when you’re online.</p>
      ) : state.kind === 'loading' ? (
        <p className="spaces-dialog__muted" role="status">
          Loading who is in this space…
        </p>
      ) : state.kind === 'failed' ? (
        <Notice tone="danger">
          {state.message}{' '}
          <Button variant="secondary" size="small" onClick={load}>
            Try again
          </Button>
        </Notice>
      ) : (
        <>
          {isOwner ? <InviteWithLink spaceId={space.id} detail={state.detail} act={act} /> : null}
          <section className="spaces-dialog__section" aria-labelledby={`people-${space.id}`}>
            <h3 id={`people-${space.id}`}>People ({state.detail.members.length})</h3>
            <Members
              space={space}
              account={account}
              members={state.detail.members}
              isOwner={isOwner}
              act={act}
            />
            {isOwner ? (
              <AddByUsername spaceId={space.id} detail={state.detail} onAdded={load} />
            ) : null}
          </section>
          {isOwner && state.detail.invites.length > 0 ? (
            <OpenLinks spaceId={space.id} detail={state.detail} act={act} />
          ) : null}
          <SpaceNotifications space={space} online={online} />
        </>
      )}
      <div className="spaces-dialog__danger">
        {isOwner ? (
          <Button
            variant="danger"
            size="small"
            disabled={!online}
            onClick={() => {
              if (
                confirm(
                  `Delete “${space.name}” for everyone in it? Its items are removed from the server and from everyone’s devices. This can’t be undone.`,
                )
              )
                void act(() => deleteSpace(space.id), 'deleted');
            }}
          >
            Delete space
          </Button>
        ) : (
          <Button
            variant="secondary"
            size="small"
            disabled={!online}
            onClick={() => {
              if (confirm(`Leave “${space.name}”? Its items are removed from this device.`))
                void act(() => removeSpaceMember(space.id, account.username), 'left');
            }}
          >
            Leave space
          </Button>
        )}
      </div>
    </>
  );
}

type Act = (action: () => Promise<unknown>) => Promise<void>;

function Members({
  space,
  account,
  members,
  isOwner,
  act,
}: {
  space: SpaceSummary;
  account: { id: string };
  members: SpaceDetail['members'];
  isOwner: boolean;
  act: Act;
}) {
  return (
    <ul className="spaces-dialog__members" aria-label="People in this space">
      {members.map((member) => (
        <li key={member.userId}>
          <span className="spaces-dialog__person">
            <strong dir="auto">{member.displayName || member.username}</strong>
            <span className="spaces-dialog__muted">
              @{member.username}
              {member.userId === account.id ? ' (you)' : ''}
            </span>
          </span>
          {isOwner && member.role !== 'owner' ? (
            <span className="spaces-dialog__actions">
              <label className="visually-hidden" htmlFor={`role-${member.userId}`}>
                Role of {member.username}
              </label>
              <select
                id={`role-${member.userId}`}
                value={member.role}
                onChange={(event) =>
                  void act(() =>
                    setSpaceMember(
                      space.id,
                      member.username,
                      event.currentTarget.value as SpaceGrantableRole,
                    ),
                  )
                }
              >
                <option value="member">{ROLE_LABELS.member}</option>
                <option value="reader">{ROLE_LABELS.reader}</option>
              </select>
              <Button
                variant="ghost"
                size="small"
                onClick={() => {
                  if (
                    confirm(
                      `Take ${member.username} out of “${space.name}”? They’re told, and this link no longer lets them back in.`,
                    )
                  )
                    void act(() => removeSpaceMember(space.id, member.username));
                }}
              >
                Remove<span className="visually-hidden"> {member.username}</span>
              </Button>
            </span>
          ) : (
            <span className="spaces-dialog__muted">{ROLE_LABELS[member.role]}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The owner's way in for others, first: a link, shown right under the button that made it. */
function InviteWithLink({
  spaceId,
  detail,
  act,
}: {
  spaceId: string;
  detail: SpaceDetail;
  act: Act;
}) {
  const [linkRole, setLinkRole] = useState<SpaceGrantableRole>('member');
  const [made, setMade] = useState<{ id: string; url: string } | null>(null);
  // A link withdrawn below (Open links) is no longer offered for copying here.
  const link = made && detail.invites.some((i) => i.id === made.id) ? made.url : null;
  const [copied, setCopied] = useState(false);
  const linkRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The new link is where the person looks next: in view, its text selected for copying.
    if (!link) return;
    linkRef.current?.scrollIntoView({ block: 'nearest' });
    linkRef.current?.querySelector('input')?.select();
  }, [link]);
  const full = detail.members.length >= SPACE_LIMITS.membersPerSpace;
  const canShare = typeof navigator.share === 'function';
  return (
    <section className="spaces-dialog__section" aria-labelledby={`invite-${spaceId}`}>
      <h3 id={`invite-${spaceId}`}>Invite people</h3>
      <p className="spaces-dialog__muted">
        Send a link: whoever opens it can join after signing in. It works for{' '}
        {SPACE_LIMITS.inviteDays} days.
      </p>
      <RoleField label="People who join can" value={linkRole} onChange={setLinkRole} />
      <Button
        disabled={full}
        onClick={() =>
          void act(async () => {
            const answer = await createSpaceInvite(spaceId, linkRole, SPACE_LIMITS.inviteDays);
            setMade({ id: answer.invite.id, url: answer.url });
            setCopied(false);
          })
        }
      >
        {link ? 'Make another link' : 'Make a link'}
      </Button>
      {full ? (
        <p className="spaces-dialog__muted">
          A space has at most {SPACE_LIMITS.membersPerSpace} people on the free plan. Remove someone
          to invite another.
        </p>
      ) : null}
      {link ? (
        <div className="spaces-dialog__link" ref={linkRef}>
          <TextField
            label="Invitation link"
            readOnly
            value={link}
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="spaces-dialog__row">
            <Button
              variant="secondary"
              size="small"
              onClick={() => {
                void navigator.clipboard?.writeText(link).then(() => setCopied(true));
              }}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
            {canShare ? (
              <Button
                variant="secondary"
                size="small"
                onClick={() => {
                  navigator.share({ url: link }).catch(() => undefined);
                }}
              >
                Send…
              </Button>
            ) : null}
          </div>
          <p className="spaces-dialog__muted" role="status">
            {copied ? 'Copied. Paste it into a message to the people you want in.' : ''}
          </p>
        </div>
      ) : null}
    </section>
  );
}

function AddByUsername({
  spaceId,
  detail,
  onAdded,
}: {
  spaceId: string;
  detail: SpaceDetail;
  onAdded(): void;
}) {
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<SpaceGrantableRole>('member');
  const [busy, setBusy] = useState(false);
  // Said beside the field, where the person is looking (not at the top of the dialog).
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const full = detail.members.length >= SPACE_LIMITS.membersPerSpace;
  return (
    <details className="spaces-dialog__more">
      <summary>Add someone by username</summary>
      <form
        className="spaces-dialog__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const name = username.trim().replace(/^@/u, '');
          if (!name || busy) return;
          setBusy(true);
          setProblem(null);
          setAdded(null);
          setSpaceMember(spaceId, name, role).then(
            () => {
              setBusy(false);
              setUsername('');
              setAdded(`Added @${name}.`);
              onAdded();
            },
            (error: unknown) => {
              setBusy(false);
              setProblem(describeError(error).message);
            },
          );
        }}
      >
        <TextField
          label="Username"
          value={username}
          autoCapitalize="none"
          spellCheck={false}
          onChange={(event) => setUsername(event.currentTarget.value)}
          error={problem ?? undefined}
          disabled={full}
        />
        <RoleField label="They can" value={role} onChange={setRole} />
        <Button type="submit" variant="secondary" disabled={full || busy || !username.trim()}>
          {busy ? 'Adding…' : 'Add to space'}
        </Button>
        <p className="spaces-dialog__muted" role="status">
          {added ?? ''}
        </p>
      </form>
    </details>
  );
}

function OpenLinks({ spaceId, detail, act }: { spaceId: string; detail: SpaceDetail; act: Act }) {
  const count = detail.invites.length;
  return (
    <section className="spaces-dialog__section" aria-labelledby={`links-${spaceId}`}>
      <h3 id={`links-${spaceId}`}>Open links ({count})</h3>
      <ul className="spaces-dialog__members" aria-label="Open invitation links">
        {detail.invites.map((invite) => (
          <li key={invite.id}>
            <span className="spaces-dialog__muted">
              For people who {invite.role === 'member' ? 'add and change items' : 'only view'},
              until {formatDate(invite.expiresAt)}
            </span>
            <Button
              variant="ghost"
              size="small"
              onClick={() => void act(() => revokeSpaceInvite(spaceId, invite.id))}
            >
              Withdraw
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The role an invitation gives, in the words people choose it by. */
function RoleField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: SpaceGrantableRole;
  onChange(role: SpaceGrantableRole): void;
}) {
  return (
    <SelectField
      label={label}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value as SpaceGrantableRole)}
    >
      <option value="member">Add and change items</option>
      <option value="reader">Only view</option>
    </SelectField>
  );
}
