import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backoffMs, PUSH_RETRY_BASE_MS } from '../../src/push/backoff';
import { jobKey } from '../../src/reminders/reminders';
import type { Storage } from '../../src/storage/types';
import { type DuePerson, seedDueReminders, vapidEnv } from '../support/due-reminders';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { type PushServiceStandIn, startPushServiceStandIn } from '../support/push-service';

/*
 * A push service's answers through the whole job path: the scheduler claims a due reminder, the
 * reminders module sends it, the sender reads the answer, and the job is completed or put back.
 * In process on SQLite, whose queue keeps time with the server's Clock, so a Retry-After of two
 * minutes is two minutes of a clock the test moves, not of waiting.
 */

describe('a push service answering 410, 429 and 500, through the job scheduler', () => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  let now = Date.now();
  const clock = { now: () => now };
  const vapid = vapidEnv();
  const storage = (): Storage => h.pipit.server.storage;

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer('sqlite', {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
      clock,
      schedulerPollMs: 20,
      env: vapid,
    });
  });
  afterAll(async () => {
    await h.close();
    await push.close();
  });

  /** One person whose reminder is due a minute from the clock, queued the way turning it on queues it. */
  async function duePerson(): Promise<DuePerson> {
    const seeded = await seedDueReminders(storage(), {
      count: 1,
      at: now + 60_000,
      vapidPublicKey: vapid.VAPID_PUBLIC_KEY,
      subscribe: () => push.subscribe({ applicationServerKey: vapid.VAPID_PUBLIC_KEY }),
    });
    const person = seeded.people[0]!;
    const { userId, appId, reminderId } = person.key;
    expect(await h.pipit.server.reminders.scheduleNext(userId, appId, reminderId)).toBe(
      seeded.occurrence,
    );
    return person;
  }
  const job = (person: DuePerson) => storage().jobs.get(jobKey(person.key));
  const refusedFor = (person: DuePerson) =>
    push.refused.filter((r) => r.subscriptionId === push.idOf(person.device));
  const waitFor = (check: () => Promise<void> | void) =>
    vi.waitFor(check, { timeout: 10_000, interval: 20 });

  it('410 Gone: the subscription is removed and nothing is retried', async () => {
    const person = await duePerson();
    push.expire(person.device);
    now = person.key.occurrence + 1_000;
    await waitFor(async () => expect((await job(person))?.doneAt).toBe(now));
    expect(await job(person)).toMatchObject({ attempts: 1, failedAt: null });
    expect(refusedFor(person)).toEqual([expect.objectContaining({ status: 410 })]);
    expect(await storage().pushSubscriptions.listForUser(person.userId)).toEqual([]);
    expect(push.deliveredTo(person.device)).toEqual([]);
  });

  it('429 with Retry-After: sent once, after the wait it asked for', async () => {
    const person = await duePerson();
    push.failNext({ status: 429, retryAfter: 120 });
    now = person.key.occurrence + 1_000;
    await waitFor(async () => expect((await job(person))?.lastError).toMatch(/429|rate/i));
    const afterRefusal = now;
    // Put back for exactly the wait the push service asked for, unclaimed until then.
    expect(await job(person)).toMatchObject({
      runAt: afterRefusal + 120_000,
      attempts: 1,
      leasedBy: null,
      doneAt: null,
    });
    expect(push.deliveredTo(person.device)).toEqual([]);

    now = afterRefusal + 120_000;
    await waitFor(() => expect(push.deliveredTo(person.device)).toHaveLength(1));
    await waitFor(async () => expect((await job(person))?.doneAt).toBe(now));
    expect(await job(person)).toMatchObject({ attempts: 2 });
    expect(refusedFor(person).map((r) => r.status)).toEqual([429]);
    expect(await storage().reminderDeliveries.occurrenceStatus(person.key)).toBe('sent');
    expect(JSON.parse(push.deliveredTo(person.device)[0]!.payload)).toMatchObject({
      tag: person.tag,
    });
  });

  it('500 twice: retried with a growing backoff, then sent once', async () => {
    const person = await duePerson();
    push.failNext({ status: 500 }, 2);
    const delays: number[] = [];
    now = person.key.occurrence + 1_000;
    for (let failure = 1; failure <= 2; failure += 1) {
      const at = now;
      await waitFor(async () => expect((await job(person))?.attempts).toBe(failure));
      await waitFor(async () => expect((await job(person))?.leasedBy).toBeNull());
      const row = (await job(person))!;
      expect(row.doneAt).toBeNull();
      delays.push(row.runAt - at);
      now = row.runAt;
    }
    // The sender's backoff: half fixed, half jitter, doubling with each failure in a row.
    expect(delays[0]).toBeGreaterThanOrEqual(backoffMs(1, () => 0));
    expect(delays[0]).toBeLessThanOrEqual(backoffMs(1, () => 1));
    expect(delays[1]).toBeGreaterThanOrEqual(backoffMs(2, () => 0));
    expect(delays[1]).toBeLessThanOrEqual(backoffMs(2, () => 1));
    expect(delays[1]).toBeGreaterThanOrEqual(PUSH_RETRY_BASE_MS);

    await waitFor(() => expect(push.deliveredTo(person.device)).toHaveLength(1));
    await waitFor(async () => expect((await job(person))?.doneAt).toBe(now));
    expect(refusedFor(person).map((r) => r.status)).toEqual([500, 500]);
    expect(await job(person)).toMatchObject({ attempts: 3, failedAt: null });
    // The success reset the subscription's failures.
    expect((await storage().pushSubscriptions.listForUser(person.userId))[0]).toMatchObject({
      failures: 0,
      disabledAt: null,
    });
  });
});
