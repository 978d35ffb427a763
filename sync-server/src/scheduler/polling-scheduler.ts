import type { Logger } from '../logger';
import { backoffDelay, errorText, retryPolicy } from './retry';
import {
  JOB_KINDS,
  type Job,
  type JobHandler,
  type JobKind,
  type JobPayloads,
  type JobRequest,
  RetryLater,
  type RetryPolicy,
  type Scheduler,
  type WorkOptions,
} from './types';

/** A job as a queue hands it to this instance: `attempt` counts from 1. */
export interface ClaimedJob {
  id: string;
  kind: JobKind;
  key: string;
  payload: unknown;
  attempt: number;
}

/**
 * What differs between the engines: where jobs are kept and how one is claimed. The loop, the
 * retry decisions and stopping are the same code on both, so the contract suite holds one
 * behaviour.
 */
export interface QueueBackend {
  readonly engine: 'sqlite' | 'postgres';
  /** How long a claim holds a job unless extended: SQLite's lease, pg-boss's expiry. */
  readonly leaseMs: number;
  /** Prepares the queues (their retry limits from `policies`) before anything is claimed. */
  open(policies: ReadonlyMap<JobKind, RetryPolicy>): Promise<void>;
  enqueue(kind: JobKind, key: string, runAt: number, payload: object): Promise<boolean>;
  claim(kind: JobKind, limit: number): Promise<ClaimedJob[]>;
  /** Holds a claimed job for another lease from now; false when this instance lost it. */
  extend(job: ClaimedJob): Promise<boolean>;
  complete(job: ClaimedJob): Promise<void>;
  /** Queues the job again to run after `delayMs`, counting the attempt that failed. */
  retry(job: ClaimedJob, delayMs: number, error: string): Promise<void>;
  /** Fails the job for good: it runs no more and gives its key up. */
  fail(job: ClaimedJob, error: string): Promise<void>;
  close(): Promise<void>;
}

export interface PollingOptions {
  /** How often each instance looks for due jobs when nothing wakes it. */
  pollIntervalMs?: number;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

interface Worker {
  kind: JobKind;
  handler: JobHandler<JobKind>;
  policy: RetryPolicy;
  concurrency: number;
  running: number;
}

export const DEFAULT_POLL_INTERVAL_MS = 2_000;
/**
 * A running handler's lease is renewed for at most this many leases: a send slower than one lease
 * is not taken by another worker meanwhile, and a handler that never returns (stuck, as good as
 * dead) still gives its job up.
 */
export const MAX_LEASES_PER_RUN = 5;
const DEFAULT_CONCURRENCY = 4;
const MAX_KEY_LENGTH = 500;

type State = 'new' | 'starting' | 'started' | 'stopping' | 'stopped';

/** The one scheduler loop over either engine's queue (see QueueBackend). */
export class PollingScheduler implements Scheduler {
  readonly engine: 'sqlite' | 'postgres';
  private readonly workers = new Map<JobKind, Worker>();
  private readonly handling = new Set<Promise<void>>();
  private readonly pollIntervalMs: number;
  private state: State = 'new';
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private loopDone: Promise<void> | undefined;
  private woken = false;
  private interruptSleep: (() => void) | undefined;
  /** Callers of `wake` waiting for the claim round that starts after their call to end. */
  private waiting: Array<() => void> = [];

  constructor(
    private readonly backend: QueueBackend,
    private readonly options: PollingOptions = {},
  ) {
    this.engine = backend.engine;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    if (!Number.isFinite(this.pollIntervalMs) || this.pollIntervalMs <= 0) {
      throw new RangeError(
        `pollIntervalMs must be above 0; got ${String(options.pollIntervalMs)}.`,
      );
    }
  }

  async enqueue<K extends JobKind>(job: JobRequest<K>): Promise<boolean> {
    if (this.state !== 'started') {
      throw new Error(`The scheduler cannot enqueue while it is ${this.state}: start it first.`);
    }
    checkRequest(job);
    const queued = await this.backend.enqueue(job.kind, job.key, job.runAt, job.payload);
    // A job due now need not wait for the next poll.
    if (queued && this.workers.has(job.kind)) this.nudge();
    return queued;
  }

  work<K extends JobKind>(kind: K, handler: JobHandler<K>, options: WorkOptions = {}): void {
    if (!JOB_KINDS.includes(kind)) throw new TypeError(`Unknown job kind ${JSON.stringify(kind)}.`);
    if (typeof handler !== 'function')
      throw new TypeError(`The ${kind} handler is not a function.`);
    if (this.state !== 'new') {
      throw new Error(`Handlers are registered before start(); the scheduler is ${this.state}.`);
    }
    if (this.workers.has(kind)) throw new Error(`A ${kind} handler is registered already.`);
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
      throw new RangeError(
        `concurrency must be a whole number of 1 or more; got ${String(concurrency)}.`,
      );
    }
    this.workers.set(kind, {
      kind,
      handler: handler as JobHandler<JobKind>,
      policy: retryPolicy(options),
      concurrency,
      running: 0,
    });
  }

