import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createId } from '@pipit/protocol';
import { openScheduler, type SchedulerOptions } from '../../src/scheduler/open-scheduler';
import {
  type Job,
  type JobKind,
  type JobPayloads,
  type JobRequest,
  RetryLater,
  type Scheduler,
} from '../../src/scheduler/types';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import type { Engine } from '../support/engines';
import { createTestDatabase } from '../support/postgres';
import { sleep } from '../support/timing';
import { insertUser } from '../support/users';

type InstanceOptions = Omit<SchedulerOptions, 'storage' | 'config'>;

/** One database, and "instances" on it: each its own connections and its own scheduler. */
export interface SchedulerHarness {
  storage: Storage;
  /** Instance options that keep the suite quick; a test may override them. */
  defaults: InstanceOptions;
  instance(options?: InstanceOptions): Promise<Scheduler>;
  close(): Promise<void>;
}

export async function openHarness(engine: Engine): Promise<SchedulerHarness> {
  const stores: Storage[] = [];
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-scheduler-'));
    const storage = await openSqliteStorage(dir);
    return {
      storage,
      defaults: { pollIntervalMs: 50, leaseMs: 500 },
      async instance(options) {
        // Another connection to the same file, as another process would have.
        const own = await openSqliteStorage(dir);
        stores.push(own);
        return openScheduler({ storage: own, config: { databaseUrl: undefined }, ...options });
      },
      async close() {
        for (const s of [...stores, storage]) await s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await createTestDatabase();
  const storage = await openPostgresStorage(database.url);
  return {
    storage,
    defaults: { pollIntervalMs: 50, expireInSeconds: 30, maintenanceIntervalSeconds: 1 },
    async instance(options) {
      // Each scheduler opens its own pool; storage's is only read for its engine.
      return openScheduler({ storage, config: { databaseUrl: database.url }, ...options });
    },
    async close() {
      await storage.close();
      await database.drop();
    },
  };
}

interface Run {
  instance: string;
  id: string;
  key: string;
  attempt: number;
  payload: unknown;
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const waitFor = <T>(check: () => T | Promise<T>) =>
  vi.waitFor(check, { timeout: 15_000, interval: 20 });

/**
 * One behaviour for both schedulers (docs/decisions/0012-web-push-and-scheduler.md): each test
 * runs on its own queues (its own pg-boss schema, its own keys on SQLite's shared table).
 */
export function describeSchedulerContract(engine: Engine) {
  describe(`scheduler contract: ${engine}`, () => {
    let harness: SchedulerHarness;
    let opened: Scheduler[] = [];
    let gates: Array<() => void> = [];
    let runs: Run[] = [];
    let testNumber = 0;
    let schema = '';

    beforeAll(async () => {
      harness = await openHarness(engine);
    });
    afterEach(async () => {
      for (const release of gates) release();
      await Promise.all(opened.map((s) => s.stop()));
      opened = [];
      gates = [];
      runs = [];
    });
    afterAll(() => harness.close());

    /** A started instance whose handlers record each run; `handler` decides what a run does. */
    async function instance(
      name: string,
      handler: (job: Job<JobKind>) => Promise<void> = async () => {},
      options: InstanceOptions & {
        retryLimit?: number;
        baseDelayMs?: number;
        maxDelayMs?: number;
        concurrency?: number;
      } = {},
    ): Promise<Scheduler> {
      const { retryLimit, baseDelayMs, maxDelayMs, concurrency, ...rest } = options;
      const scheduler = await harness.instance({
        ...harness.defaults,
        pgBossSchema: schema,
        ...rest,
      });
      opened.push(scheduler);
      for (const kind of ['reminder', 'digest'] as const) {
        scheduler.work(
          kind,
          async (job) => {
            runs.push({
              instance: name,
              id: job.id,
              key: job.key,
              attempt: job.attempt,
              payload: job.payload,
            });
            await handler(job);
          },
          {
            retryLimit: retryLimit ?? 3,
            baseDelayMs: baseDelayMs ?? 20,
            maxDelayMs: maxDelayMs ?? 100,
            concurrency,
          },
        );
      }
      await scheduler.start();
      return scheduler;
    }

    const key = () => `test:${testNumber}:${createId()}`;
    const digest = (k: string, runAt = Date.now(), userId = 'u'): JobRequest<'digest'> => ({
      kind: 'digest',
      key: k,
      runAt,
      payload: { userId },
    });
    const runsOf = (k: string) => runs.filter((r) => r.key === k);
    const gate = () => {
      const d = deferred();
      gates.push(d.resolve);
      return d;
    };

    // Own queues per test: pg-boss's settings (retry limit, expiry) are per queue and schema.
    const fresh = () => {
      testNumber += 1;
      schema = `pgboss_t${testNumber}`;
    };

    it('refuses a second job with the same key while the first is queued', async () => {
      fresh();
      const s = await instance('a');
      const k = key();
      expect(await s.enqueue(digest(k, Date.now() + 3_600_000))).toBe(true);
      expect(await s.enqueue(digest(k, Date.now()))).toBe(false);
      expect(await s.enqueue(digest(key(), Date.now() + 3_600_000))).toBe(true);
    });

    it('refuses a second job with the same key while the first runs, and takes it once done', async () => {
      fresh();
      const held = gate();
      const s = await instance('a', () => held.promise);
      const k = key();
      expect(await s.enqueue(digest(k))).toBe(true);
      await waitFor(() => expect(runsOf(k)).toHaveLength(1));
      expect(await s.enqueue(digest(k))).toBe(false);
      held.resolve();
      await waitFor(async () => expect(await s.enqueue(digest(k))).toBe(true));
      await waitFor(() => expect(runsOf(k)).toHaveLength(2));
    });

    it('runs a due job once, with its payload', async () => {
      fresh();
      const s = await instance('a');
      const k = key();
      await s.enqueue(digest(k, Date.now() - 1_000, 'ada'));
      await waitFor(() => expect(runsOf(k)).toHaveLength(1));
      await s.wake();
      await s.wake();
      expect(runsOf(k)).toEqual([
        { instance: 'a', id: expect.any(String), key: k, attempt: 1, payload: { userId: 'ada' } },
      ]);
    });

    it('does not run a job before it is due', async () => {
      fresh();
      const s = await instance('a');
      const [later, now] = [key(), key()];
      await s.enqueue(digest(later, Date.now() + 3_600_000));
      await s.enqueue(digest(now));
      await waitFor(() => expect(runsOf(now)).toHaveLength(1));
      await s.wake();
      await s.wake();
      expect(runsOf(later)).toEqual([]);
    });

    it('retries a throwing handler with backoff, then succeeds', async () => {
      fresh();
      const s = await instance(
        'a',
        async (job) => {
          if (job.attempt < 3) throw new Error(`push service down (attempt ${job.attempt})`);
        },
        { retryLimit: 3, baseDelayMs: 20, maxDelayMs: 50 },
      );
      const k = key();
      await s.enqueue(digest(k));
      await waitFor(() => expect(runsOf(k).map((r) => r.attempt)).toEqual([1, 2, 3]));
      // The same job each time: what claimOccurrence names as its claimant.
      expect(new Set(runsOf(k).map((r) => r.id)).size).toBe(1);
      await s.wake();
      await s.wake();
      expect(runsOf(k)).toHaveLength(3);
      // Done: the key is free again.
      await waitFor(async () =>
        expect(await s.enqueue(digest(k, Date.now() + 3_600_000))).toBe(true),
      );
    });

    it('waits as long as a RetryLater asks, not the backoff', async () => {
      fresh();
      const s = await instance(
        'a',
        async (job) => {
          if (job.attempt > 1) return;
          const { userId } = job.payload as { userId: string };
          throw userId === 'later'
            ? new RetryLater(3_600_000, 'Retry-After: 3600')
            : new Error('500');
        },
        { baseDelayMs: 0, maxDelayMs: 0 },
      );
      const [later, plain] = [key(), key()];
      await s.enqueue(digest(later, Date.now(), 'later'));
      await s.enqueue(digest(plain, Date.now(), 'plain'));
      // With no backoff, a plain failure comes straight back...
      await waitFor(() => expect(runsOf(plain)).toHaveLength(2));
      await s.wake();
      await s.wake();
      // ...and the one that asked for an hour does not.
      expect(runsOf(later)).toHaveLength(1);
      expect(await s.enqueue(digest(later))).toBe(false);
    });

    it('fails a job for good when its retries run out, runs it no more, and frees its key', async () => {
      fresh();
      const s = await instance(
        'a',
        async () => {
          throw new Error('always');
        },
        { retryLimit: 2, baseDelayMs: 10, maxDelayMs: 20 },
      );
      const k = key();
      await s.enqueue(digest(k));
      await waitFor(() => expect(runsOf(k)).toHaveLength(3));
      await waitFor(async () =>
        expect(await s.enqueue(digest(k, Date.now() + 3_600_000))).toBe(true),
      );
      await s.wake();
      await s.wake();
      expect(runsOf(k).map((r) => r.attempt)).toEqual([1, 2, 3]);
    });

    it('hands each of 50 jobs to exactly one of two instances claiming at once', async () => {
      fresh();
      const handler = () => sleep(2);
      const [a, b] = await Promise.all([
        instance('a', handler, { concurrency: 4 }),
        instance('b', handler, { concurrency: 4 }),
      ]);
      const keys = Array.from({ length: 50 }, key);
      const queued = await Promise.all(keys.map((k, i) => (i % 2 ? a : b).enqueue(digest(k))));
      expect(queued.every(Boolean)).toBe(true);
      await waitFor(() => expect(new Set(runs.map((r) => r.key)).size).toBe(50));
      await Promise.all([a.wake(), b.wake()]);
      await Promise.all([a.wake(), b.wake()]);
      expect(runs).toHaveLength(50);
      expect(new Set(runs.map((r) => r.key))).toEqual(new Set(keys));
    });

    it('runs a job again when the worker that took it died mid-job', async () => {
      fresh();
      const short = { leaseMs: 300, expireInSeconds: 1, maintenanceIntervalSeconds: 1 };
      // The first instance hangs in its handler for good: as far as the queue can tell, dead.
      const hung = gate();
      const dead = await instance('dead', () => hung.promise, { ...short, baseDelayMs: 10 });
      const k = key();
      await dead.enqueue(digest(k));
      await waitFor(() => expect(runsOf(k)).toHaveLength(1));
      // Stopping takes no new job and waits for the hung one: it claims nothing more, and never
      // completes what it holds (until the test lets it go, after the other has run it).
      void dead.stop();
      await instance('alive', async () => {}, { ...short, baseDelayMs: 10 });
      await waitFor(() =>
        expect(runsOf(k).map((r) => [r.instance, r.attempt])).toEqual([
          ['dead', 1],
          ['alive', 2],
        ]),
      );
      expect(runsOf(k)[1]!.id).toBe(runsOf(k)[0]!.id);
    });

    it('keeps a job whose handler runs longer than the lease: no second run meanwhile', async () => {
      fresh();
      const short = { leaseMs: 300, expireInSeconds: 1, maintenanceIntervalSeconds: 1 };
      // A send slower than the lease (a push service slow to answer), on a live instance.
      const slow = gate();
      const first = await instance('first', () => slow.promise, { ...short, baseDelayMs: 10 });
      const k = key();
      await first.enqueue(digest(k));
      await waitFor(() => expect(runsOf(k)).toHaveLength(1));
      const other = await instance('other', async () => {}, { ...short, baseDelayMs: 10 });
      // Several leases (SQLite), or expiries and maintenance rounds (pg-boss), go by: time has
      // to pass for a lease to run out. Then both instances look for due jobs once more.
      await sleep(engine === 'sqlite' ? 1_000 : 3_500);
      await Promise.all([first.wake(), other.wake()]);
      expect(runsOf(k).map((r) => r.instance)).toEqual(['first']);
      slow.resolve();
      await first.stop();
      expect(runsOf(k)).toHaveLength(1);
    });

    it('stops after its running handlers end, taking no new job', async () => {
      fresh();
      const held = gate();
      const events: string[] = [];
      const s = await instance(
        'a',
        async () => {
          await held.promise;
          events.push('handler ended');
        },
        { concurrency: 1 },
      );
      const [first, second] = [key(), key()];
      await s.enqueue(digest(first));
      await waitFor(() => expect(runsOf(first)).toHaveLength(1));
      await s.enqueue(digest(second));
      const stopping = s.stop().then(() => events.push('stopped'));
      // Proving nothing happens within a while: the handler is still held.
      await sleep(100);
      expect(events).toEqual([]);
      held.resolve();
      await stopping;
      expect(events).toEqual(['handler ended', 'stopped']);
      expect(runsOf(second)).toEqual([]);
      await expect(s.enqueue(digest(key()))).rejects.toThrow(/stopped/);
      // Still queued: another instance runs it.
      await instance('b');
      await waitFor(() => expect(runsOf(second).map((r) => r.instance)).toEqual(['b']));
    });

    it('sends one reminder per occurrence, whatever runs the job again', async () => {
      fresh();
      const { storage } = harness;
      const user = await insertUser(storage);
      const sent: string[] = [];
      let failFirstSend = true;
      const s = await instance('a', async (job) => {
        if (job.kind !== 'reminder') return;
        const occurrence = job.payload as JobPayloads['reminder'];
        if (!(await storage.reminderDeliveries.claimOccurrence(occurrence, job.id, Date.now())))
          return;
        if (failFirstSend) {
          // The push service answered 500 after the claim: the job's own retry must still send.
          failFirstSend = false;
          throw new Error('500 from the push service');
        }
        sent.push(`${occurrence.reminderId}@${occurrence.occurrence}`);
        await storage.reminderDeliveries.markOccurrence(occurrence, 'sent', Date.now());
      });
      const appId = createId();
      await storage.apps.insert({
        id: appId,
        ownerId: user.id,
        title: 'Habits',
        description: '',
        icon: null,
        createdAt: 1,
      });
      const payload = {
        userId: user.id,
        appId,
        reminderId: createId(),
        occurrence: 1_800_000_000_000,
      };
      const k = `reminder:${payload.userId}:${payload.reminderId}:${payload.occurrence}`;
      expect(await s.enqueue({ kind: 'reminder', key: k, runAt: Date.now(), payload })).toBe(true);
      await waitFor(() => expect(sent).toHaveLength(1));
      // The sweep finds the key free once the job is done and enqueues it again; so would a
      // second instance's sweep under another key.
      await waitFor(async () =>
        expect(await s.enqueue({ kind: 'reminder', key: k, runAt: Date.now(), payload })).toBe(
          true,
        ),
      );
      await s.enqueue({ kind: 'reminder', key: `${k}:again`, runAt: Date.now(), payload });
      await waitFor(() => expect(runsOf(k).length + runsOf(`${k}:again`).length).toBe(4));
      expect(sent).toEqual([`${payload.reminderId}@${payload.occurrence}`]);
      expect(await storage.reminderDeliveries.occurrenceStatus(payload)).toBe('sent');
    });

    it('refuses bad jobs and handlers with clear errors', async () => {
      fresh();
      const s = await harness.instance({ ...harness.defaults, pgBossSchema: schema });
      opened.push(s);
      await expect(s.enqueue(digest(key()))).rejects.toThrow(/start it first/);
      s.work('digest', async () => {});
      expect(() => s.work('digest', async () => {})).toThrow(/registered already/);
      expect(() => s.work('nightly' as JobKind, async () => {})).toThrow(/Unknown job kind/);
      expect(() => s.work('reminder', async () => {}, { retryLimit: -1 })).toThrow(/retryLimit/);
      expect(() => s.work('reminder', async () => {}, { concurrency: 0 })).toThrow(/concurrency/);
      await s.start();
      expect(() => s.work('reminder', async () => {})).toThrow(/before start/);
      await expect(s.enqueue({ ...digest(key()), kind: 'nightly' as 'digest' })).rejects.toThrow(
        /Unknown job kind/,
      );
      await expect(s.enqueue(digest(''))).rejects.toThrow(/key/);
      await expect(s.enqueue(digest(key(), Number.NaN))).rejects.toThrow(/runAt/);
      await expect(
        s.enqueue({ ...digest(key()), payload: null as unknown as { userId: string } }),
      ).rejects.toThrow(/payload/);
      expect(() => new RetryLater(-1)).toThrow(/0 ms or more/);
    });
  });
}
