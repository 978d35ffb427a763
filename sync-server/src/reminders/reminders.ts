import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  isTooLate,
  nextOccurrence,
  type Reminder,
  type ReminderPreferences,
  reminderSchema,
} from '@pipit/app-definition';
import { appPwaPaths, type PushMessage } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { Logger } from '../logger';
import type { PushOutcome, PushSender } from '../push/sender';
import { type Job, RetryLater, type Scheduler } from '../scheduler';
import type {
  OccurrenceKey,
  ReminderKey,
  ReminderPreferenceRecord,
  Storage,
} from '../storage/types';

/** How often every turned-on reminder is checked to have its next occurrence queued. */
export const REMINDER_SWEEP_INTERVAL_MS = 5 * 60 * 1000;
const SWEEP_PAGE = 200;
/** A reminder a phone gets after this long offline is stale: the push service may drop it. */
const REMINDER_TTL_SECONDS = 60 * 60;

/**
 * The reminders a published app defines, read from its served version. A version from before
 * reminders existed has none; one that does not read (it passed the publish check of its day) is
 * skipped whole rather than half-trusted.
 */
const publishedReminders = z.object({ reminders: z.array(reminderSchema).default([]) });

export async function remindersOfApp(storage: Storage, appId: string): Promise<Reminder[]> {
  const app = await storage.apps.get(appId);
  if (!app || app.publishedVersion === null) return [];
  const version = await storage.publishing.version(appId, app.publishedVersion);
  if (!version) return [];
  let definition: unknown;
  try {
    definition = JSON.parse(version.definitionJson);
  } catch {
    return [];
  }
  const read = publishedReminders.safeParse(definition);
  return read.success ? read.data.reminders : [];
}

/** The scheduler key of an occurrence's job: one job per occurrence, whoever queues it. */
export const jobKey = (key: OccurrenceKey) =>
  `reminder:${key.userId}:${key.appId}:${key.reminderId}:${key.occurrence}`;

/** One tag per occurrence: a copy sent twice replaces the first on the device (at least once). */
export const tagOf = (key: OccurrenceKey) =>
  `r-${createHash('sha256').update(jobKey(key)).digest('base64url').slice(0, 22)}`;

/** The occurrence after `after` of a schedule this server sends by itself, or null. */
function nextOf(reminder: Reminder, preferences: ReminderPreferences, after: number) {
  // Reminders counted from a record's date and formula reminders need the person's data, which
  // their device reads; the server sends the ones a clock alone decides.
  if (reminder.schedule.kind !== 'weekly') return null;
  return nextOccurrence(reminder.schedule, preferences, after);
}

