import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { nextBackupAt } from '../../src/backup/scheduled-backups';
import { restoreBackup } from '../../src/backup/restore';
import { openPostgresSource, openSqliteSource } from '../../src/backup/sources';
import { openSqliteTarget } from '../../src/backup/targets';
import { ConfigError, loadConfig } from '../../src/config';
import type { Job } from '../../src/scheduler';
import { openSqliteStorage } from '../../src/storage/sqlite';
import { ENGINES } from '../support/engines';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { type RunningPipit, startPipit } from '../support/start-server';
import { insertUser } from '../support/users';

/**
 * Backups on BACKUP_SCHEDULE (docs/operations.md#scheduled-backups), on the real server with each
 * engine. The next due time is queued once however often it is asked for; each run is the queue's
 * handler called as the queue calls it (a due time is minutes away): it writes a backup, proves
 * it by restoring it, keeps the newest BACKUP_KEEP and records what happened; it steps aside for
 * a backup already running, and records a failure it cannot help.
 */

const SCHEDULE = '30 3 * * *';

describe('BACKUP_SCHEDULE and BACKUP_KEEP', () => {
  it('are read as a five-field cron expression in UTC and a count, or refused with a message', () => {
    expect(loadConfig({}).backups).toMatchObject({ schedule: undefined, keep: 7, drill: true });
    expect(loadConfig({ BACKUP_SCHEDULE: SCHEDULE, BACKUP_KEEP: '3' }).backups).toMatchObject({
      schedule: SCHEDULE,
      keep: 3,
    });
    for (const bad of ['every day', '* * * *', '0 0 3 * * *', '61 * * * *']) {
      expect(() => loadConfig({ BACKUP_SCHEDULE: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ BACKUP_SCHEDULE: bad }), bad).toThrow(
        /BACKUP_SCHEDULE: Use a cron/,
      );
    }
    expect(() => loadConfig({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
    // The next due time is in UTC, whatever the machine's zone.
    expect(new Date(nextBackupAt(SCHEDULE, Date.UTC(2026, 11, 1, 4))).toISOString()).toBe(
      '2026-12-02T03:30:00.000Z',
    );
  });
});

describe.each(ENGINES)('scheduled backups (%s)', (engine) => {
  let pipit: RunningPipit;
  let db: TestDatabase | undefined;
  let dir: string;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pipit-scheduled-'));
    db = engine === 'postgres' ? await createTestDatabase() : undefined;
    pipit = await startPipit({
      env: {
        BACKUP_SCHEDULE: SCHEDULE,
        BACKUP_KEEP: '2',
        BACKUP_DIR: dir,
        INSTANCE_NAME: `backups-${engine}`,
        ...(db ? { DATABASE_URL: db.url } : {}),
      },
    });
  });

  afterAll(async () => {
    await pipit?.close();
    await db?.drop();
    for (const cleanup of cleanups) await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const job = (): Job<'backup'> => ({
    id: createId(),
    kind: 'backup',
    key: `backup:test-${createId()}`,
    payload: { at: Date.now() },
    attempt: 1,
  });
  const backups = () => readdirSync(dir).filter((f) => f.endsWith('.pipit-backup.gz'));
  const runs = () => pipit.server.storage.backupRuns.recent(50);

  it('queues the next due time once, however many instances ask', async () => {
    // Started servers queue it; asking again (as another instance, or the 10-minute check) adds none.
    await expect.poll(() => pipit.server.backups.resume(), { timeout: 10_000 }).toBe(false);
    await expect(pipit.server.backups.resume()).resolves.toBe(false);
  });

  it('backs up, proves each by restoring it, keeps the newest two, and records every run', async () => {
    const { storage } = pipit.server;
    const ada = await insertUser(storage, { username: `ada_sched_${engine.slice(0, 2)}` });
    const titles: string[] = [];
    // A backup that was cut short before (a crash) is cleared by the next run.
    writeFileSync(path.join(dir, 'pipit-2020-01-01T00-00-00-000Z.pipit-backup.gz.partial'), 'x');
    for (let i = 0; i < 3; i++) {
      titles.push(`Plan ${i}`);
      await storage.apps.insert({
        id: createId(),
        ownerId: ada.id,
        title: titles[i]!,
        description: '',
        icon: null,
        createdAt: Date.now(),
      });
      await pipit.server.backups.run(job());
      // Names carry the millisecond: the next run's sorts after.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(readdirSync(dir).filter((f) => !f.endsWith('.pipit-backup.gz'))).toEqual([]);
    expect(backups()).toHaveLength(2);
    const recorded = await runs();
    expect(recorded).toHaveLength(3);
    for (const run of recorded) {
      expect(run).toMatchObject({
        instance: `backups-${engine}`,
        status: 'done',
        drill: 'restored',
        message: null,
      });
      expect(run.bytes).toBeGreaterThan(0);
      expect(run.finishedAt).toBeGreaterThanOrEqual(run.startedAt);
    }
    // The newest first; the oldest file is gone, the newest two are the ones kept.
    expect(
      recorded
        .map((r) => path.basename(r.file!))
        .slice(0, 2)
        .sort(),
    ).toEqual(backups());
    expect(existsSync(recorded[2]!.file!)).toBe(false);

    // The newest restores with all three apps.
    const into = mkdtempSync(path.join(tmpdir(), 'pipit-scheduled-restore-'));
    cleanups.push(() => rmSync(into, { recursive: true, force: true }));
    await restoreBackup(recorded[0]!.file!, openSqliteTarget(into), { log: () => undefined });
    const restored = await openSqliteStorage(into);
    try {
      const apps = await restored.apps.listForUser(ada.id);
      expect(apps.map((a) => a.title).sort()).toEqual(titles);
      // Runs are the server's own record, not data: a restored database starts with none.
      expect(await restored.backupRuns.recent(10)).toEqual([]);
    } finally {
      await restored.close();
    }
  });

  it('steps aside for a backup already running, and records a failure it cannot help', async () => {
    const before = (await runs()).length;
    const files = backups();
    const held = db ? await openPostgresSource(db.url) : openSqliteSource(pipit.dataDir);
    try {
      await pipit.server.backups.run(job());
    } finally {
      await held.close();
    }
    expect(await runs()).toHaveLength(before);
    expect(backups()).toEqual(files);
    expect(pipit.logs.some((l) => /Another backup of this database is running/.test(l.msg))).toBe(
      true,
    );

    // BACKUP_DIR is not a folder any more (a mistaken mount, say): recorded as failed, with why.
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a folder');
    try {
      await pipit.server.backups.run(job());
    } finally {
      rmSync(dir, { force: true });
      mkdirSync(dir);
    }
    const [failed] = await runs();
    expect(failed).toMatchObject({ status: 'failed', file: null, drill: null });
    expect(failed!.message).toMatch(/The backup failed: .*(EEXIST|ENOTDIR)/);
    expect(pipit.logs.some((l) => l.msg === 'scheduled backup failed' && l.level === 'error')).toBe(
      true,
    );
    // The schedule goes on: the next due time is still queued.
    await expect(pipit.server.backups.resume()).resolves.toBe(false);
  });
});
