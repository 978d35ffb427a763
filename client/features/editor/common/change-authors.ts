import type { AppChange } from '@pipit/protocol';
import { useEffect, useState } from 'react';
import { loadChanges } from '../../../platform/history';

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

/**
 * Who changed each thing between two moments (after `since`, up to `until`; now when absent).
 * Asked again, a moment later, when `refresh` changes (an edit made since), keeping what was
 * shown meanwhile. Null while asking; `offline` when the server could not be asked (a device does
 * not know who sent what).
 */
export function useChangeAuthors(
  appId: string,
  range: { since?: number; until?: number } | null,
  refresh = '',
): { authors: ReadonlyMap<string, ChangeAuthors> | null; offline: boolean; more: boolean } {
  const [state, setState] = useState<{
    key: string;
    authors: ReadonlyMap<string, ChangeAuthors> | null;
    offline: boolean;
    more: boolean;
  } | null>(null);
  const key = range ? `${appId}:${range.since ?? ''}:${range.until ?? ''}` : '';
  const shown = state?.key === key;
  useEffect(() => {
    if (!range) return;
    let live = true;
    const ask = () =>
      loadChanges(appId, range).then(
        (list) =>
          live &&
          setState({
            key,
            authors: list ? authorsByEntity(list.changes) : null,
            offline: !list,
            more: list?.more ?? false,
          }),
        // Who changed what is extra: a failure leaves the list without names.
        () => live && setState({ key, authors: null, offline: false, more: false }),
      );
    const timer = setTimeout(() => void ask(), shown ? AFTER_AN_EDIT_MS : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `range` is named by `key`; `shown` only chooses the delay.
  }, [key, refresh]);
  return shown ? state : { authors: null, offline: false, more: false };
}
