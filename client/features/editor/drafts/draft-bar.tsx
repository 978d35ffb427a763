import {
  type AppDefinition,
  diffDefinitions,
  parseKnownDefinition,
  type ReadDefinition,
  summarizeChanges,
} from '@pipit/app-definition';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { ApiRequestError, describeError } from '../../../platform/api/request';
import { closeDraft, loadDraftBase, syncDrafts } from '../../../platform/drafts';
import { useAppDocument } from '../../../sync/app-document/app-document';
import { forgetLocalDraft, type LocalDraft } from '../../../sync/app-document/local-drafts';
import { Button } from '../../../ui/button';
import { ButtonLink } from '../../../ui/button-link';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { ChangeList } from '../common/change-list';
import { useEditorIfReady } from '../common/editor-context';
import { MergeDraftDialog, UpdateDraftDialog } from './draft-dialogs';
import './drafts.css';

/*
 * The bar over a draft's editor (docs/product/drafts.md): which draft this is, what changed on
 * each side since it began (or last took the app's changes in), Update draft, Merge into the
 * app, Delete draft. The app's own document is open beside the draft's, synced, so both sides
 * follow collaborators live.
 */

type Base =
  | { kind: 'loading' }
  | { kind: 'ready'; base: AppDefinition; baseAt: number }
  | { kind: 'gone' }
  | { kind: 'unreachable'; message: string };

/** What the draft compares against: the server's, or this device's for a draft not shared yet. */
function useDraftBase(appId: string, draft: LocalDraft | undefined, draftId: string) {
  const online = useOnlineStatus();
  const [fetched, setFetched] = useState<Base>({ kind: 'loading' });
  const [asked, setAsked] = useState(0);
  const local = draft && !draft.registered ? draft.base : undefined;
  const localBase = useMemo(() => {
    if (local === undefined) return null;
    const parsed = parseKnownDefinition(local);
    return parsed.success ? parsed.data : null;
  }, [local]);
  // Bumped by a rebase here: an answer asked for before it is older than what it set.
  const rebases = useRef(0);
  useEffect(() => {
    if (localBase || !online) return;
    let live = true;
    const asking = rebases.current;
    const current = () => live && asking === rebases.current;
    loadDraftBase(appId, draftId).then(
      (loaded) =>
        current() && setFetched({ kind: 'ready', base: loaded.base, baseAt: loaded.draft.baseAt }),
      (error: unknown) => {
        if (!current()) return;
        if (error instanceof ApiRequestError && error.code === 'not_found') {
          setFetched({ kind: 'gone' });
          return;
        }
        // A failed look again keeps what was read before.
        const message = describeError(error).message;
        setFetched((was) => (was.kind === 'ready' ? was : { kind: 'unreachable', message }));
      },
    );
    return () => {
      live = false;
    };
  }, [appId, draftId, localBase, online, asked]);
  // Asked again when the page is shown again and every half minute: another editor may have
  // merged, deleted or updated it.
  useEffect(() => {
    const again = () => document.visibilityState === 'visible' && setAsked((n) => n + 1);
    document.addEventListener('visibilitychange', again);
    const timer = setInterval(() => setAsked((n) => n + 1), 30_000);
    return () => {
      document.removeEventListener('visibilitychange', again);
      clearInterval(timer);
    };
  }, []);
  const rebased = useCallback((definition: AppDefinition) => {
    rebases.current += 1;
    setFetched({ kind: 'ready', base: definition, baseAt: Date.now() });
  }, []);
  const createdAt = draft?.createdAt ?? 0;
  const base = useMemo<Base>(() => {
    if (localBase) return { kind: 'ready', base: localBase, baseAt: createdAt };
    if (!online && fetched.kind === 'loading') {
      return { kind: 'unreachable', message: 'you’re offline' };
    }
    return fetched;
  }, [localBase, createdAt, online, fetched]);
  return { base, rebased };
}

/**
 * What changed in the draft and in the app since the base, worked out again behind the person's
 * typing (not on every keystroke of a big app); null until all three are there.
 */
function useSides(
  base: AppDefinition | null,
  appNow: ReadDefinition | null,
  draftNow: ReadDefinition | null,
) {
  const app = useDeferredValue(appNow);
  const draft = useDeferredValue(draftNow);
  return useMemo(
    () =>
      base && app && draft
        ? { draft: diffDefinitions(base, draft), app: diffDefinitions(base, app) }
        : null,
    [base, app, draft],
  );
}

