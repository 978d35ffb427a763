import type { SpaceSummary } from '@pipit/protocol';
import { useCallback, useEffect, useState } from 'react';
import type { SyncState } from '../../sync/sync-state';
import {
  deviceSpaces,
  type DeviceSpaces,
  forgetSpace,
  rememberPeople,
  rememberSpaces,
  useDeviceSpaces,
} from '../../sync/space-list';

export interface SpacesState extends DeviceSpaces {
  /** The space shown now (null: the person's own data). */
  active: SpaceSummary | null;
  /** What happened to a space the person was in (removed, deleted), until dismissed. */
  notice: string | null;
  dismissNotice(): void;
  /** Asks the server for the person's spaces again. */
  refresh(): Promise<void>;
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
): Promise<SpaceSummary[]> {
  const kept = new Set(now.map((space) => space.id));
  const gone = before.filter((space) => !kept.has(space.id));
  if (gone.length === 0) return [];
  const [{ discardDocument }, { documentName }] = await Promise.all([
    import('../../sync/documents'),
    import('@pipit/protocol'),
  ]);
  for (const space of gone) {
    forgetSpace(accountId, appId, space.id);
    await discardDocument(
      { kind: 'account', accountId },
      documentName({ kind: 'space', spaceId: space.id }),
    );
  }
  return gone;
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

  const refresh = useCallback(async () => {
    if (!accountId || !enabled) return;
    const { fetchSpace, fetchSpaces } = await import('../../platform/spaces');
    const spaces = await fetchSpaces(appId);
    const before = deviceSpaces(accountId, appId).spaces;
    rememberSpaces(accountId, appId, spaces);
    // Who is in the shown space: their names show on what they added.
    const shown = deviceSpaces(accountId, appId).activeId;
    if (shown) rememberPeople(accountId, appId, shown, (await fetchSpace(shown)).members);
    const gone = await dropGone(accountId, appId, before, spaces);
    const first = gone[0];
    if (first) {
      setNotice(
        `You’re no longer in “${first.name}”: you left, the owner removed you, or deleted it. Its items were removed from this device.`,
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
  useEffect(() => {
    if (!refused) return;
    refresh().catch((error: unknown) => console.info('Could not refresh your spaces:', error));
  }, [refused, refresh]);

  const active = device.spaces.find((space) => space.id === device.activeId) ?? null;
  return { ...device, active, notice, dismissNotice: () => setNotice(null), refresh };
}
