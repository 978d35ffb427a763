import type { Clock } from '../accounts/clock';
import type { Mailer } from '../accounts/mailer';
import type { Logger } from '../logger';
import type { Job, Scheduler } from '../scheduler';
import type { CreatorNotificationRecord, Storage } from '../storage/types';
import { digestMessage, type Told } from './messages';
import type { UnsubscribeLinks } from './unsubscribe';

/** The hour (UTC) each day's digest is sent: one email per person per day at most. */
export const DIGEST_HOUR_UTC = 17;
const DAY_MS = 24 * 60 * 60 * 1000;
const SWEEP_PAGE = 200;

export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The first digest time after `now`. */
export function nextDigestAt(now: number): number {
  const start = new Date(now);
  const today = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  const at = today + DIGEST_HOUR_UTC * 60 * 60 * 1000;
  return at > now ? at : at + DAY_MS;
}

const digestKey = (userId: string, day: string) => `digest:${userId}:${day}`;

/** The day a digest job's key names, or null for a key this module did not make. */
function dayOfKey(job: Job<'digest'>): string | null {
  const day = job.key.slice(digestKey(job.payload.userId, '').length);
  return job.key.startsWith(digestKey(job.payload.userId, '')) && /^\d{4}-\d{2}-\d{2}$/.test(day)
    ? day
    : null;
}

export interface Digests {
  /** Queues the person's next digest (idempotent: one job per person and day). */
  queue(userId: string): Promise<boolean>;
  /** Sends one person's digest of one day: the scheduler's handler for `digest` jobs. */
  deliver(job: Job<'digest'>): Promise<void>;
  /** Queues the digest of everyone with notifications waiting for one. */
  sweep(): Promise<number>;
  /** A notification with what it needs said, or null when its app is gone. */
  told(notification: CreatorNotificationRecord): Promise<Told | null>;
}

/**
 * The email digest (docs/product/reminders.md#the-email-digest): once a day at DIGEST_HOUR_UTC,
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
    const runAt = nextDigestAt(clock.now());
    const scheduler = await deps.scheduler();
    return scheduler.enqueue({
      kind: 'digest',
      key: digestKey(userId, utcDay(runAt)),
      runAt,
      payload: { userId },
    });
  }

  async function deliver(job: Job<'digest'>) {
    const { userId } = job.payload;
    const day = dayOfKey(job);
    if (day === null) {
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