export function DraftBar({
  appId,
  draftId,
  owner,
  draft,
  onLeave,
}: {
  appId: string;
  draftId: string;
  owner: string;
  draft: LocalDraft | undefined;
  /** Back to the app's editor (the draft was merged or deleted). */
  onLeave(): void;
}) {
  const editor = useEditorIfReady();
  const online = useOnlineStatus();
  const app = useAppDocument(appId, {
    scope: { kind: 'account', accountId: owner },
    person: null,
    connect: true,
  });
  const { base, rebased } = useDraftBase(appId, draft, draftId);
  // This device's list follows the server's: a collaborator's draft opened from a link, or one
  // started here offline, becomes one it can update and merge.
  useEffect(() => {
    if (!online) return;
    syncDrafts(owner, appId).catch(() => undefined);
  }, [online, owner, appId]);
  // A dialog keeps the base it opened with: a look again meanwhile (the draft closed by this very
  // merge, a failed request) must not take it away mid-way.
  const [dialog, setDialog] = useState<{ kind: 'update' | 'merge'; base: AppDefinition } | null>(
    null,
  );
  const [problem, setProblem] = useState<string | null>(null);
  const name = draft?.name ?? 'Draft';
  const appNow = app.view.definition;
  const draftNow = editor?.definition ?? null;
  const ready = base.kind === 'ready' ? base : null;
  const sides = useSides(ready?.base ?? null, appNow, draftNow);

  const dialogs = (
    <>
      {dialog?.kind === 'update' && appNow && editor ? (
        <UpdateDraftDialog
          appId={appId}
          draftId={draftId}
          base={dialog.base}
          appNow={appNow}
          onUpdated={rebased}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'merge' && appNow && draftNow ? (
        <MergeDraftDialog
          appId={appId}
          draftId={draftId}
          owner={owner}
          name={name}
          base={dialog.base}
          draftNow={draftNow}
          app={{ definition: appNow, handle: app.handle }}
          onClose={() => setDialog(null)}
          onMerged={onLeave}
        />
      ) : null}
    </>
  );

  if (base.kind === 'gone') {
    return (
      <>
        <Notice tone="info" title="This draft was merged or deleted">
          <p>
            What was merged is in the app and its history; edits made here since are not saved. Open
            the app to go on.
          </p>
          <ButtonLink size="small" to="/apps/$id/edit" params={{ id: appId }}>
            Open the app
          </ButtonLink>
        </Notice>
        {dialogs}
      </>
    );
  }

  const remove = () =>
    editor?.confirm({
      title: `Delete the draft “${name}”?`,
      body: 'Its changes are not merged into the app and go for everyone. The app stays as it is.',
      confirmLabel: 'Delete draft',
      onConfirm: () => {
        closeDraft(appId, draftId, 'deleted').then(
          (already) => {
            // Merged or deleted by someone else first: said, and this person stays to read it.
            if (already) {
              setProblem(already);
              return;
            }
            onLeave();
            void forgetLocalDraft(owner, appId, draftId);
          },
          (error: unknown) => setProblem(describeError(error).message),
        );
      },
    });

  return (
    <section className="draft-bar" aria-label={`Draft “${name}”`}>
      <p className="draft-bar__title">
        <strong>Draft “{name}”</strong>{' '}
        <span className="editor-muted">
          {draft?.startedBy ? `started by ${draft.startedBy}. ` : ''}Edits here stay out of the app
          until the draft is merged.
        </span>
      </p>
      {sides ? (
        <div className="draft-bar__sides">
          <Side label="In this draft" changes={sides.draft} />
          <Side label="In the app since" changes={sides.app} />
        </div>
      ) : base.kind === 'unreachable' ? (
        <p className="editor-muted" role="status">
          What changed on each side shows when the server can be reached ({base.message}). Your
          edits to the draft are kept on this device and sync when you’re back online.
        </p>
      ) : (
        <p className="editor-muted" role="status">
          Comparing the draft with the app…
        </p>
      )}
      {problem ? (
        <Notice tone="danger" title="That didn’t work" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}
      {editor && !editor.readOnly ? (
        <DraftActions
          ready={sides !== null && online && draft?.registered === true}
          appChanged={(sides?.app.changes.length ?? 0) > 0}
          online={online}
          onUpdate={() => ready && setDialog({ kind: 'update', base: ready.base })}
          onMerge={() => ready && setDialog({ kind: 'merge', base: ready.base })}
          onDelete={remove}
        />
      ) : null}
      {dialogs}
    </section>
  );
}

/** Update draft, Merge into the app, Delete draft: the first two once the server has the draft. */
function DraftActions({
  ready,
  appChanged,
  online,
  onUpdate,
  onMerge,
  onDelete,
}: {
  ready: boolean;
  appChanged: boolean;
  online: boolean;
  onUpdate(): void;
  onMerge(): void;
  onDelete(): void;
}) {
  return (
    <div className="draft-bar__actions">
      <Button size="small" variant="secondary" disabled={!ready || !appChanged} onClick={onUpdate}>
        Update draft
      </Button>
      <Button size="small" disabled={!ready} onClick={onMerge}>
        Merge into the app…
      </Button>
      <Button size="small" variant="ghost" disabled={!online} onClick={onDelete}>
        Delete draft
      </Button>
      {online ? null : (
        <span className="editor-muted">Updating and merging need a connection.</span>
      )}
    </div>
  );
}

function Side({ label, changes }: { label: string; changes: ReturnType<typeof diffDefinitions> }) {
  if (changes.changes.length === 0) {
    return <p className="draft-bar__side">{label}: no changes.</p>;
  }
  return (
    <details className="draft-bar__side">
      <summary>
        {label}: {summarizeChanges(changes)}
      </summary>
      <ChangeList changes={changes.changes} label={label} showProperties />
    </details>
  );
}
