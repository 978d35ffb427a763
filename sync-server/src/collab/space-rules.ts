import { type AppDefinition, recordRuleOf } from '@pipit/app-definition';
import { Lru } from '../lru';
import { createPublishedView } from '../publishing/published-view';
import type { Storage } from '../storage/types';
import type { SpaceRecordRule } from './space-guard';

/** A space's rule for each collection (space-guard.ts). */
export type SpaceRuleOf = (collectionId: string) => SpaceRecordRule;

/**
 * Each space's record rules, from its app's published version, kept for the update guard so that
 * judging an update never waits for storage: `peek` answers from what is kept, `load` reads
 * storage when nothing is.
 *
 * Kept for RULES_FRESH_MS: publishing a new version tells nobody, so a space notices its app's new
 * rules at most that long after the publish (plus one read). Until then the previous version's
 * rules hold, as they do for a visitor whose app has not updated yet. A version never changes, so
 * its rules are read from its definition once.
 */
export interface SpaceRules {
  /** The rules kept for the space; when they are older than RULES_FRESH_MS, read again meanwhile. */
  peek(spaceId: string): SpaceRuleOf | null;
  /** Reads the rules from storage (once for callers asking together); throws when it cannot. */
  load(spaceId: string): Promise<SpaceRuleOf>;
}

export const RULES_FRESH_MS = 10_000;
/** Spaces whose rules are kept: rules are small, and re-read when dropped. */
const SPACES_KEPT = 5_000;

/** Every collection under the strictest rule: an app with no published version, or no space. */
const STRICTEST: SpaceRuleOf = () => 'author';

/** The rules of a published definition, read tolerantly: a broken one is the strictest. */
function rulesOfDefinition(definition: unknown): SpaceRuleOf {
  const collections = (definition as { collections?: unknown } | null)?.collections;
  if (!Array.isArray(collections)) return STRICTEST;
  const read: Pick<AppDefinition, 'collections'> = {
    collections: collections as AppDefinition['collections'],
  };
  const rules = new Map<string, SpaceRecordRule>();
  for (const collection of read.collections) {
    if (typeof collection?.id === 'string') {
      rules.set(collection.id, recordRuleOf(read, collection.id));
    }
  }
  return (collectionId) => rules.get(collectionId) ?? 'author';
}

interface Kept {
  /** Null when the space does not exist (any more). */
  appId: string | null;
  ruleOf: SpaceRuleOf;
  readAt: number;
}

export function createSpaceRules(options: {
  storage: Pick<Storage, 'apps' | 'publishing'>;
  /** The app a space belongs to (it never changes); null when there is no such space. */
  appOfSpace: (spaceId: string) => Promise<string | null>;
  now?: () => number;
  /** When reading again in the background fails (the previous rules stay meanwhile). */
  onRefreshFailed?: (spaceId: string, error: unknown) => void;
}): SpaceRules {
  const { storage, appOfSpace } = options;
  const now = options.now ?? Date.now;
  const spaces = new Lru<string, Kept>(SPACES_KEPT);
  // A version never changes, so its rules are read from its definition once.
  const rulesOf = createPublishedView(storage, rulesOfDefinition);
  const reading = new Map<string, Promise<SpaceRuleOf>>();

  async function read(spaceId: string): Promise<SpaceRuleOf> {
    const before = spaces.get(spaceId);
    const appId = before ? before.appId : await appOfSpace(spaceId);
    const ruleOf = (appId === null ? null : await rulesOf(appId)) ?? STRICTEST;
    spaces.set(spaceId, { appId, ruleOf, readAt: now() });
    return ruleOf;
  }

  function load(spaceId: string): Promise<SpaceRuleOf> {
    let pending = reading.get(spaceId);
    if (!pending) {
      pending = read(spaceId).finally(() => reading.delete(spaceId));
      reading.set(spaceId, pending);
    }
    return pending;
  }

  return {
    peek(spaceId) {
      const kept = spaces.get(spaceId);
      if (!kept) return null;
      if (now() - kept.readAt > RULES_FRESH_MS && !reading.has(spaceId)) {
        load(spaceId).catch((error: unknown) => {
          // Tried again a while later, not on every message meanwhile.
          kept.readAt = now();
          options.onRefreshFailed?.(spaceId, error);
        });
      }
      return kept.ruleOf;
    },
    load,
  };
}
