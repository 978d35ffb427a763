import {
  collaboratorListSchema,
  type Collaborator,
  type CollaboratorRole,
  collaboratorSchema,
} from '@pipit/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { z } from 'zod';
import { Button } from '../../../ui/button';
import { SelectField, TextField } from '../../../ui/field';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { apiGet, apiSend, describeError } from '../../../platform/api/request';
import { EditorDialog } from '../common/editor-dialog';
import './share-button.css';

const ROLE_OPTIONS = [
  { value: 'editor', label: 'Can edit' },
  { value: 'viewer', label: 'Can view' },
];
const ROLE_WORDS = { owner: 'Owner', editor: 'Can edit', viewer: 'Can view' };

/**
 * Who works on this app: the owner invites by username as an editor or a viewer and removes
 * people (docs/product/roles.md); everyone else sees the list. Needs a connection, and says so.
 */
export function ShareButton({ appId, isOwner }: { appId: string; isOwner: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        Share
      </Button>
      {open ? <SharePanel appId={appId} isOwner={isOwner} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function SharePanel({
  appId,
  isOwner,
  onClose,
}: {
  appId: string;
  isOwner: boolean;
  onClose(): void;
}) {
  const online = useOnlineStatus();
  const [people, setPeople] = useState<Collaborator[] | null>(null);
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<CollaboratorRole>('editor');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'danger' | 'success'; text: string } | null>(null);

  /** Bumped after an invitation or a removal: the list is asked for again. */
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!online) return;
    let live = true;
    apiGet(`/api/apps/${appId}/collaborators`, collaboratorListSchema).then(
      (list) => {
        if (live) setPeople(list.people);
      },
      (error: unknown) => {
        if (live) setMessage({ tone: 'danger', text: describeError(error).message });
      },
    );
    return () => {
      live = false;
    };
  }, [appId, online, version]);

  async function invite(event: FormEvent) {
    event.preventDefault();
    const name = username.trim().toLowerCase();
    if (!name) return;
    setBusy(true);
    setMessage(null);
    try {
      const { person } = await apiSend(
        'PUT',
        `/api/apps/${appId}/collaborators/${encodeURIComponent(name)}`,
        { role },
        z.object({ person: collaboratorSchema }),
      );
      setUsername('');
      setMessage({
        tone: 'success',
        text: `${person.displayName} (@${person.username}) ${role === 'editor' ? 'can now edit' : 'can now view'} this app.`,
      });
      setVersion((v) => v + 1);
    } catch (error) {
      setMessage({ tone: 'danger', text: describeError(error).message });
    } finally {
      setBusy(false);
    }
  }

  async function remove(person: Collaborator) {
    setBusy(true);
    setMessage(null);
    try {
      await apiSend(
        'DELETE',
        `/api/apps/${appId}/collaborators/${encodeURIComponent(person.username)}`,
        undefined,
        z.object({ removed: z.boolean() }),
      );
      setMessage({ tone: 'success', text: `@${person.username} no longer has access.` });
      setVersion((v) => v + 1);
    } catch (error) {
      setMessage({ tone: 'danger', text: describeError(error).message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <EditorDialog title="Share this app" onClose={onClose}>
      {!online ? (
        <Notice tone="offline" title="Sharing needs a connection">
          <p>You can keep editing offline; invite people when you’re back online.</p>
        </Notice>
      ) : null}
      {message ? (
        <Notice tone={message.tone} live={message.tone === 'danger' ? 'alert' : 'polite'}>
          <p>{message.text}</p>
        </Notice>
      ) : null}
      {isOwner ? (
        <form className="share__invite" onSubmit={(e) => void invite(e)}>
          <TextField
            label="Username"
            value={username}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setUsername(e.target.value)}
          />
          <SelectField
            label="Role"
            value={role}
            onChange={(e) => setRole(e.target.value as CollaboratorRole)}
          >
            {ROLE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
          <Button type="submit" disabled={!online || busy || !username.trim()}>
            Invite
          </Button>
        </form>
      ) : null}
      <h3 className="share__heading">People with access</h3>
      {people === null ? (
        <p>{online ? 'Loading…' : 'The list loads when you’re online.'}</p>
      ) : (
        <ul className="share__people">
          {people.map((person) => (
            <li key={person.userId} className="share__person">
              <span>
                <strong>{person.displayName}</strong> @{person.username}
              </span>
              <span className="share__role">{ROLE_WORDS[person.role]}</span>
              {isOwner && person.role !== 'owner' ? (
                <Button
                  variant="ghost"
                  size="small"
                  disabled={!online || busy}
                  aria-label={`Remove @${person.username}`}
                  onClick={() => void remove(person)}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </EditorDialog>
  );
}
