/**
 * The kinds of job and what each carries. A new kind is a new entry here (and its pg-boss queue is
 * created at start-up from JOB_KINDS): the compiler then asks every `work` and `enqueue` of it for
 * the right payload.
 */
export interface JobPayloads {
  /** One occurrence of one person's reminder; `occurrence` is the UTC epoch ms it is due. */
  reminder: { userId: string; appId: string; reminderId: string; occurrence: number };
  /** One person's digest. */
  digest: { userId: string };
  /**
   * One recipient's batch of a space's activity: what others added and completed there in the
   * window ending at `windowEnd` (UTC epoch ms), and anything older still waiting.
   */
  activity: { spaceId: string; userId: string; windowEnd: number };
  /** One scheduled backup (BACKUP_SCHEDULE); `at` is the UTC epoch ms it is due. */
  backup: { at: number };
}

export type JobKind = keyof JobPayloads;

export const JOB_KINDS: readonly JobKind[] = ['reminder', 'digest', 'activity', 'backup'];

export interface JobRequest<K extends JobKind> {
  kind: K;
  /**
   * Names the job: while one with this key is queued or running, another is refused. Once it is
   * done or failed, the key may be enqueued again.
   */
  key: string;
  /** When it is due, UTC epoch ms; a time in the past means now. */
  runAt: number;
  payload: JobPayloads[K];
}

export interface Job<K extends JobKind> {
  /** The same across the job's retries: what `claimOccurrence` names as the claimant. */
  id: string;
  kind: K;
  key: string;
  payload: JobPayloads[K];
  /** 1 on the first run, 2 on the first retry, and so on. */
  attempt: number;
}

export type JobHandler<K extends JobKind> = (job: Job<K>) => Promise<void>;

export interface RetryPolicy {
  /** Runs after the first; a job that fails once more than this is failed for good. */
  retryLimit: number;
  /** The first retry's delay; each next one doubles, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface WorkOptions extends Partial<RetryPolicy> {
  /** Jobs of this kind this instance runs at once. */
  concurrency?: number;
}

/**
 * Jobs in the database, run by whichever instance claims them first
 * (docs/decisions/0012-web-push-and-scheduler.md). A job runs at least once: a handler that
 * throws is retried, and a worker that dies mid-job has the job run again once its lease (SQLite)
 * or expiry (pg-boss) passes. What must happen once is the handler's to guard, with a unique key
 * of its own (reminder_deliveries).
 */
export interface Scheduler {
  readonly engine: 'sqlite' | 'postgres';
  /** Queues a job, once `start` has resolved; false when one with the same key is queued or running. */
  enqueue<K extends JobKind>(job: JobRequest<K>): Promise<boolean>;
  /**
   * Runs due jobs of `kind` on this instance with `handler` once started; registered before
   * `start`, one handler per kind. A throw is retried with exponential backoff and jitter, capped, up to the retry
   * limit; a `RetryLater` thrown asks for its own delay (a push service's Retry-After).
   */
  work<K extends JobKind>(kind: K, handler: JobHandler<K>, options?: WorkOptions): void;
  /** Starts claiming (and on PostgreSQL, creates or migrates pg-boss's schema and queues). */
  start(): Promise<void>;
  /** Takes no new jobs and resolves once the running handlers have ended. */
  stop(): Promise<void>;
  /**
   * Looks for due jobs now instead of at the next poll. Resolves once the claim round that starts
   * after the call has ended (its jobs handed to their handlers, not finished), so a test can
   * tell "claimed nothing" from "not looked yet".
   */
  wake(): Promise<void>;
}

/**
 * Thrown by a handler to be retried after `delayMs` rather than the backoff's delay; the retry
 * still counts against the retry limit.
 */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    message = `retry in ${delayMs} ms`,
    options?: ErrorOptions,
  ) {
    super(message, options);
    if (!Number.isFinite(delayMs) || delayMs < 0) {
      throw new RangeError(`RetryLater needs a delay of 0 ms or more; got ${String(delayMs)}.`);
    }
    this.name = 'RetryLater';
  }
}
