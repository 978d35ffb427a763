import {
  SPACE_LIMITS,
  type SpaceDetail,
  type SpaceGrantableRole,
  type SpaceRole,
  type SpaceSummary,
} from '@pipit/protocol';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
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
import { addSpace, chooseSpace, rememberPeople } from '../../sync/space-list';
import { Button } from '../../ui/button';
import { SelectField, TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { useModal } from '../../ui/use-modal';
import { useOnlineStatus } from '../../ui/use-online-status';
import type { SpacesState } from './use-spaces';

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

/**
 * Spaces in a running app (docs/product/spaces.md): which data the app shows (the person's own, or
 * a space's), a new space, and the shown space's people and invitations. Choosing works offline;
 * everything about members needs the server, and says so.
 */
export function SpacesDialog(props: SpacesDialogProps) {
  const { onClose } = props;
  const ref = useModal();
  const titleId = useId();
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
        <h2 className="spaces-dialog__title" id={titleId}>
          Share with people
        </h2>
        <Button variant="ghost" size="small" onClick={onClose}>
          Close
        </Button>
      </div>
      {props.account ? (
        <SignedIn {...props} account={props.account} />
      ) : (
        <div className="spaces-dialog__body">
          <p>
            In a space, the people you invite see and add to the same list as you — a household’s
            shopping, a trip’s packing. Everything else in the app stays yours alone.
          </p>
          <p>
            <a href={`/login?redirect=${encodeURIComponent(location.pathname)}`}>Sign in</a> or{' '}
            <a href={`/signup?redirect=${encodeURIComponent(location.pathname)}`}>
              create an account
            </a>{' '}
            to make a space.
          </p>
        </div>
      )}
    </dialog>
  );
}