  start(): Promise<void> {
    if (this.state === 'stopping' || this.state === 'stopped') {
      return Promise.reject(new Error('A stopped scheduler does not start again: open another.'));
    }
    // A start that failed (the database down) is not remembered: the next call tries again.
    this.starting ??= this.open().catch((error: unknown) => {
      this.starting = undefined;
      this.state = 'new';
      throw error;
    });
    return this.starting;
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  wake(): Promise<void> {
    if (this.state !== 'started') return Promise.resolve();
    const round = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.nudge();
    return round;
  }

  private async open(): Promise<void> {
    this.state = 'starting';
    const policies = new Map([...this.workers].map(([kind, w]) => [kind, w.policy]));
    await this.backend.open(policies);
    this.state = 'started';
    if (this.workers.size > 0) this.loopDone = this.loop();
  }

  private async shutDown(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    this.state = 'stopping';
    this.nudge();
    await this.loopDone;
    // Handlers that run are let finish; their completions are written before the queue closes.
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
    for (const resolve of this.waiting.splice(0)) resolve();
    await this.backend.close();
    this.state = 'stopped';
  }

  private nudge(): void {
    this.woken = true;
    this.interruptSleep?.();
  }

  private async loop(): Promise<void> {
    while (this.state === 'started') {
      this.woken = false;
      const waiters = this.waiting.splice(0);
      try {
        await this.claimRound();
      } catch (error) {
        // The next round asks the database again: nothing of a failed round is kept.
        this.options.logger?.warn({ err: error }, 'claiming scheduled jobs failed');
      }
      for (const resolve of waiters) resolve();
      if (this.state === 'started' && !this.woken) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.interruptSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.pollIntervalMs);
      this.interruptSleep = done;
    });
  }

  private async claimRound(): Promise<void> {
    for (const worker of this.workers.values()) {
      const free = worker.concurrency - worker.running;
      if (free <= 0 || this.state !== 'started') continue;
      const jobs = await this.backend.claim(worker.kind, free);
      for (const job of jobs) this.track(this.handle(worker, job));
    }
  }

  private track(handling: Promise<void>): void {
    this.handling.add(handling);
    void handling.finally(() => this.handling.delete(handling));
  }

  private async handle(worker: Worker, job: ClaimedJob): Promise<void> {
    worker.running += 1;
    try {
      await this.run(worker, job);
    } catch (error) {
      // Recording the outcome failed (the database away): the job is still leased or active, so
      // its lease or expiry brings it back. It runs again rather than never.
      this.options.logger?.error(
        { err: error, job: job.id, kind: job.kind },
        'recording a job failed',
      );
    } finally {
      worker.running -= 1;
      // A slot is free: look for the next due job now rather than at the next poll.
      if (this.state === 'started') this.nudge();
    }
  }

  private keepLeased(job: ClaimedJob): () => void {
    return heartbeatOf(this.backend, job, this.options.logger);
  }

  private async run(worker: Worker, job: ClaimedJob): Promise<void> {
    if (job.attempt > worker.policy.retryLimit + 1) {
      // Claimed again after a lease ran out more often than the retries allow (a job that kills
      // its worker): it is not run once more.
      await this.backend.fail(
        job,
        `gave up after ${job.attempt - 1} attempts whose worker stopped`,
      );
      return;
    }
    let outcome: unknown;
    const heartbeat = this.keepLeased(job);
    try {
      await worker.handler({
        id: job.id,
        kind: job.kind,
        key: job.key,
        payload: job.payload as JobPayloads[JobKind],
        attempt: job.attempt,
      } satisfies Job<JobKind>);
      heartbeat();
      await this.backend.complete(job);
      return;
    } catch (error) {
      outcome = error;
    } finally {
      heartbeat();
    }
    const reason = errorText(outcome);
    if (job.attempt > worker.policy.retryLimit) {
      this.options.logger?.warn({ job: job.id, kind: job.kind, reason }, 'a job failed for good');
      await this.backend.fail(job, reason);
      return;
    }
    const delayMs =
      outcome instanceof RetryLater ? outcome.delayMs : backoffDelay(worker.policy, job.attempt);
    await this.backend.retry(job, delayMs, reason);
  }
}

/**
 * Renews the job's lease every third of a lease while its handler runs, up to MAX_LEASES_PER_RUN
 * leases; returns what stops it. Without it a send slower than the lease (a push service slow to
 * answer) is claimed again by another worker, or by this one, and sent twice.
 */
function heartbeatOf(
  backend: QueueBackend,
  job: ClaimedJob,
  logger: PollingOptions['logger'],
): () => void {
  const until = Date.now() + backend.leaseMs * MAX_LEASES_PER_RUN;
  const timer = setInterval(
    () => {
      if (Date.now() >= until) {
        clearInterval(timer);
        return;
      }
      backend.extend(job).then(
        (held) => {
          if (!held) clearInterval(timer);
        },
        (error: unknown) =>
          logger?.warn({ err: error, job: job.id, kind: job.kind }, 'renewing a job lease failed'),
      );
    },
    Math.max(1, Math.floor(backend.leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

function checkRequest(job: JobRequest<JobKind>): void {
  if (typeof job !== 'object' || job === null) throw new TypeError('A job is an object.');
  if (!JOB_KINDS.includes(job.kind)) {
    throw new TypeError(
      `Unknown job kind ${JSON.stringify(job.kind)}; the kinds are ${JOB_KINDS.join(', ')}.`,
    );
  }
  if (typeof job.key !== 'string' || job.key === '' || job.key.length > MAX_KEY_LENGTH) {
    throw new TypeError(`A job key is a non-empty string of at most ${MAX_KEY_LENGTH} characters.`);
  }
  if (!Number.isFinite(job.runAt)) {
    throw new TypeError(`A job's runAt is UTC epoch milliseconds; got ${String(job.runAt)}.`);
  }
  if (typeof job.payload !== 'object' || job.payload === null || Array.isArray(job.payload)) {
    throw new TypeError(`A ${job.kind} job's payload is an object.`);
  }
}