export interface Reminders {
  /** Queues the next occurrence of a person's reminder, if it is on (idempotent). */
  scheduleNext(userId: string, appId: string, reminderId: string): Promise<number | null>;
  /** Sends one due occurrence: the scheduler's handler for `reminder` jobs. */
  deliver(job: Job<'reminder'>): Promise<void>;
  /** Makes sure every turned-on reminder has its next occurrence queued. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export function createReminders(deps: {
  storage: Storage;
  /** Opened when first needed, with this module's handler registered before it starts. */
  openScheduler: () => Scheduler;
  sender: PushSender;
  clock: Clock;
  logger: Logger;
  sweepIntervalMs?: number;
}): Reminders {
  const { storage, sender, clock, logger } = deps;

  /**
   * The scheduler starts when the first reminder is turned on (or found on at start-up), so an
   * instance whose apps have none runs no queue at all. A failed start is not kept: the next call
   * tries again.
   */
  let scheduler: Scheduler | undefined;
  let starting: Promise<Scheduler> | undefined;
  function started(): Promise<Scheduler> {
    starting ??= (async () => {
      if (!scheduler) {
        const opened = deps.openScheduler();
        opened.work('reminder', deliver);
        scheduler = opened;
      }
      await scheduler.start();
      return scheduler;
    })().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  }

  async function enqueueNext(record: ReminderPreferenceRecord, reminder: Reminder, after: number) {
    const occurrence = nextOf(reminder, record.preferences, after);
    if (occurrence === null) return null;
    const { userId, appId, reminderId } = record;
    const key: OccurrenceKey = { userId, appId, reminderId, occurrence };
    await (
      await started()
    ).enqueue({
      kind: 'reminder',
      key: jobKey(key),
      runAt: occurrence,
      payload: key,
    });
    return occurrence;
  }

  async function current(userId: string, appId: string, reminderId: string) {
    const record = await storage.reminderPreferences.get(userId, appId, reminderId);
    if (!record?.preferences.enabled) return null;
    const reminder = (await remindersOfApp(storage, appId)).find((r) => r.id === reminderId);
    return reminder ? { record, reminder } : null;
  }

  async function sendToDevices(key: OccurrenceKey, reminder: Reminder): Promise<PushOutcome[]> {
    const message: PushMessage = {
      title: reminder.title,
      body: reminder.body,
      path: appPwaPaths(key.appId).page,
      tag: tagOf(key),
      appId: key.appId,
    };
    const devices = (await storage.pushSubscriptions.listForUser(key.userId, key.appId)).filter(
      (s) => s.disabledAt === null,
    );
    const outcomes: PushOutcome[] = [];
    for (const device of devices) {
      outcomes.push(
        await sender.sendPush(
          device,
          { ...message },
          { ttl: REMINDER_TTL_SECONDS, urgency: 'normal' },
        ),
      );
    }
    return outcomes;
  }

  async function deliver(job: Job<'reminder'>) {
    const key: OccurrenceKey = job.payload;
    const found = await current(key.userId, key.appId, key.reminderId);
    // Turned off, or the reminder left the app: nothing to send and nothing to queue.
    if (!found) return;
    const { record, reminder } = found;
    // The person changed the time since this was queued: the change queued the right one.
    if (nextOf(reminder, record.preferences, key.occurrence - 1) !== key.occurrence) return;
    if (!(await storage.reminderDeliveries.claimOccurrence(key, job.id, clock.now()))) return;
    if (isTooLate(key.occurrence, clock.now())) {
      await storage.reminderDeliveries.markOccurrence(key, 'missed', clock.now());
      logger.info({ ...key }, 'a reminder was too late to send; it is recorded as missed');
    } else {
      const outcomes = await sendToDevices(key, reminder);
      const retry = outcomes.filter((o) => o.kind === 'retry_later');
      if (retry.length > 0 && !outcomes.some((o) => o.kind === 'sent')) {
        throw new RetryLater(Math.max(...retry.map((o) => o.delayMs)), retry[0]!.reason);
      }
      await storage.reminderDeliveries.markOccurrence(key, 'sent', clock.now());
    }
    await enqueueNext(record, reminder, Math.max(key.occurrence, clock.now()));
  }

  async function sweep() {
    if (stopped) return 0;
    let queued = 0;
    let after: ReminderKey | undefined;
    const definitions = new Map<string, Promise<Reminder[]>>();
    for (;;) {
      const { records, next } = await storage.reminderPreferences.listEnabled(SWEEP_PAGE, after);
      for (const record of records) {
        let reminders = definitions.get(record.appId);
        if (!reminders) {
          reminders = remindersOfApp(storage, record.appId);
          definitions.set(record.appId, reminders);
        }
        const reminder = (await reminders).find((r) => r.id === record.reminderId);
        if (reminder && (await enqueueNext(record, reminder, clock.now())) !== null) queued += 1;
      }
      if (next === null) return queued;
      after = next;
    }
  }

  let sweeping: Promise<unknown> | undefined;
  let stopped = false;
  const tick = () =>
    void (sweeping ??= sweep()
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'checking the reminders queued failed; trying again later'),
      )
      .finally(() => (sweeping = undefined)));
  const timer = setInterval(tick, deps.sweepIntervalMs ?? REMINDER_SWEEP_INTERVAL_MS);
  timer.unref();
  tick();

  return {
    async scheduleNext(userId, appId, reminderId) {
      const found = await current(userId, appId, reminderId);
      return found ? enqueueNext(found.record, found.reminder, clock.now()) : null;
    },
    deliver,
    sweep,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await sweeping;
      if (starting) {
        await starting.then(
          (s) => s.stop(),
          () => undefined,
        );
      }
    },
  };
}