function SignedIn({
  appId,
  account,
  spaces,
  privateSharedItems,
  onCreated,
}: SpacesDialogProps & { account: { id: string; username: string } }) {
  const online = useOnlineStatus();
  const active = spaces.active;
  return (
    <div className="spaces-dialog__body">
      {!online ? (
        <Notice tone="offline" title="You’re offline">
          You can switch spaces and add items; they sync when you’re back online. Making a space and
          inviting people need a connection.
        </Notice>
      ) : null}
      <fieldset className="spaces-dialog__choice">
        <legend>Show</legend>
        <label className="spaces-dialog__option">
          <input
            type="radio"
            name="space"
            checked={active === null}
            onChange={() => chooseSpace(account.id, appId, null)}
          />
          <span>
            <strong>Just me</strong>
            <span className="spaces-dialog__muted">Your own items, private to you</span>
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
                {space.memberCount === 1 ? 'Only you so far' : `${space.memberCount} people`} ·{' '}
                {ROLE_LABELS[space.role]}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {active ? (
        <SpaceDetails
          key={active.id}
          space={active}
          account={account}
          online={online}
          onGone={() => void spaces.refresh().catch(() => undefined)}
        />
      ) : null}
      <NewSpace
        appId={appId}
        accountId={account.id}
        online={online}
        privateSharedItems={privateSharedItems}
        full={spaces.spaces.length >= SPACE_LIMITS.spacesPerPerson}
        onCreated={onCreated}
      />
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
  return (
    <form className="spaces-dialog__section" onSubmit={(event) => void submit(event)} noValidate>
      <h3>New space</h3>
      <TextField
        label="Name"
        value={name}
        maxLength={60}
        placeholder="Our flat"
        onChange={(event) => setName(event.currentTarget.value)}
        error={problem ?? undefined}
        disabled={!online || full}
      />
      {privateSharedItems > 0 ? (
        <label className="spaces-dialog__check">
          <input
            type="checkbox"
            checked={move}
            onChange={(e) => setMove(e.currentTarget.checked)}
          />
          Move my {privateSharedItems === 1 ? 'item' : `${privateSharedItems} items`} into it
        </label>
      ) : null}
      {full ? (
        <p className="spaces-dialog__muted">
          You’re in {SPACE_LIMITS.spacesPerPerson} spaces, the most one person can be in. Leave one
          to make another.
        </p>
      ) : null}
      <Button type="submit" disabled={!online || busy || full}>
        {busy ? 'Making the space…' : 'Make a space'}
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
  onGone(): void;
}) {
  const [state, setState] = useState<Loaded>({ kind: 'loading' });
  const [problem, setProblem] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
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
  const act = async (action: () => Promise<unknown>, after: 'reload' | 'gone' = 'reload') => {
    setProblem(null);
    try {
      await action();
      if (after === 'gone') onGone();
      else load();
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };
  return (
    <section className="spaces-dialog__section" aria-labelledby={`space-${space.id}`}>
      <h3 id={`space-${space.id}`} dir="auto">
        {space.name}
      </h3>
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
          <ul className="spaces-dialog__members" aria-label="People in this space">
            {state.detail.members.map((member) => (
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
                      onClick={() => void act(() => removeSpaceMember(space.id, member.username))}
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
          {isOwner ? (
            <Invitations
              spaceId={space.id}
              detail={state.detail}
              link={link}
              onLink={setLink}
              act={act}
            />
          ) : null}
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
                void act(() => deleteSpace(space.id), 'gone');
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
                void act(() => removeSpaceMember(space.id, account.username), 'gone');
            }}
          >
            Leave space
          </Button>
        )}
      </div>
    </section>
  );
}

function Invitations({
  spaceId,
  detail,
  link,
  onLink,
  act,
}: {
  spaceId: string;
  detail: SpaceDetail;
  link: string | null;
  onLink(link: string | null): void;
  act(action: () => Promise<unknown>): Promise<void>;
}) {
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<SpaceGrantableRole>('member');
  const [linkRole, setLinkRole] = useState<SpaceGrantableRole>('member');
  const [copied, setCopied] = useState(false);
  const full = detail.members.length >= SPACE_LIMITS.membersPerSpace;
  return (
    <>
      <form
        className="spaces-dialog__invite"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const name = username.trim().replace(/^@/u, '');
          if (!name) return;
          void act(async () => {
            await setSpaceMember(spaceId, name, role);
            setUsername('');
          });
        }}
      >
        <h4>Invite by username</h4>
        <TextField
          label="Username"
          value={username}
          autoCapitalize="none"
          spellCheck={false}
          onChange={(event) => setUsername(event.currentTarget.value)}
          disabled={full}
        />
        <RoleField label="They can" value={role} onChange={setRole} />
        <Button type="submit" variant="secondary" disabled={full || !username.trim()}>
          Add to space
        </Button>
        {full ? (
          <p className="spaces-dialog__muted">
            A space has at most {SPACE_LIMITS.membersPerSpace} people on the free plan. Remove
            someone to add another.
          </p>
        ) : null}
      </form>
      <div className="spaces-dialog__invite">
        <h4>Invite with a link</h4>
        <RoleField label="People who open the link can" value={linkRole} onChange={setLinkRole} />
        <Button
          variant="secondary"
          onClick={() =>
            void act(async () => {
              const made = await createSpaceInvite(spaceId, linkRole, SPACE_LIMITS.inviteDays);
              onLink(made.url);
              setCopied(false);
            })
          }
        >
          Make a link
        </Button>
        {link ? (
          <div className="spaces-dialog__link">
            <TextField
              label="Invitation link"
              readOnly
              value={link}
              hint={`Works for ${SPACE_LIMITS.inviteDays} days. Anyone with it can join after signing in.`}
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button
              variant="secondary"
              size="small"
              onClick={() => {
                void navigator.clipboard?.writeText(link).then(() => setCopied(true));
              }}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          </div>
        ) : null}
        {detail.invites.length > 0 ? (
          <ul className="spaces-dialog__members" aria-label="Open invitation links">
            {detail.invites.map((invite) => (
              <li key={invite.id}>
                <span className="spaces-dialog__muted">
                  Link for people who{' '}
                  {invite.role === 'member' ? 'add and change items' : 'only view'}, until{' '}
                  {new Date(invite.expiresAt).toLocaleDateString()}
                </span>
                <Button
                  variant="ghost"
                  size="small"
                  onClick={() =>
                    void act(async () => {
                      await revokeSpaceInvite(spaceId, invite.id);
                      onLink(null);
                    })
                  }
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </>
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
