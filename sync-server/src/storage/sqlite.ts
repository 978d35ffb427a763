import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createKyselyStorage } from './kysely';
import { migrateToLatest, pendingMigrations, recordedMigrations } from './migrations';
import type { Database } from './schema';
import type { Storage } from './types';

export const SQLITE_FILE_NAME = 'pipit.sqlite';

/**
 * Embedded storage: one SQLite file under the data directory, in WAL mode so readers never wait for
 * the writer. `synchronous = FULL` makes every commit durable across power loss, not only a crash: an
 * acknowledged edit is meant to be stored.
 */
export async function openSqliteStorage(dataDir: string): Promise<Storage> {
  mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(path.join(dataDir, SQLITE_FILE_NAME));
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');

  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    // Kysely runs SQLite's migrations outside a transaction (its adapter says SQLite has no
    // transactional DDL, which it has): all of them in one, so a migration that fails leaves the
    // database as it was, the ones before it in the same start-up included. Only when there is
    // something to migrate: the write lock is held across the migrations' awaits, and another
    // connection of this process waiting for it would block the event loop they need.
    const recorded = await recordedMigrations(db as Kysely<unknown>, 'sqlite');
    if (pendingMigrations(recorded).length > 0) {
      database.exec('BEGIN IMMEDIATE');
      try {
        await migrateToLatest(db as Kysely<unknown>, 'sqlite');
        database.exec('COMMIT');
      } finally {
        if (database.inTransaction) database.exec('ROLLBACK');
      }
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }

  return createKyselyStorage(db, {
    engine: 'sqlite',
    uniqueViolation(error) {
      if (!(error instanceof SQLite.SqliteError) || error.code !== 'SQLITE_CONSTRAINT_UNIQUE') {
        return null;
      }
      // "UNIQUE constraint failed: users.email"
      const field = /UNIQUE constraint failed: \w+\.(\w+)/.exec(error.message)?.[1];
      return { field };
    },
  });
}
