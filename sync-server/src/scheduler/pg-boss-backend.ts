import PgBoss from 'pg-boss';
import pg from 'pg';
import type { Logger } from '../logger';
import { PG_CONNECT_TIMEOUT_MS, PG_STATEMENT_TIMEOUT_MS } from '../storage/postgres';
import type { QueueBackend } from './polling-scheduler';
import { DEFAULT_RETRY } from './retry';
import { JOB_KINDS, type JobKind, type RetryPolicy } from './types';

export interface PgBossBackendOptions {
  connectionString: string;
  /** pg-boss's own schema, beside ours (Kysely's tables are in `public`). */
  schema?: string;
  /**
   * How long a job may stay active before pg-boss takes it back for a retry: what a killed
   * instance delays a job by. Whole seconds, at least 1 (pg-boss's unit and floor).
   */
  expireInSeconds?: number;
  /** How often an instance runs pg-boss's maintenance (expiry among it); at least 1. */
  maintenanceIntervalSeconds?: number;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

export const DEFAULT_PG_BOSS_SCHEMA = 'pgboss';
export const DEFAULT_EXPIRE_IN_SECONDS = 60;
const DEFAULT_MAINTENANCE_INTERVAL_SECONDS = 30;
const POOL_SIZE = 4;

/**
 * pg-boss 10 has no `exclusive` policy (11 brought it): its `stately` one still takes a second job
 * while the first is active, and `short` one while the first is active or retrying. This index is
 * `exclusive` made by hand, as pg-boss 11 defines it: one job per key from queued to active,
 * retries among them. pg-boss inserts with ON CONFLICT DO NOTHING, so a refused send returns null.
 * Made on the partitioned `job` table, PostgreSQL puts it on every queue's partition, the ones
 * created later included.
 */
const exclusiveIndexSql = (schema: string) =>
  `CREATE UNIQUE INDEX IF NOT EXISTS pipit_exclusive_key ON ${schema}.job (name, singleton_key)
   WHERE state <= 'active' AND singleton_key IS NOT NULL`;

/**
 * PostgreSQL's queue: pg-boss, driven through fetch/complete/fail rather than its `work` loop. In
 * 10.x `work` completes and fails jobs without awaiting (a database error there is an unhandled
 * rejection), runs a batch as one outcome, and has no way to ask for a retry's delay; the loop
 * of PollingScheduler does all three, the same on both engines.
 */
export function createPgBossBackend(options: PgBossBackendOptions): QueueBackend {
  const schema = options.schema ?? DEFAULT_PG_BOSS_SCHEMA;
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new TypeError(
      `The pg-boss schema is a plain lower-case SQL name; got ${JSON.stringify(schema)}.`,
    );
  }
  const expireInSeconds = options.expireInSeconds ?? DEFAULT_EXPIRE_IN_SECONDS;
  const maintenanceIntervalSeconds =
    options.maintenanceIntervalSeconds ?? DEFAULT_MAINTENANCE_INTERVAL_SECONDS;
  for (const [name, value] of Object.entries({ expireInSeconds, maintenanceIntervalSeconds })) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `${name} is a whole number of seconds, at least 1; got ${String(value)}.`,
      );
    }
  }
  let pool: pg.Pool | undefined;
  let boss: PgBoss | undefined;
  const started = () => {
    if (!boss || !pool) throw new Error('The pg-boss queue is not open.');
    return { boss, pool };
  };

  /** pg-boss's statements and ours in one transaction, through its `db` option. */
  const inTransaction = async (work: (db: PgBoss.Db) => Promise<void>) => {
    const client = await started().pool.connect();
    try {
      await client.query('BEGIN');
      await work({ executeSql: (text, values) => client.query(text, values) });
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  return {
    engine: 'postgres',
    leaseMs: expireInSeconds * 1000,
    async open(policies) {
      pool = newPool(options);
      try {
        boss = new PgBoss({
          db: { executeSql: (text, values) => started().pool.query(text, values) },
          schema,
          // No cron (we do not use it): its timekeeper would be one more loop per instance.
          schedule: false,
          supervise: true,
          maintenanceIntervalSeconds,
        });
        boss.on('error', (error) =>
          options.logger?.warn({ err: error }, 'pg-boss reported an error'),
        );
        const ready = boss;
        // pg-boss 10 creates a queue's partition without a lock of its own: instances starting
        // together deadlock on it (the contract suite did). They take turns here instead.
        await takingTurns(started().pool, async () => {
          await ready.start();
          for (const kind of JOB_KINDS) {
            await openQueue(ready, kind, policies.get(kind), expireInSeconds);
          }
          await started().pool.query(exclusiveIndexSql(schema));
        });
      } catch (error) {
        await closeQuietly();
        throw error;
      }
    },
    async enqueue(kind, key, runAt, payload) {
      const id = await started().boss.send(kind, payload, {
        singletonKey: key,
        startAfter: new Date(runAt),
      });
      return id !== null;
    },
    async claim(kind, limit) {
      const jobs = await started().boss.fetch<object>(kind, {
        batchSize: limit,
        includeMetadata: true,
      });
      return jobs.map((job) => ({
        id: job.id,
        kind,
        key: job.singletonKey ?? '',
        payload: job.data,
        attempt: job.retryCount + 1,
      }));
    },
    async extend(job) {
      // pg-boss expires an active job once started_on + expire_in has passed: moving started_on
      // is its heartbeat (pg-boss 10 has none of its own).
      const result = await started().pool.query(
        `UPDATE ${schema}.job SET started_on = now() WHERE name = $1 AND id = $2 AND state = 'active'`,
        [job.kind, job.id],
      );
      return result.rowCount === 1;
    },
    async complete(job) {
      await started().boss.complete(job.kind, job.id);
    },
    async retry(job, delayMs, error) {
      // pg-boss's fail computes the next start from the queue's delay and backoff; the delay we
      // chose (our backoff's cap, or RetryLater's) replaces it in the same transaction.
      await inTransaction(async (db) => {
        await started().boss.fail(job.kind, job.id, { message: error }, { db });
        await db.executeSql(
          `UPDATE ${schema}.job SET start_after = now() + $3 * interval '1 millisecond'
           WHERE name = $1 AND id = $2 AND state = 'retry'`,
          [job.kind, job.id, delayMs],
        );
      });
    },
    async fail(job, error) {
      // For good whatever the job's retry limit says: the limit that decided is the handler's.
      await inTransaction(async (db) => {
        await db.executeSql(
          `UPDATE ${schema}.job SET retry_limit = retry_count WHERE name = $1 AND id = $2 AND state = 'active'`,
          [job.kind, job.id],
        );
        await started().boss.fail(job.kind, job.id, { message: error }, { db });
      });
    },
    close: closeQuietly,
  };

  async function closeQuietly(): Promise<void> {
    const [b, p] = [boss, pool];
    boss = undefined;
    pool = undefined;
    // graceful: false, because no pg-boss worker runs (PollingScheduler has waited for its own).
    await b?.stop({ graceful: false, close: false }).catch(() => undefined);
    await p?.end().catch(() => undefined);
  }
}

async function openQueue(
  boss: PgBoss,
  kind: JobKind,
  policy: RetryPolicy | undefined,
  expireInSeconds: number,
): Promise<void> {
  const { retryLimit, baseDelayMs } = policy ?? DEFAULT_RETRY;
  // These are the defaults of the jobs sent from now on. The retry delay here only serves a job
  // that expired (its worker killed): a handler's failure sets its own delay (see retry).
  const settings: PgBoss.Queue = {
    name: kind,
    policy: 'standard',
    retryLimit,
    retryDelay: Math.max(1, Math.round(baseDelayMs / 1000)),
    retryBackoff: true,
    expireInSeconds,
  };
  await boss.createQueue(kind, settings);
  // createQueue leaves an existing queue as it was: the settings of this start are applied.
  if (policy) await boss.updateQueue(kind, settings);
}

/** Runs `work` while this connection holds a lock every instance's start asks for. */
async function takingTurns(pool: pg.Pool, work: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('pipit_scheduler_start'))`);
    try {
      await work();
    } finally {
      await client
        .query(`SELECT pg_advisory_unlock(hashtext('pipit_scheduler_start'))`)
        .catch(() => {
          // Ending the session is what lets the lock go then.
          broken = true;
        });
    }
  } finally {
    client.release(broken);
  }
}

function newPool(options: PgBossBackendOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: POOL_SIZE,
    application_name: 'pipit-scheduler',
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    statement_timeout: PG_STATEMENT_TIMEOUT_MS,
    query_timeout: PG_STATEMENT_TIMEOUT_MS + 5_000,
    keepAlive: true,
  });
  // As storage's pools: a broken idle connection is replaced, reported, and never ends the process.
  pool.on('error', (error) =>
    options.logger?.warn({ err: { message: error.message } }, 'a scheduler connection failed'),
  );
  pool.on('connect', (client) =>
    client.on('error', (error) =>
      options.logger?.warn({ err: { message: error.message } }, 'a scheduler connection failed'),
    ),
  );
  return pool;
}
