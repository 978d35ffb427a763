import type { Clock } from '../accounts/clock';
import { randomToken, sha256Hex } from '../accounts/random';
import { addressKey } from '../accounts/rate-limits';
import type { Logger } from '../logger';
import { readOnce } from '../read-once';
import type { AppEventKind, Storage } from '../storage/types';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * A visitor is counted once per app and kind while they are remembered: for this long after they
 * were counted. A row per remembered visit is what makes "once" hold, so without forgetting the
 * table would grow with every visitor forever.
 */
export const VISITOR_MEMORY_DAYS = 30;
/**
 * And at most this many remembered visits in all (about 50 MB on either engine), the oldest
 * forgotten first: many addresses could otherwise fill the table within the memory.
 */
export const REMEMBERED_VISITS_MAX = 200_000;
/** Forgetting runs at most this often per instance, on the next event after it is due. */
const FORGET_EVERY_MS = HOUR_MS;

export interface Popularity {
  /**
   * Who is counted: a signed-in person by their account, anyone else by their address (an IPv6
   * address by its /64), never by their browser's User-Agent, which a script sets at will.
   */
  visitorOf(userId: string | null, ip: string | null): Promise<string>;
  /** Counts the visitor once for this app and kind; returns whether this was their first time. */
  record(appId: string, kind: AppEventKind, visitor: string): Promise<boolean>;
}

/**
 * Opens and installs (explore's "popular" sort): `apps.opens` and `apps.installs` keep the
 * totals, and app_events remembers who was counted, bounded in time and in rows.
 */
export function createPopularity(deps: {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  memoryDays?: number;
  maxRemembered?: number;
}): Popularity {
  const { storage, clock, logger } = deps;
  const memoryMs = (deps.memoryDays ?? VISITOR_MEMORY_DAYS) * DAY_MS;
  const maxRemembered = deps.maxRemembered ?? REMEMBERED_VISITS_MAX;
  let forgotAt = -Infinity;
  let forgetting: Promise<void> | undefined;
  // Shared by every instance on the same database, created by the first one, never changed: read
  // once (as human-check.ts does its secrets), not twice per anonymous event.
  const getVisitorKey = readOnce(() => storage.secrets.getOrCreate('visitor-key', randomToken));

  async function forget(now: number): Promise<void> {
    try {
      const forgotten = await storage.publishing.forgetVisitors(now - memoryMs, maxRemembered);
      if (forgotten > 0) logger.info({ forgotten }, 'forgot visitors counted long ago');
    } catch (error) {
      logger.warn({ err: error }, 'forgetting old visitors failed; trying again later');
    } finally {
      forgetting = undefined;
    }
  }

  return {
    async visitorOf(userId, ip) {
      if (userId) return `user:${userId}`;
      // A keyed hash: the stored value cannot be turned back into an address by trying them all.
      const key = await getVisitorKey();
      return `anonymous:${sha256Hex(`${key}\n${addressKey(ip ?? 'unknown')}`)}`;
    },
    async record(appId, kind, visitor) {
      const now = clock.now();
      if (now - forgotAt >= FORGET_EVERY_MS) {
        forgotAt = now;
        forgetting ??= forget(now);
      }
      await forgetting;
      return storage.publishing.recordEvent(appId, kind, visitor, now);
    },
  };
}
