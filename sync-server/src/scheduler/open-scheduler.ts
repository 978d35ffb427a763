import { type Clock, systemClock } from '../accounts/clock';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Storage } from '../storage/types';
import { createPgBossBackend } from './pg-boss-backend';
import { PollingScheduler } from './polling-scheduler';
import { createTableBackend } from './table-backend';
import type { Scheduler } from './types';

export interface SchedulerOptions {
  /** The storage the server opened: its `jobs` table is SQLite's queue. */
  storage: Storage;
  config: Pick<Config, 'databaseUrl'>;
  logger?: Pick<Logger, 'warn' | 'error'>;
  /** Time for SQLite's due times and leases (PostgreSQL's are the database's). */
  clock?: Clock;
  pollIntervalMs?: number;
  /** SQLite: how long a claim holds a job. */
  leaseMs?: number;
  /** PostgreSQL: how long a job may stay active before pg-boss retries it (whole seconds). */
  expireInSeconds?: number;
  /** PostgreSQL: how often pg-boss's maintenance looks for expired jobs (whole seconds). */
  maintenanceIntervalSeconds?: number;
  /** PostgreSQL: pg-boss's schema; tests give each instance group its own. */
  pgBossSchema?: string;
}

/**
 * The scheduler on the engine storage runs on (open-storage.ts): pg-boss when DATABASE_URL is
 * set, the `jobs` table otherwise. Nothing touches the database until `start`.
 */
export function openScheduler(options: SchedulerOptions): Scheduler {
  const { storage, config, logger } = options;
  if (config.databaseUrl) {
    if (storage.engine !== 'postgres') {
      throw new Error(
        'DATABASE_URL is set but storage is not PostgreSQL: open storage with the same config.',
      );
    }
    return new PollingScheduler(
      createPgBossBackend({
        connectionString: config.databaseUrl,
        schema: options.pgBossSchema,
        expireInSeconds: options.expireInSeconds,
        maintenanceIntervalSeconds: options.maintenanceIntervalSeconds,
        logger,
      }),
      { pollIntervalMs: options.pollIntervalMs, logger },
    );
  }
  if (storage.engine !== 'sqlite') {
    throw new Error(
      'Storage is PostgreSQL but DATABASE_URL is not set: open storage with the same config.',
    );
  }
  return new PollingScheduler(
    createTableBackend({
      jobs: storage.jobs,
      clock: options.clock ?? systemClock,
      leaseMs: options.leaseMs,
    }),
    { pollIntervalMs: options.pollIntervalMs, logger },
  );
}
