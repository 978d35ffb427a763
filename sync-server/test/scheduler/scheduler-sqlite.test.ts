import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createId } from '@pipit/protocol';
import { openScheduler } from '../../src/scheduler/open-scheduler';
import type { Scheduler } from '../../src/scheduler/types';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { testClock } from '../support/clock';
import { describeSchedulerContract } from './scheduler-contract';

describeSchedulerContract('sqlite');

describe('sqlite scheduler on the test clock', () => {
  let dir: string;
  let storage: Storage;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pipit-scheduler-clock-'));
    storage = await openSqliteStorage(dir);
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a job when the clock reaches it, and a killed worker’s job once its lease has passed', async () => {
    const clock = testClock();
    const runs: Array<{ key: string; attempt: number }> = [];
    const scheduler: Scheduler = openScheduler({
      storage,
      config: { databaseUrl: undefined },
      clock,
      pollIntervalMs: 60_000,
      leaseMs: 60_000,
    });
    scheduler.work('digest', async (job) => {
      runs.push({ key: job.key, attempt: job.attempt });
    });
    await scheduler.start();
    try {
      const [killed, due] = [`test:${createId()}`, `test:${createId()}`];
      const hour = 3_600_000;
      // `killed` is due first, so the killed worker's claim of one job takes it.
      await scheduler.enqueue({
        kind: 'digest',
        key: killed,
        runAt: clock.now() + hour,
        payload: { userId: 'u' },
      });
      await scheduler.enqueue({
        kind: 'digest',
        key: due,
        runAt: clock.now() + hour + 500,
        payload: { userId: 'u' },
      });
      await scheduler.wake();
      expect(runs).toEqual([]);
      await clock.later(hour + 1_000, async () => {
        // A worker claims `killed` and dies: its lease stays, and nothing completes it.
        const taken = await storage.jobs.claim('digest', 1, 'killed-worker', clock.now(), 60_000);
        expect(taken.map((job) => job.key)).toEqual([killed]);
        await scheduler.wake();
      });
      await vi.waitFor(() => expect(runs).toEqual([{ key: due, attempt: 1 }]));
      await clock.later(hour + 30_000, () => scheduler.wake());
      expect(runs).toHaveLength(1);
      await clock.later(hour + 62_000, () => scheduler.wake());
      await vi.waitFor(() =>
        expect(runs).toEqual([
          { key: due, attempt: 1 },
          { key: killed, attempt: 2 },
        ]),
      );
      await vi.waitFor(async () => expect((await storage.jobs.get(killed))?.doneAt).not.toBeNull());
    } finally {
      await scheduler.stop();
    }
  });
});
