import { describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { BACKUP_RUNS_KEPT } from '../../src/storage/kysely/small-stores';
import type { BackupRun, Storage } from '../../src/storage/types';

/** What an operator looks back on: the server's scheduled backups (docs/operations.md). */
export function describeOperationsContract(storage: () => Storage) {
  describe('backup runs', () => {
    it('keeps each run as recorded, newest first, and only the newest 200', async () => {
      const run = (i: number): BackupRun => ({
        id: createId(),
        instance: 'one',
        startedAt: 1_000_000 + i * 1_000,
        finishedAt: 1_000_500 + i * 1_000,
        status: i % 2 === 0 ? 'done' : 'failed',
        file: i % 2 === 0 ? `/backups/pipit-${i}.pipit-backup.gz` : null,
        bytes: i % 2 === 0 ? 5_000_000_000 + i : null,
        rows: i % 2 === 0 ? i : null,
        drill: i % 2 === 0 ? 'restored' : null,
        message: i % 2 === 0 ? null : 'The disk holding /backups is full.',
      });
      const all = Array.from({ length: BACKUP_RUNS_KEPT + 2 }, (_, i) => run(i));
      for (const r of all) await storage().backupRuns.record(r);
      const kept = await storage().backupRuns.recent(1_000);
      expect(kept).toHaveLength(BACKUP_RUNS_KEPT);
      // Read back exactly, big byte counts included (bigint on both engines).
      expect(kept[0]).toEqual(all.at(-1));
      expect(kept[1]).toEqual(all.at(-2));
      expect(kept.at(-1)).toEqual(all[2]);
      expect(await storage().backupRuns.recent(1)).toEqual([all.at(-1)]);
    });
  });
}
