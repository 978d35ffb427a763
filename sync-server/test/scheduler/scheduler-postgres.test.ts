import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openScheduler } from '../../src/scheduler/open-scheduler';
import { openPostgresStorage } from '../../src/storage/postgres';
import type { Storage } from '../../src/storage/types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/postgres';
import { describeSchedulerContract } from './scheduler-contract';

describeSchedulerContract('postgres');

describe('postgres scheduler (pg-boss)', () => {
  let database: TestDatabase;
  let storage: Storage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openPostgresStorage(database.url);
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
  });

  it('tries a failed start again rather than keeping its failure', async () => {
    // A database that does not exist yet: the first start fails, the second finds it.
    const name = `pipit_test_${randomBytes(6).toString('hex')}`;
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    const scheduler = openScheduler({
      storage,
      config: { databaseUrl: url.toString() },
      pgBossSchema: 'pgboss',
    });
    scheduler.work('digest', async () => {});
    await expect(scheduler.start()).rejects.toThrow(/does not exist/);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      await scheduler.start();
      expect(
        await scheduler.enqueue({
          kind: 'digest',
          key: 'k',
          runAt: Date.now() + 60_000,
          payload: { userId: 'u' },
        }),
      ).toBe(true);
      await scheduler.stop();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('keeps pg-boss in its own schema beside our migrations, shared by instances starting together', async () => {
    const schedulers = [1, 2, 3].map(() =>
      openScheduler({ storage, config: { databaseUrl: database.url } }),
    );
    await Promise.all(schedulers.map((s) => s.start()));
    try {
      const pool = new pg.Pool({ connectionString: database.url });
      try {
        const { rows } = await pool.query<{ schemaname: string; tablename: string }>(
          `SELECT schemaname, tablename FROM pg_tables WHERE tablename IN ('job', 'queue', 'jobs', 'reminder_deliveries') ORDER BY 1, 2`,
        );
        expect(rows).toEqual([
          { schemaname: 'pgboss', tablename: 'job' },
          { schemaname: 'pgboss', tablename: 'queue' },
          { schemaname: 'public', tablename: 'jobs' },
          { schemaname: 'public', tablename: 'reminder_deliveries' },
        ]);
      } finally {
        await pool.end();
      }
      // One queue, whichever instance enqueues: the key is refused across instances.
      const job = {
        kind: 'digest' as const,
        key: 'shared',
        runAt: Date.now() + 60_000,
        payload: { userId: 'u' },
      };
      expect(await schedulers[0]!.enqueue(job)).toBe(true);
      expect(await schedulers[1]!.enqueue(job)).toBe(false);
      expect(await schedulers[2]!.enqueue(job)).toBe(false);
    } finally {
      await Promise.all(schedulers.map((s) => s.stop()));
    }
  });
});
