import { isTimeZone, nextOccurrence, WEEKDAYS, zonedTime } from '@pipit/app-definition';
import type { Clock } from '../accounts/clock';
import type { Mailer } from '../accounts/mailer';
import type { Logger } from '../logger';
import type { Job, Scheduler } from '../scheduler';
import type { CreatorNotificationRecord, Storage } from '../storage/types';
import { digestMessage, type Told } from './messages';
import type { UnsubscribeLinks } from './unsubscribe';

/**
 * The time of day each day's digest is sent, on the clock of the person's zone (UTC for someone
 * who never told one): one email per person per day at most.
 */
export const DIGEST_TIME = '17:00';
const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_PAGE = 200;

export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The day (YYYY-MM-DD) `at` falls on in `timeZone`. */
export function dayIn(at: number, timeZone: string): string {
  const zoned = zonedTime(at, timeZone);
  return zoned ? new Date(zoned.day * DAY_MS).toISOString().slice(0, 10) : utcDay(at);
}

/**
 * The first digest time after `now` in `timeZone`: its next 17:00, daylight saving handled as a
 * reminder's is (a 17:00 a clock change skips is sent at the first instant after it).
 */
export function nextDigestAt(now: number, timeZone = 'UTC'): number {
  const at = (zone: string) =>
    nextOccurrence(
      { kind: 'weekly', days: [...WEEKDAYS], time: DIGEST_TIME },
      { enabled: true, timeZone: zone },
      now,
    );
  return at(timeZone) ?? at('UTC')!;
}

/**
 * The zone a person's digest keeps to: the one they told with their choice of email, else that of
 * the reminders they turned on most recently, else UTC.
 */
export async function digestZoneOf(
  storage: Pick<Storage, 'creatorNotifications' | 'reminderPreferences'>,
  userId: string,
): Promise<string> {
  const told = await storage.creatorNotifications.digestTimeZone(userId);
  if (told !== null && isTimeZone(told)) return told;
  const chosen = await storage.reminderPreferences.listForUser(userId);
  const latest = chosen.reduce<(typeof chosen)[number] | undefined>(
    (best, record) => (!best || record.updatedAt > best.updatedAt ? record : best),
    undefined,
  );
  const zone = latest?.preferences.timeZone;
  return zone !== undefined && isTimeZone(zone) ? zone : 'UTC';
}

/**
 * One job per person, day and zone: a digest queued before the person chose another zone is not
 * the one their new zone's day needs (it would have the same day and never be queued anew).
 */
const digestKey = (userId: string, day: string, zone: string) => `digest:${userId}:${day}@${zone}`;

/**
 * The day and zone a digest job's key names (a key of a release before zones were in it: no zone),
 * or null for a key this module did not make.
 */
function dayOfKey(job: Job<'digest'>): { day: string; zone: string | null } | null {
  const prefix = `digest:${job.payload.userId}:`;
  const match = /^(\d{4}-\d{2}-\d{2})(?:@(.+))?$/.exec(job.key.slice(prefix.length));
  if (!job.key.startsWith(prefix) || !match?.[1]) return null;
  return { day: match[1], zone: match[2] ?? null };
}

export interface Digests {
  /** Queues the person's next digest (idempotent: one job per person, day and zone). */
  queue(userId: string): Promise<boolean>;
  /** Sends one person's digest of one day: the scheduler's handler for `digest` jobs. */
  deliver(job: Job<'digest'>): Promise<void>;
  /** Queues the digest of everyone with notifications waiting for one. */
  sweep(): Promise<number>;
  /** A notification with what it needs said, or null when its app is gone. */
  told(notification: CreatorNotificationRecord): Promise<Told | null>;
}

/**
 * The email digest (docs/product/reminders.md#the-email-digest): once a day at DIGEST_TIME in the
 * person's zone,
 * one email per person carrying every notification that waited for it, sent once per day
 * whatever runs the job again (`creator_digests`).
 */
export function createDigests(deps: {
  storage: Storage;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  scheduler: () => Promise<Scheduler>;
  unsubscribe: UnsubscribeLinks;
  linkBase: () => string;
}): Digests {
  const { storage, mailer, clock, logger } = deps;

  async function told(n: CreatorNotificationRecord): Promise<Told | null> {
    const app = await storage.apps.get(n.appId);
    if (!app) return null;
    const actor = n.actorId ? await storage.users.findById(n.actorId) : null;
    return { notification: n, appTitle: app.title, actor: actor?.deletedAt ? null : actor };
  }

  async function queueDigest(userId: string): Promise<boolean> {
    const zone = await digestZoneOf(storage, userId);
    const runAt = nextDigestAt(clock.now(), zone);
    const scheduler = await deps.scheduler();
    return scheduler.enqueue({
      kind: 'digest',
      key: digestKey(userId, dayIn(runAt, zone), zone),
      runAt,
      payload: { userId },
    });
  }

  async function deliver(job: Job<'digest'>) {
    const { userId } = job.payload;
    const named = dayOfKey(job);
    if (named === null) {
      logger.warn({ key: job.key }, 'a digest job with a key this server does not make: skipped');
      return;
    }
    const user = await storage.users.findById(userId);
    // A deleted account is sent nothing (its rows went with it; anything left goes now).
    if (!user || user.deletedAt !== null) {
      await storage.creatorNotifications.deleteForUser(userId);
      return;
    }
    const choice = await storage.creatorNotifications.emailDigest(userId);
    if (choice === 'off' || user.emailVerifiedAt === null) {
      await storage.creatorNotifications.dropPending(userId);
      return;
    }
    const { day, zone } = named;
    if (zone !== null && zone !== (await digestZoneOf(storage, userId))) {
      // Queued in the zone they chose before: their digest comes at 17:00 in the one they have now.
      await queueDigest(userId);
      return;
    }
    if (!(await storage.creatorNotifications.claimDigest(userId, day, job.id, clock.now()))) {
      // That day's digest went already: what came since waits for the next one.
      if ((await storage.creatorNotifications.pendingDigest(userId)).length > 0) {
        await queueDigest(userId);
      }
      return;
    }
    const pending = await storage.creatorNotifications.pendingDigest(userId);
    const lines = (await Promise.all(pending.map(told))).filter((t): t is Told => t !== null);
    if (lines.length > 0) {
      await mailer.send(
        digestMessage({
          to: user,
          told: lines,
          settingsUrl: `${deps.linkBase()}/account/settings`,
          unsubscribeUrl: await deps.unsubscribe.link(userId),
        }),
      );
    }
    await storage.creatorNotifications.finishDigest(
      userId,
      day,
      pending.map((p) => p.id),
      clock.now(),
    );
  }

  async function sweep() {
    let queued = 0;
    let after: string | undefined;
    for (;;) {
      const users = await storage.creatorNotifications.usersWithPendingDigest(SWEEP_PAGE, after);
      for (const userId of users) if (await queueDigest(userId)) queued += 1;
      if (users.length < SWEEP_PAGE) return queued;
      after = users.at(-1);
    }
  }

  return { queue: queueDigest, deliver, sweep, told };
}
