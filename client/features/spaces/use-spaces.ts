import type { SpaceEnding, SpaceSummary } from '@pipit/protocol';
import { useCallback, useEffect, useState } from 'react';
import type { SyncState } from '../../sync/core/sync-state';
import {
  deviceSpaces,
  type DeviceSpaces,
  forgetSpace,
  rememberPeople,
  rememberSpaces,
  useDeviceSpaces,
} from '../../sync/spaces/space-list';

export interface SpacesState extends DeviceSpaces {
  /** The space shown now (null: the person's own data). */
  active: SpaceSummary | null;
  /** What happened to a space the person was in (removed, deleted), until dismissed. */
  notice: string | null;
  dismissNotice(): void;
  /** Spaces the person was in that their owner deleted lately, until the person chooses. */
  endings: EndedSpace[];
  /** Keeps an ended space's items (on this device) as the person's own, then forgets it. */
  keepEnded(spaceId: string): Promise<void>;
  /** Drops an ended space's copy from this device and forgets it. */
  removeEnded(spaceId: string): Promise<void>;
  /** Asks the server for the person's spaces again. */
  refresh(): Promise<void>;
  /** The person left or deleted `space` on this device: its copy goes, and the app says so. */
  goneHere(space: SpaceSummary, how: 'left' | 'deleted'): Promise<void>;
}

export interface EndedSpace extends SpaceEnding {
  /** How many of its items this device still holds. */
  items: number;
}

/**
 * Removes the spaces the server no longer lists for the person from this device: their copy is
 * dropped (what was kept offline never syncs back) and the app shows their own data.
 */
async function dropGone(
  accountId: string,
  appId: string,
  before: SpaceSummary[],
  now: SpaceSummary[],
  ended: ReadonlySet<string>,
): Promise<SpaceSummary[]> {
  const kept = new Set(now.map((space) => space.id));
  const gone = before.filter((space) => !kept.has(space.id));
  if (gone.length === 0) return [];
  const { discardSpaceCopy } = await import('../../sync/spaces/space-copies');
  const dropped: SpaceSummary[] = [];
  for (const space of gone) {
    forgetSpace(accountId, appId, space.id);
    // A deleted space's copy waits for the person to choose (keep its items, or drop them).
    if (ended.has(space.id)) continue;
    await discardSpaceCopy(accountId, space.id);
    dropped.push(space);
  }
  return dropped;
}

/**
 * The person's spaces in a running app: this device's list at once (offline too), the server's
 * when it answers (on open, and when the shown space's connection is refused — removed from it,
 * or it was deleted — which the server's list then confirms before anything is dropped).
 */
