import { createId } from '@pipit/protocol';
import { nextOccurrence } from '@pipit/app-definition';
import webpush from 'web-push';
import { jobKey, tagOf } from '../../src/reminders/reminders';
import type { Scheduler } from '../../src/scheduler';
import type { OccurrenceKey, Storage } from '../../src/storage/types';
import type { StandInSubscription } from './push-service';
import { testUser } from './users';

/*
 * Many people with one reminder each, due at the same minute, written straight into storage (no
 * sign-ups, no REST): what the reminder fault tests and `npm run bench -- push` start from. The
 * published app's definition holds only its reminders, which is all the scheduler reads of it.
 */

const EVERY_DAY: Array<1 | 2 | 3 | 4 | 5 | 6 | 7> = [1, 2, 3, 4, 5, 6, 7];

/** VAPID keys and subject as the environment gives them (config.ts), for a server to sign with. */
export function vapidEnv(): {
  VAPID_PUBLIC_KEY: string;
  VAPID_PRIVATE_KEY: string;
  VAPID_SUBJECT: string;
} {
  const keys = webpush.generateVAPIDKeys();
  return {
    VAPID_PUBLIC_KEY: keys.publicKey,
    VAPID_PRIVATE_KEY: keys.privateKey,
    VAPID_SUBJECT: 'mailto:reminders@example.org',
  };
}

/** The UTC minute `at` falls in, as the reminder's `HH:MM` and as the occurrence's epoch ms. */
export function dueMinute(at: number): { time: string; occurrence: number } {
  const occurrence = Math.floor(at / 60_000) * 60_000;
  return { time: new Date(occurrence).toISOString().slice(11, 16), occurrence };
}

export interface DuePerson {
  userId: string;
  device: StandInSubscription;
  key: OccurrenceKey;
  /** The tag the device's notification carries: one per occurrence. */
  tag: string;
}

export interface DueReminders {
  appId: string;
  reminderId: string;
  occurrence: number;
  people: DuePerson[];
}

/**
 * Publishes an app with one daily reminder at the UTC minute of `at` and turns it on for `count`
 * new people, each with one device from `subscribe`. Queues nothing unless `scheduler` is given:
 * then each person's occurrence is queued as the reminders module queues it (same key).
 */
export async function seedDueReminders(
  storage: Storage,
  options: {
    count: number;
    at: number;
    vapidPublicKey: string;
    subscribe: () => StandInSubscription;
    scheduler?: Scheduler;
  },
): Promise<DueReminders> {
  const { time, occurrence } = dueMinute(options.at);
  const owner = await storage.users.insert(testUser());
  const appId = createId();
  const reminderId = createId();
  const now = Date.now();
  await storage.apps.insert({
    id: appId,
    ownerId: owner.id,
    title: 'Habits',
    description: '',
    icon: null,
    createdAt: now,
  });
  const schedule = { kind: 'weekly' as const, days: EVERY_DAY, time };
  await storage.publishing.publish({
    appId,
    definitionJson: JSON.stringify({
      reminders: [{ id: reminderId, title: 'Log your habits', body: 'Today’s, please.', schedule }],
    }),
    listing: { title: 'Habits', description: '', icon: null, tags: [] },
    publisherId: owner.id,
    publishedAt: now,
    visibility: 'public',
  });
  const preferences = { enabled: true, timeZone: 'UTC' };
  if (nextOccurrence(schedule, preferences, occurrence - 1) !== occurrence) {
    throw new Error(
      `the reminder at ${time} UTC is not due at ${new Date(occurrence).toISOString()}`,
    );
  }
  const people: DuePerson[] = [];
  for (let i = 0; i < options.count; i += 1) {
    const user = await storage.users.insert(testUser());
    await storage.reminderPreferences.put({
      userId: user.id,
      appId,
      reminderId,
      preferences,
      updatedAt: now,
    });
    const device = options.subscribe();
    await storage.pushSubscriptions.upsert({
      id: createId(),
      userId: user.id,
      appId,
      deviceId: createId(),
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      auth: device.keys.auth,
      vapidPublicKey: options.vapidPublicKey,
      createdAt: now,
    });
    const key: OccurrenceKey = { userId: user.id, appId, reminderId, occurrence };
    if (options.scheduler) {
      await options.scheduler.enqueue({
        kind: 'reminder',
        key: jobKey(key),
        runAt: occurrence,
        payload: key,
      });
    }
    people.push({ userId: user.id, device, key, tag: tagOf(key) });
  }
  return { appId, reminderId, occurrence, people };
}
