import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../src/storage/sqlite';
import { describeStorageContract } from './storage-contract';
import { describeAiUsageContract } from './storage-contract-ai';
import { describeMonitoringContract } from './storage-contract-monitoring';
import { describeCreatorsContract } from './storage-contract-creators';
import { describeRemindersContract } from './storage-contract-reminders';

describeStorageContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pipit-sqlite-'));
  return {
    open: () => openSqliteStorage(dir),
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
describeMonitoringContract('sqlite');
describeAiUsageContract('sqlite');
describeRemindersContract('sqlite');
describeCreatorsContract('sqlite');

describe('sqlite adapter', () => {
  it('creates the data directory and uses WAL with full synchronous commits', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'pipit-sqlite-')), 'nested', 'data');
    const storage = await openSqliteStorage(dir);
    await storage.close();
    const db = new SQLite(path.join(dir, SQLITE_FILE_NAME), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
      rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
    }
  });
});
