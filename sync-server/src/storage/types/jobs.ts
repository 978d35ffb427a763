/** A row of the in-process scheduler's queue (sync-server/src/scheduler/table-backend.ts). */
export interface JobRecord {
  id: string;
  kind: string;
  key: string;
  /** JSON text, as the scheduler wrote it. */
  payload: string;
  runAt: number;
  /** Claims so far, this one included once claimed: a lease that expired counts as an attempt. */
  attempts: number;
  leaseUntil: number | null;
  leasedBy: string | null;
  lastError: string | null;
  doneAt: number | null;
  failedAt: number | null;
}

export interface NewJob {
  id: string;
  kind: string;
  key: string;
  payload: string;
  runAt: number;
}

/**
 * The queue under the in-process scheduler. A key is held while its job is queued or running;
 * once the job is done or failed, enqueuing the key again starts it afresh. Every write that
 * follows a claim names the worker that claimed, and does nothing when another worker has taken
 * the job since (its lease expired).
 */
export interface JobStore {
  /** Queues a job; false, changing nothing, while a job with the same key is queued or running. */
  enqueue(job: NewJob): Promise<boolean>;
  /**
   * Leases up to `limit` due jobs of `kind` to `worker` until `now + leaseMs`, counting an
   * attempt on each, in one statement: two workers never receive the same job while its lease
   * runs.
   */
  claim(
    kind: string,
    limit: number,
    worker: string,
    now: number,
    leaseMs: number,
  ): Promise<JobRecord[]>;
  /**
   * Moves a claimed job's lease to `leaseUntil` while its handler still runs (the heartbeat);
   * false when `worker` no longer holds it or it has ended.
   */
  extendLease(id: string, worker: string, leaseUntil: number): Promise<boolean>;
  /** Marks a claimed job done; false when `worker` no longer holds it. */
  complete(id: string, worker: string, now: number): Promise<boolean>;
  /** Releases a claimed job to run again at `runAt`; false when `worker` no longer holds it. */
  retry(id: string, worker: string, runAt: number, error: string): Promise<boolean>;
  /** Marks a claimed job failed for good; false when `worker` no longer holds it. */
  fail(id: string, worker: string, now: number, error: string): Promise<boolean>;
  /** The job now holding `key`, or the last one that did; null when none ever did. */
  get(key: string): Promise<JobRecord | null>;
  /** Removes jobs done or failed before `before`; how many. */
  prune(before: number): Promise<number>;
}
