import { createId } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { JobStore } from '../storage/types';
import type { ClaimedJob, QueueBackend } from './polling-scheduler';
import { JOB_KINDS, type JobKind } from './types';

export interface TableBackendOptions {
  jobs: JobStore;
  clock: Clock;
  /** How long a claim holds a job; a worker killed mid-job delays it by at most this. */
  leaseMs?: number;
  /** Names this instance's leases; a fresh one by default. */
  workerId?: string;
}

/** A minute, as docs/decisions/0012-web-push-and-scheduler.md says: a push send takes seconds. */
export const DEFAULT_LEASE_MS = 60_000;
/** Finished jobs are kept this long (for looking into), then pruned. */
const KEEP_FINISHED_MS = 7 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The in-process queue over the `jobs` table (SQLite): claims are one UPDATE … RETURNING with a
 * lease, and SQLite runs one writer at a time, so two claims never take the same row.
 */
export function createTableBackend(options: TableBackendOptions): QueueBackend {
  const { jobs, clock } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) {
    throw new RangeError(`leaseMs must be above 0; got ${String(options.leaseMs)}.`);
  }
  const worker = options.workerId ?? `worker-${createId()}`;
  let prunedAt = -Infinity;

  const check = (written: boolean, job: ClaimedJob, what: string) => {
    if (!written) {
      // Its lease ran out and another worker took it: that run decides, this one is void.
      throw new Error(`job ${job.id} (${job.kind}) was taken by another worker before ${what}`);
    }
  };

  return {
    engine: 'sqlite',
    leaseMs,
    async open() {},
    enqueue(kind, key, runAt, payload) {
      return jobs.enqueue({ id: createId(), kind, key, runAt, payload: JSON.stringify(payload) });
    },
    async claim(kind, limit) {
      const now = clock.now();
      if (now - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = now;
        await jobs.prune(now - KEEP_FINISHED_MS);
      }
      const rows = await jobs.claim(kind, limit, worker, now, leaseMs);
      return rows.map((row) => {
        if (!(JOB_KINDS as readonly string[]).includes(row.kind)) {
          throw new Error(`job ${row.id} has an unknown kind ${JSON.stringify(row.kind)}`);
        }
        return {
          id: row.id,
          kind: row.kind as JobKind,
          key: row.key,
          payload: JSON.parse(row.payload) as unknown,
          attempt: row.attempts,
        };
      });
    },
    async extend(job) {
      return jobs.extendLease(job.id, worker, clock.now() + leaseMs);
    },
    async complete(job) {
      check(await jobs.complete(job.id, worker, clock.now()), job, 'it completed');
    },
    async retry(job, delayMs, error) {
      check(await jobs.retry(job.id, worker, clock.now() + delayMs, error), job, 'its retry');
    },
    async fail(job, error) {
      check(await jobs.fail(job.id, worker, clock.now(), error), job, 'it failed');
    },
    async close() {},
  };
}
