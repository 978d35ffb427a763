import type { AppChange } from '@pipit/protocol';
import { useEffect, useMemo, useState } from 'react';
import { type ChangeRange, loadChanges } from '../../../platform/history';

/*
 * Who changed what (docs/product/history.md#who-changed-what), as the editor says it: a person by
 * name, or what they ran ("AI for Ben"), read from the server, which credits each change to the
 * connection that sent it.
 */

/** Who changed one thing in a range, newest first, and when last. */
export interface ChangeAuthors {
  who: string[];
  at: number;
}

/** "Ben", "AI for Ben", "Ben’s restore", "Ben’s pull", "Ben’s import"; "Someone" once deleted. */
export function authorWords({ kind, author }: Pick<AppChange, 'kind' | 'author'>): string {
  const name = author ? author.displayName || author.username : null;
  switch (kind) {
    case 'ai':
      return `AI for ${name ?? 'someone'}`;
    case 'restore':
      return name ? `${name}’s restore` : 'A restore';
    case 'pull':
      return name ? `${name}’s pull` : 'A pull';
    case 'import':
      return name ? `${name}’s import` : 'An import';
    case 'draft':
      return name ? `${name}’s draft` : 'A draft';
    case 'person':
      return name ?? 'Someone';
  }
}

export const changeKey = (entity: string, id: string) => `${entity}:${id}`;

/** Each changed thing's authors, from a newest-first list of changes. */
export function authorsByEntity(changes: readonly AppChange[]): Map<string, ChangeAuthors> {
  const out = new Map<string, ChangeAuthors>();
  for (const change of changes) {
    const key = changeKey(change.entity, change.id);
    const who = authorWords(change);
    const known = out.get(key);
    if (!known) out.set(key, { who: [who], at: change.at });
    else if (!known.who.includes(who)) known.who.push(who);
  }
  return out;
}

/** The server writes who changed what every 2 s: a new edit's author is asked after this. */
const AFTER_AN_EDIT_MS = 2_500;

/** What the server said of a range's changes: null changes when it could not be asked. */
export interface LoadedChanges {
  changes: AppChange[] | null;
  /** The device is offline: only the server knows who sent each change. */
  offline: boolean;
  /** Older changes in the range were left out. */
  more: boolean;
}

const rangeKey = (range: ChangeRange) =>
  'entity' in range
    ? `entity:${range.entity.entity}:${range.entity.id}`
    : `range:${range.since ?? ''}:${range.until ?? ''}`;

/**
 * Who changed what in a range of time or for one thing (`loadChanges`), null while asking.
 * Asked again a moment after the first answer, and a moment after `refresh` changes (an edit made
 * since), keeping what was shown meanwhile; nothing is asked without an app (the demo) or a range.
 */
export function useChanges(
  appId: string | null,
  range: ChangeRange | null,
  refresh: unknown,
): LoadedChanges | null {
  const [state, setState] = useState<(LoadedChanges & { key: string }) | null>(null);
  const key = appId && range ? `${appId}:${rangeKey(range)}` : '';
  const shown = key !== '' && state?.key === key;
  useEffect(() => {
    if (!appId || !range) return;
    let live = true;
    const ask = () =>
      loadChanges(appId, range).then(
        (list) =>
          live &&
          setState({
            key,
            changes: list?.changes ?? null,
            offline: !list,
            more: list?.more ?? false,
          }),
        // Who changed what is extra: a failure leaves things without names.
        () => live && setState({ key, changes: null, offline: false, more: false }),
      );
    // Asked at once the first time, and once more a moment later: an edit made just before
    // (still on its way) or one another instance received is written within the server's 2 s.
    const timers = (shown ? [AFTER_AN_EDIT_MS] : [0, AFTER_AN_EDIT_MS]).map((delay) =>
      setTimeout(() => void ask(), delay),
    );
    return () => {
      live = false;
      for (const timer of timers) clearTimeout(timer);
    };
    // `appId` and `range` are named by `key`; `shown` only chooses the delay.
  }, [key, refresh]);
  return shown ? state : null;
}

/**
 * Who changed each thing between two moments (after `since`, up to `until`; now when absent),
 * asked again a moment after `refresh` changes; null authors while asking or when they cannot be
 * asked.
 */
export function useChangeAuthors(
  appId: string,
  range: { since?: number; until?: number } | null,
  refresh = '',
): { authors: ReadonlyMap<string, ChangeAuthors> | null; offline: boolean; more: boolean } {
  const loaded = useChanges(appId, range, refresh);
  const authors = useMemo(
    () => (loaded?.changes ? authorsByEntity(loaded.changes) : null),
    [loaded],
  );
  return { authors, offline: loaded?.offline ?? false, more: loaded?.more ?? false };
}
