import { createId } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { Mailer } from '../accounts/mailer';
import type { Logger } from '../logger';
import { Lru } from '../lru';
import type { PushSender } from '../push/sender';
import type { Job, SharedScheduler } from '../scheduler';
import type { CreatorNotificationKind, CreatorNotificationRecord, Storage } from '../storage/types';
import { createDigests, utcDay } from './digest';
import { pushMessageOf } from './messages';
import type { UnsubscribeLinks } from './unsubscribe';

/** How often people with notifications waiting are checked to have their digest queued. */
export const DIGEST_SWEEP_INTERVAL_MS = 30 * 60 * 1000;
/** A creator's notification a phone gets after this long offline is stale. */
const CREATOR_PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Something that happened to an app, and who did it (never told about their own action). */
export type CreatorEvent =
  | { kind: 'collaborator_added'; appId: string; actorId: string; userId: string }
  | { kind: 'published'; appId: string; actorId: string; version: number }
  | { kind: 'first_visit'; appId: string };

export interface CreatorNotifications {
  /** Tells the people an event concerns; failures are logged, never the caller's. */
  notify(event: CreatorEvent): Promise<void>;
  /**
   * A visitor (not the owner nor a collaborator) opened a published app: the day's first one
   * makes a notification. Remembered per instance, so each instance writes once per app and day.
   */
  visited(appId: string): Promise<void>;
  /** Sends one person's digest of one day: the scheduler's handler for `digest` jobs. */
  deliverDigest(job: Job<'digest'>): Promise<void>;
  /** Queues the digest of everyone with notifications waiting for one. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export function createCreatorNotifications(deps: {
  storage: Storage;
  sender: PushSender;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  /** The server's one scheduler; this module registers its `digest` handler on it. */
  scheduler: SharedScheduler;
  unsubscribe: UnsubscribeLinks;
  linkBase: () => string;
  sweepIntervalMs?: number;
}): CreatorNotifications {
  const { storage, sender, clock, logger } = deps;
  const visitedToday = new Lru<string, true>(10_000);
  const digests = createDigests({ ...deps, scheduler: () => deps.scheduler.started() });
  deps.scheduler.work('digest', digests.deliver);

  async function recipientsOf(
    event: CreatorEvent,
  ): Promise<{ ids: string[]; actorId: string | null }> {
    if (event.kind === 'collaborator_added') {
      return { ids: [event.userId], actorId: event.actorId };
    }
    const app = await storage.apps.get(event.appId);
    if (!app) return { ids: [], actorId: null };
    if (event.kind === 'first_visit') return { ids: [app.ownerId], actorId: null };
    const editors = (await storage.apps.collaborators(event.appId))
      .filter((c) => c.role === 'editor')
      .map((c) => c.userId);
    return { ids: [app.ownerId, ...editors], actorId: event.actorId };
  }

  function dedupeKeyOf(event: CreatorEvent): string {
    switch (event.kind) {
      // Added, removed and added again is news twice: each request is its own event.
      case 'collaborator_added':
        return `collaborator:${event.appId}:${createId()}`;
      case 'published':
        return `published:${event.appId}:${event.version}`;
      case 'first_visit':
        return `visit:${event.appId}:${utcDay(clock.now())}`;
    }
  }

  async function notifyOne(
    userId: string,
    kind: CreatorNotificationKind,
    event: CreatorEvent,
    dedupeKey: string,
    actorId: string | null,
  ) {
    const user = await storage.users.findById(userId);
    if (!user || user.deletedAt !== null) return;
    const devices = (await storage.creatorNotifications.listPlatformSubscriptions(userId)).filter(
      (d) => d.disabledAt === null,
    );
    const choice = await storage.creatorNotifications.emailDigest(userId);
    const byEmail =
      user.emailVerifiedAt !== null &&
      (choice === 'always' || (choice === 'when_no_push' && devices.length === 0));
    const notification: CreatorNotificationRecord = {
      id: createId(),
      userId,
      appId: event.appId,
      kind,
      actorId,
      dedupeKey,
      createdAt: clock.now(),
      digestPending: byEmail,
      digestedAt: null,
    };
    // Another instance told them already (the day's first visitor seen by two at once).
    if (!(await storage.creatorNotifications.add(notification))) return;
    const telling = devices.length > 0 ? await digests.told(notification) : null;
    for (const device of telling ? devices : []) {
      const outcome = await sender.sendPush(
        device,
        { ...pushMessageOf(telling!) },
        {
          ttl: CREATOR_PUSH_TTL_SECONDS,
          urgency: 'normal',
        },
      );
      if (outcome.kind !== 'sent') {
        logger.info(
          { userId, kind, outcome: outcome.kind },
          'a creator notification was not pushed',
        );
      }
    }
    if (byEmail) await digests.queue(userId);
  }

  async function notify(event: CreatorEvent) {
    try {
      const { ids, actorId } = await recipientsOf(event);
      const dedupeKey = dedupeKeyOf(event);
      for (const userId of new Set(ids)) {
        if (userId === actorId) continue;
        await notifyOne(userId, event.kind, event, dedupeKey, actorId);
      }
    } catch (error) {
      logger.warn({ err: error, kind: event.kind, appId: event.appId }, 'telling creators failed');
    }
  }

  let stopped = false;
  let sweeping: Promise<unknown> | undefined;
  const tick = () => {
    if (stopped) return;
    sweeping ??= digests
      .sweep()
      .catch((error: unknown) =>
        logger.warn(
          { err: error, task: 'email-digests' },
          'queuing the email digests failed; trying again later',
        ),
      )
      .finally(() => (sweeping = undefined));
  };
  const timer = setInterval(tick, deps.sweepIntervalMs ?? DIGEST_SWEEP_INTERVAL_MS);
  timer.unref();
  // After a restart, the digests waiting start the scheduler (nothing else may, with no reminder).
  const first = setTimeout(tick, 0);
  first.unref();

  return {
    notify,
    async visited(appId) {
      const key = `${appId}:${utcDay(clock.now())}`;
      if (visitedToday.get(key)) return;
      visitedToday.set(key, true);
      await notify({ kind: 'first_visit', appId });
    },
    deliverDigest: digests.deliver,
    sweep: digests.sweep,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await sweeping;
    },
  };
}
