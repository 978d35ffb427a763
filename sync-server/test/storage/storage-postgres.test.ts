import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import { openPostgresStorage } from '../../src/storage/postgres';
import { describeStorageContract } from './storage-contract';
import { describeAiUsageContract } from './storage-contract-ai';
import { describeMonitoringContract } from './storage-contract-monitoring';
import { describeCreatorsContract } from './storage-contract-creators';
import { describeRemindersContract } from './storage-contract-reminders';
import { createTestDatabase } from '../support/postgres';

describeStorageContract('postgres', async () => {
  const database = await createTestDatabase();
  return { open: () => openPostgresStorage(database.url), destroy: () => database.drop() };
});
describeMonitoringContract('postgres');
describeAiUsageContract('postgres');
describeRemindersContract('postgres');
describeCreatorsContract('postgres');

describe('postgres adapter', () => {
  it('fails to open with a clear error when the server is unreachable', async () => {
    await expect(openPostgresStorage('postgres://postgres@127.0.0.1:1/none')).rejects.toThrow(
      /ECONNREFUSED|connect/,
    );
  });

  it('lets several instances start at once on one database (migrations take turns)', async () => {
    const database = await createTestDatabase();
    try {
      const all = await Promise.all([1, 2, 3].map(() => openPostgresStorage(database.url)));
      for (const s of all) expect(await s.appliedMigrations()).toEqual(MIGRATION_NAMES);
      await Promise.all(all.map((s) => s.close()));
    } finally {
      await database.drop();
    }
  });
});
