import { useNavigate } from '@tanstack/react-router';
import { DRAFT_LIMITS, type DraftSummary } from '@pipit/protocol';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { describeError } from '../../../platform/api/request';
import { sendWaitingDrafts, syncDrafts } from '../../../platform/drafts';
import {
  forgetLocalDraft,
  type LocalDraft,
  startLocalDraft,
  useLocalDrafts,
} from '../../../sync/app-document/local-drafts';
import { Button } from '../../../ui/button';
import { ButtonLink } from '../../../ui/button-link';
import { TextField } from '../../../ui/field';
import { timeAgo } from '../../../ui/format-time';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { EditorDialog } from '../common/editor-dialog';
import { useEditorIfReady } from '../common/editor-context';
import './drafts.css';

/*
 * Drafts of an app (docs/product/drafts.md), from the app's editor: "Drafts · 2" in the top bar
 * lists the open ones (this device's and the server's), starts a new one — offline too — and
 * says which were merged or deleted, by whom.
 */

const nameOf = (person: DraftSummary['createdBy']) =>
  person ? person.displayName || person.username : 'Someone';

/** The server's list, asked when online and again every minute; null until it answers. */
function useServerDrafts(owner: string, appId: string, refresh: number) {
  const online = useOnlineStatus();
  const [list, setList] = useState<DraftSummary[] | null>(null);
  const load = useCallback(() => {
    syncDrafts(owner, appId).then(setList, () => undefined);
  }, [owner, appId]);
  useEffect(() => {
    if (!online) return;
    load();
    const timer = setInterval(load, 60_000);
    return () => clearInterval(timer);
  }, [load, online, refresh]);
  return list;
}

export function DraftsButton({ appId, owner }: { appId: string; owner: string }) {
  const editor = useEditorIfReady();
  const [open, setOpen] = useState(false);
  const [refresh, setRefresh] = useState(0);
  const local = useLocalDrafts(owner, appId) ?? [];
  const server = useServerDrafts(owner, appId, refresh);
  if (!editor || editor.readOnly) return null;
  return (
    <>
      <Button
        variant="secondary"
        size="small"
        onClick={() => {
          setOpen(true);
          setRefresh((n) => n + 1);
        }}
      >
        {local.length > 0 ? `Drafts · ${local.length}` : 'Drafts'}
      </Button>
      {open ? (
        <DraftsDialog
          appId={appId}
          owner={owner}
          local={local}
          closed={server?.filter((d) => d.status !== 'open') ?? []}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function DraftsDialog({
  appId,
  owner,
  local,
  closed,
  onClose,
}: {
  appId: string;
  owner: string;
  local: LocalDraft[];
  closed: DraftSummary[];
  onClose(): void;
}) {
  const online = useOnlineStatus();
  return (
    <EditorDialog title="Drafts" onClose={onClose}>
      <p>
        A draft is a copy of the app to try changes on the side, alone or with other editors, while
        the app keeps changing. Take the app’s new changes in with Update draft; when it’s ready,
        merge it back part by part.
      </p>
      {online ? null : (
        <p className="editor-muted" role="status">
          You’re offline: a draft you start now is kept on this device and shared when you’re back
          online.
        </p>
      )}
      <StartDraftForm appId={appId} owner={owner} full={local.length >= DRAFT_LIMITS.openPerApp} />
      {local.length > 0 ? (
        <ul className="drafts__list" aria-label="Open drafts">
          {local.map((draft) => (
            <OpenDraftRow key={draft.key} appId={appId} owner={owner} draft={draft} />
          ))}
        </ul>
      ) : (
        <p className="editor-muted drafts__empty">No open drafts.</p>
      )}
      {closed.length > 0 ? (
        <>
          <h3 className="drafts__heading">Merged and deleted</h3>
          <ul className="drafts__list" aria-label="Merged and deleted drafts">
            {closed.map((draft) => (
              <li key={draft.id}>
                <span>
                  {draft.name}{' '}
                  <span className="editor-muted">
                    {draft.status === 'merged' ? 'merged' : 'deleted'} by {nameOf(draft.closedBy)}
                    {draft.closedAt ? `, ${timeAgo(draft.closedAt)}` : ''}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </EditorDialog>
  );
}

function OpenDraftRow({
  appId,
  owner,
  draft,
}: {
  appId: string;
  owner: string;
  draft: LocalDraft;
}) {
  const editor = useEditorIfReady();
  const who = draft.startedBy ?? 'you';
  return (
    <li>
      <span>
        {draft.name}{' '}
        <span className="editor-muted">
          started by {who}, {timeAgo(draft.createdAt)}
          {draft.registered ? '' : draft.problem ? '' : ' · on this device until you’re online'}
        </span>
        {draft.problem ? (
          <span className="drafts__problem">Not shared: {draft.problem}</span>
        ) : null}
      </span>
      {draft.problem ? (
        <Button
          size="small"
          variant="secondary"
          aria-label={`Delete the draft “${draft.name}” from this device`}
          onClick={() =>
            editor?.confirm({
              title: `Delete the draft “${draft.name}”?`,
              body: 'The server did not take it, so it is only on this device: its changes go.',
              confirmLabel: 'Delete draft',
              onConfirm: () => void forgetLocalDraft(owner, appId, draft.id),
            })
          }
        >
          Delete
        </Button>
      ) : (
        <ButtonLink
          size="small"
          to="/apps/$id/edit"
          params={{ id: appId }}
          search={{ draft: draft.id }}
          aria-label={`Open the draft “${draft.name}”`}
        >
          Open
        </ButtonLink>
      )}
    </li>
  );
}

function StartDraftForm({ appId, owner, full }: { appId: string; owner: string; full: boolean }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const start = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setProblem('Give the draft a name, for example “Try a new layout”.');
      return;
    }
    setProblem(null);
    setWorking(true);
    try {
      const id = await startLocalDraft(owner, appId, trimmed);
      // Shared at once when online; offline, when the device is back online.
      await sendWaitingDrafts(owner).catch(() => 0);
      await navigate({ to: '/apps/$id/edit', params: { id: appId }, search: { draft: id } });
    } catch (error) {
      setProblem(describeError(error).message);
      setWorking(false);
    }
  };
  if (full) {
    return (
      <Notice tone="info" title="This app has as many drafts as it may">
        <p>Merge or delete one of its {DRAFT_LIMITS.openPerApp} drafts to start another.</p>
      </Notice>
    );
  }
  return (
    <form className="drafts__start" onSubmit={(e) => void start(e)} noValidate>
      <TextField
        label="New draft"
        placeholder="Try a new layout"
        value={name}
        maxLength={DRAFT_LIMITS.nameMaxLength}
        error={problem ?? undefined}
        onChange={(e) => setName(e.target.value)}
      />
      <Button type="submit" disabled={working}>
        {working ? 'Starting…' : 'Start draft'}
      </Button>
    </form>
  );
}
