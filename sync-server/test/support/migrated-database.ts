import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { MIGRATION_NAMES, migrationProvider } from '../../src/storage/migrations';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import type { Engine } from './engines';
import { createTestDatabase } from './postgres';

/** What a test undoes after each case, last made first. */
export type Cleanups = Array<() => Promise<void>>;

/**
 * A database as a server left it before `migration`: migrated to the one before it, written by
 * `seed`, and closed. The result opens it as the server does now, alone, running what is left.
 * What it makes goes into `cleanups`. With `poolErrors`, an idle PostgreSQL client's error (the
 * database ending connections) is kept there for the test to check, rather than surfacing later
 * as an unhandled error in whatever file runs then.
 */
export async function databaseBefore(
  engine: Engine,
  migration: string,
  seed: (db: Kysely<unknown>) => Promise<void>,
  cleanups: Cleanups,
  poolErrors?: Error[],
): Promise<() => Promise<Storage>> {
  return (await oldDatabase(engine, migration, seed, cleanups, poolErrors)).open;
}

/**
 * `databaseBefore`, with `connect` too: the database as it is, through Kysely, without
 * migrating it (the caller destroys what it returns).
 */
export async function oldDatabase(
  engine: Engine,
  migration: string,
  seed: (db: Kysely<unknown>) => Promise<void>,
  cleanups: Cleanups,
  poolErrors?: Error[],
): Promise<{ open: () => Promise<Storage>; connect: () => Kysely<unknown> }> {
  let connect: () => Kysely<unknown>;
  let open: () => Promise<Storage>;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-migration-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    connect = () =>
      new Kysely({
        dialect: new SqliteDialect({ database: new SQLite(path.join(dir, SQLITE_FILE_NAME)) }),
      });
    open = () => openSqliteStorage(dir);
  } else {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    connect = () => {
      const pool = new pg.Pool({ connectionString: database.url });
      if (poolErrors) pool.on('error', (error) => poolErrors.push(error));
      return new Kysely({ dialect: new PostgresDialect({ pool }) });
    };
    open = () => openPostgresStorage(database.url);
  }
  const db = connect();
  try {
    const previous = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(migration) - 1]!;
    const { error } = await new Migrator({
      db,
      provider: migrationProvider(engine),
    }).migrateTo(previous);
    if (error) throw error;
    await seed(db);
  } finally {
    await db.destroy();
  }
  return { open, connect };
}

/** The database of `databaseBefore`, opened now (and closed among the cleanups). */
export async function storageBefore(
  engine: Engine,
  migration: string,
  seed: (db: Kysely<unknown>) => Promise<void>,
  cleanups: Cleanups,
): Promise<Storage> {
  const open = await databaseBefore(engine, migration, seed, cleanups);
  const storage = await open();
  cleanups.push(() => storage.close());
  return storage;
}
