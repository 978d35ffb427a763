import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import cronParser from 'cron-parser';
import { createId } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { BackupConfig } from '../config';
import type { Logger } from '../logger';
import type { Job, SharedScheduler } from '../scheduler';
import { openSqliteStorage } from '../storage/sqlite';
import type { BackupRun, Storage } from '../storage/types';
import { writeBackup } from './backup';
import { BACKUP_EXTENSION, BackupError, BackupInProgressError } from './format';
import { restoreBackup } from './restore';
import type { BackupSource } from './sources';
import { openSqliteTarget } from './targets';

/**
 * Backups on a schedule (BACKUP_SCHEDULE, docs/operations.md#scheduled-backups). Each due time is
 * one `backup` job in the server's queue, keyed by that time, so every instance may queue it and
 * one makes it; the source's lock (backup/sources.ts) keeps a backup by hand from running beside
 * it. Each run writes atomically into BACKUP_DIR, proves the file by restoring it into a scratch
 * database (BACKUP_DRILL), keeps the newest BACKUP_KEEP, records what happened in `backup_runs`,
 * and queues the next due time. A run never throws to the queue: a failed backup is recorded and
 * logged, and the next one is still due (retrying at once would fail the same way).
 */
export interface ScheduledBackups {
  /**
   * Queues the next due time (every instance does at start, and every 10 minutes after: the key
   * makes it one job). False when it was queued already, or no schedule is set.
   */
  resume(): Promise<boolean>;
  /** The queue's handler for `backup` jobs. */
  run(job: Job<'backup'>): Promise<void>;
  /** Stops queuing due times (a running backup is the queue's to wait for). */
  stop(): void;
}

/**
 * How often each instance queues the next due time again: a database that was away when a run
 * queued its successor (or at start-up) must not leave the schedule broken until a restart.
 */
const REQUEUE_EVERY_MS = 10 * 60 * 1000;

export interface ScheduledBackupDeps {
  config: BackupConfig;
  storage: Storage;
  scheduler: SharedScheduler;
  clock: Clock;
  logger: Logger;
  instanceName: string;
  /** The database as a backup reads it: the server's own settings. */
  openSource(): Promise<BackupSource>;
}

/** The first due time of `schedule` after `after` (UTC epoch ms). */
export function nextBackupAt(schedule: string, after: number): number {
  return cronParser
    .parseExpression(schedule, { currentDate: new Date(after), tz: 'UTC' })
    .next()
    .getTime();
}

/** Deletes all but the newest `keep` backups in `dir` (their names sort by time). */
export function keepNewest(dir: string, keep: number): string[] {
  const backups = readdirSync(dir)
    .filter((name) => name.startsWith('pipit-') && name.endsWith(BACKUP_EXTENSION))
    .sort();
  const gone = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of gone) rmSync(path.join(dir, name), { force: true });
  return gone;
}

/** Files a backup cut short left behind; only called while this process holds the lock. */
function removeLeftovers(dir: string) {
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.partial') || name.startsWith('.drill-')) {
      rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

/** Restores `file` into a scratch SQLite database next to it and opens it as the server would. */
async function drill(file: string, dir: string): Promise<void> {
  const scratch = mkdtempSync(path.join(dir, '.drill-'));
  try {
    await restoreBackup(file, openSqliteTarget(scratch), { log: () => undefined });
    const restored = await openSqliteStorage(scratch);
    await restored.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const problemOf = (error: unknown) =>
  error instanceof BackupError
    ? error.message
    : `The backup failed: ${error instanceof Error ? error.message : String(error)}`;

export function createScheduledBackups(deps: ScheduledBackupDeps): ScheduledBackups {
  const { config, clock, logger } = deps;
  const schedule = config.schedule;

  async function queueAfter(at: number): Promise<boolean> {
    if (!schedule) return false;
    const next = nextBackupAt(schedule, at);
    const queue = await deps.scheduler.started();
    return queue.enqueue({
      kind: 'backup',
      key: `backup:${next}`,
      runAt: next,
      payload: { at: next },
    });
  }

  /** One backup, its drill and the pruning after it; what happened, never a throw. */
  async function backUp(startedAt: number): Promise<BackupRun | null> {
    const run: BackupRun = {
      id: createId(),
      instance: deps.instanceName,
      startedAt,
      finishedAt: startedAt,
      status: 'failed',
      file: null,
      bytes: null,
      rows: null,
      drill: null,
      message: null,
    };
    let source: BackupSource;
    try {
      source = await deps.openSource();
    } catch (error) {
      if (error instanceof BackupInProgressError) {
        logger.info({ task: 'backup' }, error.message);
        return null;
      }
      return { ...run, finishedAt: clock.now(), message: problemOf(error) };
    }
    try {
      mkdirSync(config.dir, { recursive: true });
      removeLeftovers(config.dir);
      const made = await writeBackup(source, config.dir, {
        now: startedAt,
        output: { log: (line) => logger.info({ task: 'backup' }, line) },
      });
      Object.assign(run, {
        status: 'done',
        file: made.file,
        bytes: made.bytes,
        rows: made.trailer.rows,
      });
    } catch (error) {
      return { ...run, finishedAt: clock.now(), message: problemOf(error) };
    } finally {
      await source.close();
    }
    if (config.drill) {
      try {
        await drill(run.file!, config.dir);
        run.drill = 'restored';
      } catch (error) {
        run.drill = 'failed';
        run.message = `The backup was written but did not restore: ${problemOf(error)}`;
      }
    }
    keepNewest(config.dir, config.keep);
    return { ...run, finishedAt: clock.now() };
  }

  let timer: NodeJS.Timeout | undefined;
  const requeue = () =>
    queueAfter(clock.now()).catch((err: unknown) =>
      logger.warn({ err, task: 'backup' }, 'queuing the next scheduled backup failed'),
    );

  return {
    resume() {
      if (schedule && !timer) timer = setInterval(() => void requeue(), REQUEUE_EVERY_MS).unref();
      return queueAfter(clock.now());
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    async run(job) {
      try {
        const run = await backUp(clock.now());
        if (run) {
          await deps.storage.backupRuns.record(run);
          const fields = { task: 'backup', file: run.file, bytes: run.bytes, drill: run.drill };
          if (run.status === 'done' && run.drill !== 'failed') {
            logger.info(fields, 'scheduled backup made');
          } else logger.error({ ...fields, problem: run.message }, 'scheduled backup failed');
        }
      } finally {
        await queueAfter(Math.max(job.payload.at, clock.now()));
      }
    },
  };
}