export function useSpaces(options: {
  appId: string;
  accountId: string | null;
  /** The app has shared collections (otherwise nothing is asked). */
  enabled: boolean;
  /** The shown space's sync state. */
  spaceSync: SyncState | null;
}): SpacesState {
  const { appId, accountId, enabled, spaceSync } = options;
  const device = useDeviceSpaces(accountId, appId);
  const [notice, setNotice] = useState<string | null>(null);
  const [endings, setEndings] = useState<EndedSpace[]>([]);

  const refresh = useCallback(async () => {
    if (!accountId || !enabled) return;
    const { fetchSpace, fetchSpaces } = await import('../../platform/spaces');
    const { spaces, ended } = await fetchSpaces(appId);
    const before = deviceSpaces(accountId, appId).spaces;
    rememberSpaces(accountId, appId, spaces);
    for (const space of spaces) {
      const was = before.find((s) => s.id === space.id);
      if (!was || was.role === space.role) continue;
      if (space.role === 'reader') {
        setNotice(
          `You can now only view “${space.name}”: its owner changed your role. Ask them to make you a member to add or change items.`,
        );
      } else if (was.role === 'reader') {
        setNotice(`You can now add and change items in “${space.name}”.`);
      }
    }
    // Who is in the shown space: their names show on what they added.
    const shown = deviceSpaces(accountId, appId).activeId;
    if (shown) rememberPeople(accountId, appId, shown, (await fetchSpace(shown)).members);
    // A deleted space's copy waits for the person's choice; one they were taken out of goes (its
    // ending says so, on every device).
    const removed = new Set(ended.filter((e) => e.why === 'removed').map((e) => e.id));
    const waiting = new Set(ended.filter((e) => !removed.has(e.id)).map((e) => e.id));
    const gone = await dropGone(accountId, appId, before, spaces, waiting);
    const { discardSpaceCopy, localSpaceItems } = await import('../../sync/spaces/space-copies');
    setEndings(
      await Promise.all(
        ended.map(async (ending) => {
          if (removed.has(ending.id)) await discardSpaceCopy(accountId, ending.id);
          return { ...ending, items: await localSpaceItems(accountId, ending.id) };
        }),
      ),
    );
    const first = gone.find((space) => !removed.has(space.id));
    if (first) {
      setNotice(
        `You left “${first.name}” on another device, so its items were removed from this one.`,
      );
    }
  }, [accountId, appId, enabled]);

  useEffect(() => {
    refresh().catch((error: unknown) => {
      // Offline or signed out: this device's list stands until the server can be asked.
      console.info('Could not refresh your spaces:', error);
    });
  }, [refresh]);

  const refused =
    spaceSync?.kind === 'error' && (spaceSync.why === 'forbidden' || spaceSync.why === 'deleted');
  // The server's answer says the role changed (the owner made the person a reader, or a member
  // again): the list is asked again, so the app offers what the new role allows.
  const shownRole = device.spaces.find((s) => s.id === device.activeId)?.role ?? null;
  const roleChanged =
    shownRole !== null &&
    spaceSync !== null &&
    (spaceSync.kind === 'read-only'
      ? shownRole !== 'reader'
      : shownRole === 'reader' && (spaceSync.kind === 'saved' || spaceSync.kind === 'syncing'));
  useEffect(() => {
    if (!roleChanged) return;
    refresh().catch((error: unknown) => console.info('Could not refresh your spaces:', error));
  }, [roleChanged, refresh]);
  useEffect(() => {
    if (!refused) return;
    refresh().catch((error: unknown) => console.info('Could not refresh your spaces:', error));
  }, [refused, refresh]);
  // A space shown whose people this device doesn't know yet (just chosen): they are asked at once,
  // so what they added, and whom its items are assigned to, read by name and can be picked.
  const shownId = device.activeId;
  const peopleKnown = shownId === null || device.people[shownId] !== undefined;
  useEffect(() => {
    if (peopleKnown || !accountId || !enabled || !shownId || !navigator.onLine) return;
    import('../../platform/spaces')
      .then(async ({ fetchSpace }) => {
        rememberPeople(accountId, appId, shownId, (await fetchSpace(shownId)).members);
      })
      .catch((error: unknown) => console.info('Could not ask who is in the space:', error));
  }, [peopleKnown, accountId, appId, enabled, shownId]);

  const settle = useCallback(
    async (spaceId: string, keep: boolean) => {
      if (!accountId) return;
      const copies = await import('../../sync/spaces/space-copies');
      if (keep) await copies.keepSpaceCopy(accountId, appId, spaceId);
      else await copies.discardSpaceCopy(accountId, spaceId);
      const { dismissSpaceEnding } = await import('../../platform/spaces');
      // Dismissed on the server too, so the person's other devices stop asking.
      await dismissSpaceEnding(appId, spaceId).catch((error: unknown) =>
        console.info('Could not dismiss the ended space on the server:', error),
      );
      setEndings((current) => current.filter((ending) => ending.id !== spaceId));
    },
    [accountId, appId],
  );

  const active = device.spaces.find((space) => space.id === device.activeId) ?? null;
  return {
    ...device,
    active,
    notice,
    dismissNotice: () => setNotice(null),
    endings,
    keepEnded: (spaceId) => settle(spaceId, true),
    removeEnded: (spaceId) => settle(spaceId, false),
    refresh,
    goneHere: async (space, how) => {
      if (!accountId) return;
      forgetSpace(accountId, appId, space.id);
      const { discardSpaceCopy } = await import('../../sync/spaces/space-copies');
      await discardSpaceCopy(accountId, space.id);
      setNotice(
        how === 'left'
          ? `You left “${space.name}”. Its items were removed from this device.`
          : `You deleted “${space.name}”. Everyone who was in it is told, and may keep a copy of its items.`,
      );
    },
  };
}
