import { Lru } from '../lru';
import { createPublishedView } from '../publishing/published-view';
import type { SpaceActivityPreferenceRecord, Storage } from '../storage/types';
import { activityFieldsOf, type SpaceShape } from './detect';

/** Who in a space is told of its activity, and what the space's app lets activity read. */
export interface SpaceWatch {
  appId: string | null;
  watchers: SpaceActivityPreferenceRecord[];
  /** Empty when nobody watches: the definition is read only for a watched space. */
  shape: SpaceShape;
  readAt: number;
}

/**
 * Kept this long before read again in the background: a choice made on another instance reaches
 * this one's loaded documents at most this much later (this instance's own at once, `forget`).
 */
export const WATCH_FRESH_MS = 30_000;
const SPACES_KEPT = 5_000;

export interface SpaceWatches {
  /** What is kept for a space, read again in the background once stale; null when nothing is. */
  peek(spaceId: string): SpaceWatch | null;
  /** Reads a space's watchers (and, when there are some, its app's fields) from storage. */
  load(spaceId: string): Promise<SpaceWatch>;
  /** A choice changed on this instance: read again now; resolves once read (never rejects). */
  forget(spaceId: string): Promise<void>;
}

/** The fields activity reads in a published definition (activityFieldsOf). */
const shapeOfDefinition = (definition: unknown): SpaceShape =>
  activityFieldsOf((definition as { collections?: unknown } | null)?.collections);

export function createSpaceWatches(options: {
  storage: Pick<Storage, 'apps' | 'publishing' | 'spaces' | 'spaceActivity'>;
  now: () => number;
  onRefreshFailed?: (spaceId: string, error: unknown) => void;
}): SpaceWatches {
  const { storage, now } = options;
  const kept = new Lru<string, SpaceWatch>(SPACES_KEPT);
  const reading = new Map<string, Promise<SpaceWatch>>();
  // The fields of the app's published version, worked out once per version.
  const shapeOf = createPublishedView(storage, shapeOfDefinition);

  async function read(spaceId: string): Promise<SpaceWatch> {
    const before = kept.get(spaceId);
    const appId = before ? before.appId : ((await storage.spaces.get(spaceId))?.appId ?? null);
    const watchers = appId === null ? [] : await storage.spaceActivity.watchers(spaceId);
    const shape =
      appId !== null && watchers.length > 0 ? ((await shapeOf(appId)) ?? new Map()) : new Map();
    const watch = { appId, watchers, shape, readAt: now() };
    kept.set(spaceId, watch);
    return watch;
  }

  function load(spaceId: string): Promise<SpaceWatch> {
    let pending = reading.get(spaceId);
    if (!pending) {
      pending = read(spaceId).finally(() => reading.delete(spaceId));
      reading.set(spaceId, pending);
    }
    return pending;
  }

  return {
    peek(spaceId) {
      const watch = kept.get(spaceId);
      if (watch && now() - watch.readAt > WATCH_FRESH_MS && !reading.has(spaceId)) {
        load(spaceId).catch((error: unknown) => {
          // Tried again a while later, not on every change meanwhile.
          watch.readAt = now();
          options.onRefreshFailed?.(spaceId, error);
        });
      }
      return watch ?? null;
    },
    load,
    async forget(spaceId) {
      // What is kept stays until the new read lands: changes meanwhile are judged by it, not
      // missed. A read already under way may have started before the change: read once more.
      await reading.get(spaceId)?.catch(() => undefined);
      await load(spaceId).catch((error: unknown) => options.onRefreshFailed?.(spaceId, error));
    },
  };
}
