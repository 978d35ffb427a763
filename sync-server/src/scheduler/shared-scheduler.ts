import type { JobHandler, JobKind, Scheduler, WorkOptions } from './types';

/**
 * The one scheduler of a server, shared by every kind of job (reminders, space activity, email
 * digests). One queue per server, not one per feature: on PostgreSQL each scheduler is a pg-boss
 * with its own connections and maintenance, so two features would double the idle work.
 *
 * It is opened and started on first use, so an instance with nothing to schedule runs no queue.
 * Every kind registers its handler with `work` when its module is built, before anything can
 * start the queue. A failed start is not kept: the next `started()` tries again.
 */
export interface SharedScheduler {
  /** Registers a kind's handler; only before the first `started()`. */
  work<K extends JobKind>(kind: K, handler: JobHandler<K>, options?: WorkOptions): void;
  /** The scheduler, started. */
  started(): Promise<Scheduler>;
  /** Stops it if it was started; waits for the handlers that run. */
  stop(): Promise<void>;
}

export function createSharedScheduler(open: () => Scheduler): SharedScheduler {
  const registrations: Array<(scheduler: Scheduler) => void> = [];
  let scheduler: Scheduler | undefined;
  let starting: Promise<Scheduler> | undefined;
  let stopped = false;

  return {
    work(kind, handler, options) {
      if (scheduler) throw new Error(`the ${kind} jobs' handler came after the scheduler opened`);
      registrations.push((s) => s.work(kind, handler, options));
    },
    started() {
      if (stopped) return Promise.reject(new Error('the scheduler was stopped'));
      starting ??= (async () => {
        if (!scheduler) {
          const opened = open();
          for (const register of registrations) register(opened);
          scheduler = opened;
        }
        await scheduler.start();
        return scheduler;
      })().catch((error: unknown) => {
        starting = undefined;
        throw error;
      });
      return starting;
    },
    async stop() {
      stopped = true;
      if (!starting) return;
      await starting.then(
        (s) => s.stop(),
        () => undefined,
      );
    },
  };
}
