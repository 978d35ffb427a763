import { type AppDefinition, diffDefinitions, type ReadDefinition } from '@pipit/app-definition';
import { useEffect, useState } from 'react';
import { describeError } from '../../../platform/api/request';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/field';
import { formatMoment } from '../../../ui/format-time';
import { Loading } from '../../../ui/loading';
import { Notice } from '../../../ui/notice';
import { useChangeAuthors } from '../common/change-authors';
import { ChangeList } from '../common/change-list';
import { PhonePreview } from '../common/phone-preview';

/*
 * The history dialog's two views of checkpoints besides its list (history-panel.tsx): one
 * checkpoint previewed as it looked, and two compared (or one against now).
 */

/** What a comparison compares: now, or a checkpoint. */
export type Side = 'now' | string;

/** What a comparison needs of a checkpoint's row. */
export interface CheckpointRow {
  id: string;
  title: string;
  createdAt: number;
}

/** Loads what a view shows, with its loading and error states. */
function useLoaded<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<
    { key: string; value: T; error: null } | { key: string; value: null; error: string } | null
  >(null);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && setState({ key, value, error: null }),
      (error: unknown) =>
        live && setState({ key, value: null, error: describeError(error).message }),
    );
    return () => {
      live = false;
    };
    // `load` changes with every render; what it loads is named by `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state?.key === key ? state : null;
}

export function CheckpointPreview({
  load,
  title,
  onBack,
  onRestore,
}: {
  load: () => Promise<ReadDefinition | AppDefinition>;
  title: string;
  onBack(): void;
  /** Restores this checkpoint (owners and editors); null for a viewer. */
  onRestore: (() => void) | null;
}) {
  const state = useLoaded(load, title);
  return (
    <section aria-label={`Preview of ${title}`}>
      <Button variant="ghost" size="small" onClick={onBack}>
        ← All checkpoints
      </Button>
      <div className="history__preview-head">
        <h3 className="history__subtitle">{title}</h3>
        {onRestore ? (
          <Button size="small" onClick={onRestore}>
            Restore…
          </Button>
        ) : null}
      </div>
      {state === null ? (
        <Loading label="Loading the checkpoint…" />
      ) : state.error !== null ? (
        <Notice tone="danger" title="This checkpoint can’t be shown" live="alert">
          <p>{state.error}</p>
        </Notice>
      ) : (
        <PhonePreview definition={state.value} label={`${title}, read-only`} />
      )}
    </section>
  );
}

/** The moments two sides were (now: none), earlier first, for who changed what between them. */
function rangeOf(rows: readonly CheckpointRow[], from: Side, to: Side) {
  const at = (side: Side) =>
    side === 'now' ? undefined : rows.find((r) => r.id === side)?.createdAt;
  const [a, b] = [at(from), at(to)];
  if (a === undefined && b === undefined) return null;
  if (a === undefined || b === undefined) return { since: (a ?? b)! };
  return { since: Math.min(a, b), until: Math.max(a, b) };
}

export function Comparison({
  appId,
  rows,
  from,
  to,
  publishedId,
  onChange,
  load,
  onBack,
}: {
  appId: string;
  rows: readonly CheckpointRow[];
  from: Side;
  to: Side;
  publishedId: string | null;
  onChange(from: Side, to: Side): void;
  load(side: Side): Promise<ReadDefinition | AppDefinition>;
  onBack(): void;
}) {
  const key = `${from}→${to}`;
  const state = useLoaded(async () => {
    const [before, after] = await Promise.all([load(from), load(to)]);
    return diffDefinitions(before, after);
  }, key);
  const diff = state?.value;
  const { authors, offline, more } = useChangeAuthors(appId, rangeOf(rows, from, to));
  const options = [
    { value: 'now', label: 'Now' },
    ...rows.map((r) => ({
      value: r.id,
      label: `${r.id === publishedId ? 'Published version — ' : ''}${r.title}, ${formatMoment(r.createdAt)}`,
    })),
  ];
  return (
    <section aria-label="Compare">
      <Button variant="ghost" size="small" onClick={onBack}>
        ← All checkpoints
      </Button>
      <div className="history__compare-sides">
        <SelectField label="From" value={from} onChange={(e) => onChange(e.target.value, to)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
        <SelectField label="To" value={to} onChange={(e) => onChange(from, e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
      </div>
      {state === null ? (
        <Loading label="Comparing…" />
      ) : state.error !== null ? (
        <Notice tone="danger" title="These can’t be compared" live="alert">
          <p>{state.error}</p>
        </Notice>
      ) : !diff || diff.changes.length === 0 ? (
        <p role="status">No differences: these two are the same app.</p>
      ) : (
        <>
          <ChangeList changes={diff.changes} label="Differences" showProperties authors={authors} />
          {offline ? (
            <p className="editor-muted">Who made each change shows when you’re online.</p>
          ) : more ? (
            <p className="editor-muted">
              Names are shown for the latest 500 changes between these two; earlier ones have none.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
