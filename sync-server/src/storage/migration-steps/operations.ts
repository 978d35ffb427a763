import type { Kysely } from 'kysely';
import type { EngineMigration } from './engine-migration';

/** What an operator looks back on: the server's backups (docs/operations.md#backups). */
export const OPERATIONS: Record<string, EngineMigration> = {
  '0030_backup_runs': () => ({
    async up(db: Kysely<unknown>) {
      // One row per backup the server made on its schedule, whichever instance made it, and what
      // its restore drill found. Not itself backed up (backup/format.ts isBookkeeping): a restored
      // database starts with no runs, as the files they name are elsewhere.
      await db.schema
        .createTable('backup_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('instance', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('file', 'text')
        .addColumn('bytes', 'bigint')
        .addColumn('rows', 'bigint')
        .addColumn('drill', 'text')
        .addColumn('message', 'text')
        .execute();
      await db.schema
        .createIndex('backup_runs_started')
        .on('backup_runs')
        .column('started_at')
        .execute();
    },
  }),
  '0031_instances_and_sizes': () => ({
    async up(db: Kysely<unknown>) {
      // Each instance's latest figures, written every 15 s by the instance itself (the same
      // figures as its /metrics), for the operator's health view; a row not written for a day is
      // deleted.
      await db.schema
        .createTable('instance_status')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('seen_at', 'bigint', (c) => c.notNull())
        .addColumn('sockets', 'integer', (c) => c.notNull())
        .addColumn('documents', 'integer', (c) => c.notNull())
        .addColumn('rss_bytes', 'bigint', (c) => c.notNull())
        .addColumn('heap_bytes', 'bigint', (c) => c.notNull())
        .addColumn('window_ms', 'integer', (c) => c.notNull())
        .addColumn('requests', 'integer', (c) => c.notNull())
        .addColumn('server_errors', 'integer', (c) => c.notNull())
        .execute();
      // The database's size, the latest reading of each UTC day: how fast it grows.
      await db.schema
        .createTable('storage_sizes')
        .addColumn('day', 'bigint', (c) => c.primaryKey())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .execute();
    },
  }),
};
