import { useNavigate } from '@tanstack/react-router';
import type { AppDefinition, ReadDefinition } from '@pipit/app-definition';
import { type Account, type Checkpoint, HISTORY_LIMITS } from '@pipit/protocol';
import {
  type FormEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { createApp } from '../../../platform/app-registry';
import { describeError } from '../../../platform/api/request';
import {
  type AppHistory,
  deleteCheckpoint,
  discardPendingCheckpoint,
  deviceHistory,
  loadCheckpointDefinition,
  loadHistory,
  saveCheckpoint,
  sendPendingCheckpoints,
} from '../../../platform/history';
import { useSession } from '../../../platform/session/session';
import { Button, buttonClass } from '../../../ui/button';
import { formatBytes } from '../../../ui/durability-panel';
import { SelectField, TextField } from '../../../ui/field';
import { atMoment, formatMoment } from '../../../ui/format-time';
import { Loading } from '../../../ui/loading';
import { Notice } from '../../../ui/notice';
import { useOnlineStatus } from '../../../ui/use-online-status';
import { CheckpointPreview, Comparison, type Side } from './checkpoint-views';
import { EditorDialog } from '../common/editor-dialog';
import { useEditor } from '../common/editor-context';
import './history-panel.css';

/** "History" in the editor's top bar: every collaborator sees it; owners and editors restore. */
export function HistoryButton({ appId }: { appId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" size="small" onClick={() => setOpen(true)}>
        History
      </Button>
      {open ? <HistoryDialog appId={appId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** A row of the list: a checkpoint on the server, or one saved on this device while offline. */
interface Row {
  id: string;
  title: string;
  createdAt: number;
  by: string | null;
  summary: string;
  names: string[];
  kind: Checkpoint['kind'];
  /** Saved on this device, not on the server yet (with the server's refusal, if any). */
  pending: { problem: string | null } | null;
  deletable: boolean;
}

const KIND_TITLES: Record<Checkpoint['kind'], string> = {
  auto: 'Automatic checkpoint',
  manual: 'Checkpoint',
  publish: 'Published',
  ai: 'Before Ask AI',
  import: 'Imported',
  restore: 'Before a restore',
};

function rowsOf(history: AppHistory, me: string): Row[] {
  const pending: Row[] = history.pending.map((p) => ({
    id: p.id,
    title: p.name,
    createdAt: p.createdAt,
    by: 'You',
    summary: 'Saved on this device',
    names: [],
    kind: p.kind,
    pending: { problem: p.problem ?? null },
    deletable: true,
  }));
  const saved: Row[] = (history.list?.checkpoints ?? []).map((c) => {
    const people = c.createdBy ? [c.createdBy] : c.authors;
    return {
      id: c.id,
      title: c.name ?? KIND_TITLES[c.kind],
      createdAt: c.createdAt,
      by: people.length > 0 ? people.map((p) => p.displayName || p.username).join(', ') : null,
      summary: c.changes.summary,
      names: c.changes.names,
      kind: c.kind,
      pending: null,
      deletable: c.kind === 'manual' && c.createdBy?.username === me,
    };
  });
  return [...pending.reverse(), ...saved].sort((a, b) => b.createdAt - a.createdAt);
}

/** What the "Show" filter offers: every checkpoint, or those of one kind. */
const KIND_FILTERS: Array<{ value: 'all' | Checkpoint['kind']; label: string }> = [
  { value: 'all', label: 'All checkpoints' },
  { value: 'manual', label: 'Saved by hand' },
  { value: 'auto', label: 'Automatic' },
  { value: 'publish', label: 'Published' },
  { value: 'ai', label: 'Before Ask AI' },
  { value: 'restore', label: 'Before a restore' },
  { value: 'import', label: 'Imported' },
];

/** From this many checkpoints, the list can be filtered. */
const FILTER_FROM_ROWS = 8;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Whether a row matches the filter: its kind, and every word typed in its name, who or what changed. */
function matches(row: Row, words: string[], kind: 'all' | Checkpoint['kind']): boolean {
  if (kind !== 'all' && row.kind !== kind) return false;
  const text = [row.title, row.by ?? '', row.summary, ...row.names].join(' ').toLowerCase();
  return words.every((word) => text.includes(word));
}

/** What the dialog shows: the list, one checkpoint, or two compared. */
type View =
  { kind: 'list' } | { kind: 'preview'; id: string } | { kind: 'compare'; from: Side; to: Side };

function HistoryDialog({ appId, onClose }: { appId: string; onClose(): void }) {
  const { account } = useSession();
  const { definition, readOnly } = useEditor();
  const online = useOnlineStatus();
  const owner = account?.id ?? '';
  const loaded = useAppHistory(owner, appId, online);
  const { history } = loaded;
  const [view, setView] = useState<View>({ kind: 'list' });
  const actions = useCheckpointActions({
    owner,
    appId,
    account,
    onClose,
    refresh: loaded.refresh,
    setProblem: loaded.setProblem,
  });
  const rows = history ? rowsOf(history, account?.username ?? '') : [];
  const filter = useCheckpointFilter(rows);

  const definitionOf = (side: Side): Promise<ReadDefinition | AppDefinition> =>
    side === 'now' ? Promise.resolve(definition) : loadCheckpointDefinition(owner, appId, side);

  const publishedId = history?.list?.checkpoints.find((c) => c.kind === 'publish')?.id ?? null;
  const seenAt = history?.fetchedAt ? atMoment(history.fetchedAt) : null;

  return (
    <EditorDialog title="History" onClose={onClose} wide>
      <HistoryNotices
        online={online}
        seenAt={seenAt}
        problem={loaded.problem}
        notice={actions.notice}
      />

      {view.kind === 'preview' ? (
        <CheckpointPreview
          load={() => definitionOf(view.id)}
          title={rows.find((r) => r.id === view.id)?.title ?? 'Checkpoint'}
          onBack={() => setView({ kind: 'list' })}
          onRestore={
            readOnly
              ? null
              : () => {
                  const row = rows.find((r) => r.id === view.id);
                  if (row) actions.restore(row);
                }
          }
        />
      ) : view.kind === 'compare' ? (
        <Comparison
          appId={appId}
          rows={rows}
          from={view.from}
          to={view.to}
          publishedId={publishedId}
          onChange={(from, to) => setView({ kind: 'compare', from, to })}
          load={definitionOf}
          onBack={() => setView({ kind: 'list' })}
        />
      ) : (
        <>
          {readOnly ? null : (
            <SaveCheckpointForm
              name={actions.name}
              onName={actions.setName}
              busy={actions.busy}
              onSave={actions.save}
            />
          )}
          <HistoryTools
            history={history}
            canCompare={rows.length > 0}
            onCompare={() => setView({ kind: 'compare', from: rows[0]?.id ?? 'now', to: 'now' })}
          />
          {/* Always there, so what it says is announced, and the list below does not jump. */}
          <p className="history__source editor-muted" role="status">
            {sourceText(online, history, seenAt, loaded.settled, loaded.shownFromDevice)}
          </p>
          <CheckpointFilter filter={filter} total={rows.length} />
          <CheckpointList
            loading={history === null}
            empty={rows.length === 0}
            shown={filter.shown}
            readOnly={readOnly}
            actions={actions}
            onView={setView}
          />
        </>
      )}
    </EditorDialog>
  );
}

/**
 * The app's history: what this device saw last at once, said to be that, then the server's answer
 * (after sending the checkpoints saved here while offline), again whenever `refresh` is called or
 * the connection comes back. `problem` is the dialog's one error line, which its actions set too.
 */
function useAppHistory(owner: string, appId: string, online: boolean) {
  const [history, setHistory] = useState<AppHistory | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  /** Bumped to load the history again (after a save, a delete). */
  const [loads, setLoads] = useState(0);
  const refresh = useCallback(() => setLoads((n) => n + 1), []);
  /** The load (`loads`, online or not) that last came back, from the server or not. */
  const [answered, setAnswered] = useState<string | null>(null);
  const loading = `${loads}/${online}`;
  /** This device's copy was shown before the server's answer came: the swap is said. */
  const [shownFromDevice, setShownFromDevice] = useState(false);

  useEffect(() => {
    if (!owner) return;
    let live = true;
    const load = async () => {
      if (navigator.onLine) await sendPendingCheckpoints(owner, appId);
      return loadHistory(owner, appId);
    };
    // What this device saw last shows at once, said to be that, while the server is asked; the
    // server's answer replaces it, said too: never a silent swap.
    void deviceHistory(owner, appId).then(
      (seen) => {
        if (!live || !seen) return;
        setHistory((shown) => shown ?? seen);
        setShownFromDevice((was) => was || seen.list !== null);
      },
      () => undefined,
    );
    load().then(
      (loaded) => {
        if (!live) return;
        setHistory(loaded);
        setAnswered(`${loads}/${online}`);
      },
      (error: unknown) => {
        if (!live) return;
        setProblem(describeError(error).message);
        setAnswered(`${loads}/${online}`);
      },
    );
    return () => {
      live = false;
    };
  }, [owner, appId, online, loads]);

  /** Whether the latest load came back, from the server or not. */
  const settled = answered === loading;
  return { history, problem, setProblem, refresh, settled, shownFromDevice };
}

/** Where the list shown comes from, said while online (offline, the notice above says it). */
function sourceText(
  online: boolean,
  history: AppHistory | null,
  seenAt: string | null,
  settled: boolean,
  shownFromDevice: boolean,
): string | null {
  return !online
    ? null
    : history?.fromDevice
      ? `This is the history as this device last saw it${seenAt ? `, ${seenAt}` : ''}. ${
          settled ? 'The server can’t be reached just now.' : 'Checking the server…'
        }`
      : shownFromDevice && history
        ? 'Up to date with the server.'
        : null;
}

/** Saving a checkpoint by name, restoring one (here or as a new app) and deleting one. */
function useCheckpointActions({
  owner,
  appId,
  account,
  onClose,
  refresh,
  setProblem,
}: {
  owner: string;
  appId: string;
  account: Account | null;
  onClose(): void;
  refresh(): void;
  setProblem(problem: string | null): void;
}) {
  const { definition, handle, confirm } = useEditor();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setProblem('Give the checkpoint a name, for example “Before the redesign”.');
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const where = await saveCheckpoint(owner, appId, {
        name: trimmed,
        kind: 'manual',
        definition,
      });
      setName('');
      setNotice(
        where === 'server'
          ? `Saved “${trimmed}”.`
          : `Saved “${trimmed}” on this device. It goes to the server when you’re back online.`,
      );
      refresh();
    } catch (error) {
      setProblem(describeError(error).message);
    } finally {
      setBusy(false);
    }
  };

  const restore = (row: Row) => {
    confirm({
      title: `Restore “${row.title}”?`,
      body: 'The app becomes as it was then. Collaborators see it at once, Undo brings back what is here now, and nothing in the history is removed.',
      confirmLabel: 'Restore',
      onConfirm: () => {
        void (async () => {
          try {
            const target = await loadCheckpointDefinition(owner, appId, row.id);
            // What is here now, in the history too: a restore never loses anything.
            await saveCheckpoint(owner, appId, {
              name: `Before restoring “${row.title}”`.slice(0, HISTORY_LIMITS.nameLength),
              kind: 'restore',
              definition,
            }).catch(() => undefined);
            handle.replaceDefinition(target, 'restore');
            onClose();
          } catch (error) {
            setProblem(describeError(error).message);
          }
        })();
      },
    });
  };

  const restoreAsNew = async (row: Row) => {
    if (!account) return;
    setBusy(true);
    try {
      const target = await loadCheckpointDefinition(owner, appId, row.id);
      const title = `${target.meta.title} (restored)`.slice(0, 60);
      const id = await createApp(account.id, { ...target, meta: { ...target.meta, title } });
      onClose();
      await navigate({ to: '/apps/$id/edit', params: { id } });
    } catch (error) {
      setProblem(describeError(error).message);
      setBusy(false);
    }
  };

  const remove = async (row: Row) => {
    try {
      if (row.pending) await discardPendingCheckpoint(row.id);
      else await deleteCheckpoint(appId, row.id);
      refresh();
    } catch (error) {
      setProblem(describeError(error).message);
    }
  };

  return { name, setName, busy, notice, save, restore, restoreAsNew, remove };
}

/** The "Find" words and "Show" kind, and the rows they leave (all of them under `FILTER_FROM_ROWS`). */
function useCheckpointFilter(rows: Row[]) {
  const [query, setQuery] = useState('');
  const [kind, setKind] = useState<'all' | Checkpoint['kind']>('all');
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const filtering = rows.length >= FILTER_FROM_ROWS;
  const shown = filtering ? rows.filter((row) => matches(row, words, kind)) : rows;
  return { query, setQuery, kind, setKind, words, filtering, shown };
}

/** The checkpoints shown, newest first, once the history is loaded. */
function CheckpointList({
  loading,
  empty,
  shown,
  readOnly,
  actions,
  onView,
}: {
  loading: boolean;
  /** No checkpoint at all (filtered out or not). */
  empty: boolean;
  shown: Row[];
  readOnly: boolean;
  actions: ReturnType<typeof useCheckpointActions>;
  onView(view: View): void;
}) {
  return loading ? (
    <Loading label="Loading the history…" />
  ) : empty ? (
    <p className="editor-muted">
      No checkpoints yet. One is made when you publish, and every 10 minutes while people edit; save
      one by name any time.
    </p>
  ) : (
    <ol className="history__list" aria-label="Checkpoints, newest first">
      {shown.map((row) => (
        <HistoryRow
          key={row.id}
          row={row}
          readOnly={readOnly}
          busy={actions.busy}
          onPreview={() => onView({ kind: 'preview', id: row.id })}
          onCompare={() => onView({ kind: 'compare', from: row.id, to: 'now' })}
          onRestore={() => actions.restore(row)}
          onRestoreAsNew={() => void actions.restoreAsNew(row)}
          onDelete={() => void actions.remove(row)}
        />
      ))}
    </ol>
  );
}

/** Offline, what the list is; the last error; the last save. */
function HistoryNotices({
  online,
  seenAt,
  problem,
  notice,
}: {
  online: boolean;
  seenAt: string | null;
  problem: string | null;
  notice: string | null;
}) {
  return (
    <>
      {!online ? (
        <Notice tone="offline" title="You’re offline">
          <p>
            {seenAt
              ? `This is the history as this device last saw it, ${seenAt}, with the checkpoints it has opened. `
              : 'This device has not seen this app’s history yet. '}
            Checkpoints you save now stay on this device and go to the server when you’re back
            online.
          </p>
        </Notice>
      ) : null}
      {problem ? (
        <Notice tone="danger" title="That didn’t work" live="alert">
          <p>{problem}</p>
        </Notice>
      ) : null}
      {notice ? (
        <p className="history__notice" role="status">
          {notice}
        </p>
      ) : null}
    </>
  );
}

function SaveCheckpointForm({
  name,
  onName,
  busy,
  onSave,
}: {
  name: string;
  onName(name: string): void;
  busy: boolean;
  onSave(event: FormEvent): Promise<void>;
}) {
  return (
    <form className="history__save" onSubmit={(e) => void onSave(e)}>
      <TextField
        label="Save a checkpoint"
        hint="A name you’ll recognise later. Checkpoints are also made when you publish, before Ask AI changes anything, and every 10 minutes of editing."
        value={name}
        maxLength={HISTORY_LIMITS.nameLength}
        onChange={(e) => onName(e.target.value)}
      />
      <Button type="submit" disabled={busy}>
        Save checkpoint
      </Button>
    </form>
  );
}

/** Compare…, and the space the checkpoints take. */
function HistoryTools({
  history,
  canCompare,
  onCompare,
}: {
  history: AppHistory | null;
  canCompare: boolean;
  onCompare(): void;
}) {
  return (
    <div className="history__tools">
      <Button variant="secondary" size="small" disabled={!canCompare} onClick={onCompare}>
        Compare…
      </Button>
      {history?.list ? (
        <p className="editor-muted">
          {plural(history.list.usage.count, 'checkpoint')}, {formatBytes(history.list.usage.bytes)}{' '}
          of {formatBytes(history.list.usage.limitBytes)}. Old automatic ones thin out.
        </p>
      ) : null}
    </div>
  );
}

/** From `FILTER_FROM_ROWS` checkpoints: the filter bar, and how many of `total` it shows. */
function CheckpointFilter({
  filter,
  total,
}: {
  filter: ReturnType<typeof useCheckpointFilter>;
  total: number;
}) {
  const { query, setQuery, kind, setKind, words, filtering, shown } = filter;
  return (
    <>
      {filtering ? (
        <div className="history__filter" role="search" aria-label="Filter the checkpoints">
          <TextField
            label="Find"
            type="search"
            hint="A name, a person, or what changed."
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <SelectField
            label="Show"
            value={kind}
            onChange={(e) => setKind(e.target.value as typeof kind)}
          >
            {KIND_FILTERS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
        </div>
      ) : null}
      {filtering && (words.length > 0 || kind !== 'all') ? (
        <p className="history__count" role="status">
          {shown.length === 0
            ? 'No checkpoint matches.'
            : `Showing ${shown.length} of ${plural(total, 'checkpoint')}.`}{' '}
          <Button
            variant="ghost"
            size="small"
            onClick={() => {
              setQuery('');
              setKind('all');
            }}
          >
            Show all
          </Button>
        </p>
      ) : null}
    </>
  );
}

/**
 * One checkpoint, compact: its name, when, who and what changed, Preview, and the rest
 * behind "More" — a disclosure the keyboard opens, Escape closes, focus back on its button.
 */
function HistoryRow({
  row,
  readOnly,
  busy,
  onPreview,
  onCompare,
  onRestore,
  onRestoreAsNew,
  onDelete,
}: {
  row: Row;
  readOnly: boolean;
  busy: boolean;
  onPreview(): void;
  onCompare(): void;
  onRestore(): void;
  onRestoreAsNew(): void;
  onDelete(): void;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    // Escape closes this menu, not the dialog around it.
    event.preventDefault();
    event.stopPropagation();
    close();
  };
  const act = (action: () => void) => () => {
    setOpen(false);
    action();
  };
  return (
    <li className="history__item" onKeyDown={onKeyDown}>
      <div className="history__item-text">
        <div className="history__item-head">
          <strong>{row.title}</strong>
          <time dateTime={new Date(row.createdAt).toISOString()}>
            {formatMoment(row.createdAt)}
          </time>
        </div>
        <p className="history__item-meta">
          {row.by ? `${row.by} · ` : ''}
          {row.summary}
          {row.names.length > 0 ? `: ${row.names.join(', ')}` : ''}
        </p>
        {row.pending ? (
          <p className="history__item-pending">
            {row.pending.problem
              ? `Not saved on the server: ${row.pending.problem}`
              : 'On this device only, sent when you’re back online.'}
          </p>
        ) : null}
      </div>
      <div className="history__item-actions">
        <Button
          variant="secondary"
          size="small"
          onClick={onPreview}
          aria-label={`Preview ${row.title}`}
        >
          Preview
        </Button>
        <button
          type="button"
          ref={toggle}
          className={`${buttonClass('ghost', 'small')} history__more`}
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={`More for ${row.title}`}
          onClick={() => setOpen(!open)}
        >
          More <span aria-hidden="true">{open ? '▴' : '▾'}</span>
        </button>
      </div>
      <ul className="history__menu" id={menuId} hidden={!open}>
        <li>
          <Button
            variant="ghost"
            size="small"
            onClick={act(onCompare)}
            aria-label={`Compare ${row.title} with now`}
          >
            Compare with now
          </Button>
        </li>
        {readOnly ? null : (
          <li>
            <Button
              variant="ghost"
              size="small"
              onClick={act(onRestore)}
              aria-label={`Restore ${row.title}`}
            >
              Restore…
            </Button>
          </li>
        )}
        <li>
          <Button
            variant="ghost"
            size="small"
            disabled={busy}
            onClick={act(onRestoreAsNew)}
            aria-label={`Restore ${row.title} as a new app`}
          >
            Restore as a new app
          </Button>
        </li>
        {row.deletable ? (
          <li>
            <Button
              variant="ghost"
              size="small"
              onClick={act(onDelete)}
              aria-label={`Delete ${row.title}`}
            >
              Delete
            </Button>
          </li>
        ) : null}
      </ul>
    </li>
  );
}
