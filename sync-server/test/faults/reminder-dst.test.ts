import { createId } from '@pipit/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobKey } from '../../src/reminders/reminders';
import type { Storage } from '../../src/storage/types';
import { vapidEnv } from '../support/due-reminders';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { type PushServiceStandIn, startPushServiceStandIn } from '../support/push-service';
import { testUser } from '../support/users';

/*
 * A person in New York with reminders at 01:30, 02:30 and 20:00, and the server's clock moved
 * across a daylight-saving change, occurrence by occurrence, through the whole job path: each
 * sent once, none skipped, none doubled. The rules are packages/app-definition/src/reminders'
 * (README, "The DST rules"): a time the clocks jump over is due at the first minute after the
 * jump; a time they show twice is due once, at the first of the two.
 *
 * In process, because a real process cannot be handed a clock: the server reads time through the
 * `Clock` createServer takes, and no environment variable moves it (nor should one in
 * production). SQLite's queue keeps time with that clock; pg-boss's due times are the database's
 * own `now()`, which no test moves, so this runs on SQLite only.
 */

const Z = (iso: string) => Date.parse(iso);

const TRANSITIONS = [
  {
    name: 'spring forward (2026-03-08, 02:00 EST → 03:00 EDT)',
    start: Z('2026-03-06T12:00:00Z'),
    expected: {
      '01:30': ['2026-03-07T06:30:00Z', '2026-03-08T06:30:00Z', '2026-03-09T05:30:00Z'],
      // 02:30 does not happen on the 8th: due at 03:00 EDT, the first minute after the jump.
      '02:30': ['2026-03-07T07:30:00Z', '2026-03-08T07:00:00Z', '2026-03-09T06:30:00Z'],
      '20:00': ['2026-03-07T01:00:00Z', '2026-03-08T01:00:00Z', '2026-03-09T00:00:00Z'],
    },
  },
  {
    name: 'fall back (2026-11-01, 02:00 EDT → 01:00 EST)',
    start: Z('2026-10-30T12:00:00Z'),
    expected: {
      // 01:30 happens twice on the 1st (05:30Z EDT, 06:30Z EST): sent at the first only.
      '01:30': ['2026-10-31T05:30:00Z', '2026-11-01T05:30:00Z', '2026-11-02T06:30:00Z'],
      '02:30': ['2026-10-31T06:30:00Z', '2026-11-01T07:30:00Z', '2026-11-02T07:30:00Z'],
      '20:00': ['2026-10-31T00:00:00Z', '2026-11-01T00:00:00Z', '2026-11-02T01:00:00Z'],
    },
  },
] as const;

describe('reminders across a daylight-saving change (America/New_York)', () => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  let now = 0;
  const clock = { now: () => now };
  const vapid = vapidEnv();
  const storage = (): Storage => h.pipit.server.storage;

  beforeEach(async () => {
    push = await startPushServiceStandIn();
  });
  afterEach(async () => {
    await h?.close();
    await push.close();
  });

  it.each(TRANSITIONS)('$name: every occurrence sent once', async ({ start, expected }) => {
    now = start;
    h = await startAccountsServer('sqlite', {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
      clock,
      schedulerPollMs: 20,
      env: vapid,
    });
    const owner = await storage().users.insert(testUser());
    const person = await storage().users.insert(testUser());
    const appId = createId();
    await storage().apps.insert({
      id: appId,
      ownerId: owner.id,
      title: 'Night shift',
      description: '',
      icon: null,
      createdAt: now,
    });
    const times = Object.keys(expected) as Array<keyof typeof expected>;
    const ids = Object.fromEntries(times.map((t) => [t, createId()])) as Record<string, string>;
    await storage().publishing.publish({
      appId,
      definitionJson: JSON.stringify({
        reminders: times.map((time) => ({
          id: ids[time],
          title: `At ${time}`,
          body: '',
          schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time },
        })),
      }),
      listing: { title: 'Night shift', description: '', icon: null, tags: [] },
      publisherId: owner.id,
      publishedAt: now,
      visibility: 'public',
    });
    const device = push.subscribe({ applicationServerKey: vapid.VAPID_PUBLIC_KEY });
    await storage().pushSubscriptions.upsert({
      id: createId(),
      userId: person.id,
      appId,
      deviceId: createId(),
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      auth: device.keys.auth,
      vapidPublicKey: vapid.VAPID_PUBLIC_KEY,
      createdAt: now,
    });
    const queued = (time: string, at: number) =>
      storage().jobs.get(
        jobKey({ userId: person.id, appId, reminderId: ids[time]!, occurrence: at }),
      );
    for (const time of times) {
      await storage().reminderPreferences.put({
        userId: person.id,
        appId,
        reminderId: ids[time]!,
        preferences: { enabled: true, timeZone: 'America/New_York' },
        updatedAt: now,
      });
      // Turning it on queues the first occurrence.
      expect(await h.pipit.server.reminders.scheduleNext(person.id, appId, ids[time]!)).toBe(
        Z(expected[time][0]),
      );
    }

    // The clock jumps from one occurrence to the next (hours at a time, across the change).
    const steps = times
      .flatMap((time) => expected[time].map((iso, i) => ({ time, i, at: Z(iso) })))
      .sort((a, b) => a.at - b.at);
    const sent = () =>
      push
        .deliveredTo(device)
        .map((d) => (JSON.parse(d.payload) as { title: string }).title.slice(3));
    for (const [n, step] of steps.entries()) {
      now = step.at + 1_000;
      await vi.waitFor(() => expect(sent()).toHaveLength(n + 1), { timeout: 10_000, interval: 20 });
      expect(sent()[n]).toBe(step.time);
      const key = { userId: person.id, appId, reminderId: ids[step.time]!, occurrence: step.at };
      await vi.waitFor(
        async () => expect(await storage().reminderDeliveries.occurrenceStatus(key)).toBe('sent'),
        { timeout: 10_000, interval: 20 },
      );
      // The job that sent it queued the next day's occurrence at the expected instant.
      const next = expected[step.time][step.i + 1];
      if (next) {
        await vi.waitFor(async () => expect(await queued(step.time, Z(next))).not.toBeNull(), {
          timeout: 10_000,
          interval: 20,
        });
      }
    }
    // The second 01:30 of the fall-back night was never queued.
    if (expected['01:30'][1] === '2026-11-01T05:30:00Z') {
      expect(await queued('01:30', Z('2026-11-01T06:30:00Z'))).toBeNull();
    }
    expect(sent()).toHaveLength(9);
    for (const time of times) expect(sent().filter((t) => t === time)).toHaveLength(3);
  });
});
