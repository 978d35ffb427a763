import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobKey } from '../../src/reminders/reminders';
import { openScheduler } from '../../src/scheduler';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { type ChildPipit, PUSH_FIXTURE, spawnPipit } from '../support/child-server';
import { type DueReminders, seedDueReminders, vapidEnv } from '../support/due-reminders';
import { createTestDatabase } from '../support/postgres';
import { type PushServiceStandIn, startPushServiceStandIn } from '../support/push-service';

/*
 * Reminders due at once, sent by real server processes (the production entry through
 * serve-with-push-stand-in.ts) to the push-service stand-in in this process: one killed with
 * SIGKILL in the middle of the batch and started again, and two instances sharing one PostgreSQL
 * database. SQLite serves one instance only (docs/scaling.md), so two processes on one SQLite file
 * is not a setup Pipit supports and is not tested.
 *
 * What "once" means here (docs/decisions/0012-web-push-and-scheduler.md): an occurrence is claimed
 * in reminder_deliveries before it is sent and marked sent after. A process killed between the
 * push service taking the message and the mark leaves the occurrence claimed by its job, and that
 * job's next run sends it again: at least once, not exactly once. The copy carries the same tag,
 * so the device replaces the first notification with it; a person sees each occurrence once.
 */

const PEOPLE = 40;

/** Each device's pushes, by the tag they carry. */
function tagsByDevice(push: PushServiceStandIn, seeded: DueReminders) {
  return seeded.people.map((person) =>
    push.deliveredTo(person.device).map((d) => (JSON.parse(d.payload) as { tag: string }).tag),
  );
}

async function statuses(storage: Storage, seeded: DueReminders) {
  return Promise.all(seeded.people.map((p) => storage.reminderDeliveries.occurrenceStatus(p.key)));
}

describe('due reminders sent by real server processes', () => {
  let push: PushServiceStandIn;
  const vapid = vapidEnv();
  const children: ChildPipit[] = [];
  const cleanups: Array<() => Promise<void> | void> = [];
  const serverEnv = () => ({
    ...vapid,
    PIPIT_TEST_PUSH_ORIGIN: push.origin,
    PIPIT_TEST_PUSH_CA: push.certificate,
    PIPIT_TEST_SCHEDULER_POLL_MS: '100',
    PIPIT_TEST_SCHEDULER_LEASE_MS: '2000',
  });
  const spawn = async (env: Record<string, string>) => {
    const child = await spawnPipit({ ...serverEnv(), ...env }, PUSH_FIXTURE);
    children.push(child);
    return child;
  };
  const subscribe = () => push.subscribe({ applicationServerKey: vapid.VAPID_PUBLIC_KEY });

  beforeAll(async () => {
    push = await startPushServiceStandIn();
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.stop('SIGKILL')));
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    push.answerDelayMs = 0;
  });
  afterAll(async () => {
    await push.close();
  });

  it('a process killed with SIGKILL mid-batch: after a restart every occurrence is on its device, none shown twice', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-kill-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let storage = await openSqliteStorage(dataDir);
    const queue = openScheduler({ storage, config: { databaseUrl: undefined } });
    await queue.start();
    const seeded = await seedDueReminders(storage, {
      count: PEOPLE,
      at: Date.now(),
      vapidPublicKey: vapid.VAPID_PUBLIC_KEY,
      subscribe,
      scheduler: queue,
    });
    await queue.stop();
    await storage.close();

    // A slow push service: each message is taken (the device will show it) 300 ms before the
    // sender hears so, and the kill lands while four of them are in that state.
    push.answerDelayMs = 300;
    const first = await spawn({ DATA_DIR: dataDir });
    await vi.waitFor(() => expect(push.received).toBeGreaterThanOrEqual(10), {
      timeout: 30_000,
      interval: 10,
    });
    await first.stop('SIGKILL');
    const takenBeforeKill = new Set(push.delivered.map((d) => d.subscriptionId));
    expect(takenBeforeKill.size).toBeGreaterThan(0);
    expect(takenBeforeKill.size).toBeLessThan(PEOPLE);

    storage = await openSqliteStorage(dataDir);
    cleanups.push(() => storage.close());
    const atKill = await statuses(storage, seeded);
    push.answerDelayMs = 0;
    await spawn({ DATA_DIR: dataDir });
    await vi.waitFor(
      async () => expect((await statuses(storage, seeded)).every((s) => s === 'sent')).toBe(true),
      { timeout: 30_000, interval: 100 },
    );

    const tags = tagsByDevice(push, seeded);
    seeded.people.forEach((person, i) => {
      // Every occurrence reached its device, and every copy of it carries its one tag.
      expect(tags[i]!.length).toBeGreaterThanOrEqual(1);
      expect(new Set(tags[i])).toEqual(new Set([person.tag]));
      // A second copy only where the kill came between the push service taking the message and
      // the occurrence being marked sent.
      if (tags[i]!.length > 1) {
        expect(takenBeforeKill.has(push.idOf(person.device))).toBe(true);
        expect(atKill[i]).toBe('sending');
      }
      if (atKill[i] === 'sent') expect(tags[i]).toHaveLength(1);
    });
    const copies = tags.reduce((n, t) => n + t.length, 0);
    console.log(
      `kill -9 mid-batch: ${PEOPLE} occurrences, ${takenBeforeKill.size} taken before the kill, ` +
        `${copies - PEOPLE} sent twice (same tag)`,
    );
  }, 60_000);

  it('two instances on one PostgreSQL database: each occurrence sent once', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const storage = await openPostgresStorage(database.url);
    cleanups.push(() => storage.close());
    // The people first: each instance's start-up sweep finds their reminders on and starts its queue.
    const seeded = await seedDueReminders(storage, {
      count: PEOPLE,
      at: Date.now(),
      vapidPublicKey: vapid.VAPID_PUBLIC_KEY,
      subscribe,
    });
    const env = { DATABASE_URL: database.url };
    await Promise.all([spawn(env), spawn(env)]);
    // Both instances poll every 100 ms; the occurrences are queued while both run, so both race.
    push.answerDelayMs = 50;
    const queue = openScheduler({ storage, config: { databaseUrl: database.url } });
    await queue.start();
    cleanups.push(() => queue.stop());
    for (const person of seeded.people) {
      await queue.enqueue({
        kind: 'reminder',
        key: jobKey(person.key),
        runAt: seeded.occurrence,
        payload: person.key,
      });
    }
    await vi.waitFor(
      async () => expect((await statuses(storage, seeded)).every((s) => s === 'sent')).toBe(true),
      { timeout: 30_000, interval: 100 },
    );
    const tags = tagsByDevice(push, seeded);
    seeded.people.forEach((person, i) => expect(tags[i]).toEqual([person.tag]));
  }, 60_000);
});
