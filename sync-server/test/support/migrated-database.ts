import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { MIGRATION_NAMES, migrationProvider } from '../../src/storage/migrations';
import type { Storage } from '../../src/storage/types';
import { type Engine, emptyDatabase } from './engines';

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

/** Kysely over a SQLite file or a PostgreSQL database (`location`), for migrating it by hand. */
export function kyselyFor(engine: Engine, location: string, poolErrors?: Error[]): Kysely<unknown> {
  if (engine === 'sqlite') {
    return new Kysely({ dialect: new SqliteDialect({ database: new SQLite(location) }) });
  }
  const pool = new pg.Pool({ connectionString: location });
  if (poolErrors) pool.on('error', (error) => poolErrors.push(error));
  return new Kysely({ dialect: new PostgresDialect({ pool }) });
}

/** Applies today's migrations up to and including `migration`, and none after it. */
export async function migrateTo(
  engine: Engine,
  location: string,
  migration: string,
): Promise<void> {
  const db = kyselyFor(engine, location);
  try {
    const { error } = await new Migrator({
      db,
      provider: migrationProvider(engine),
    }).migrateTo(migration);
    if (error) throw error;
  } finally {
    await db.destroy();
  }
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
  const database = await emptyDatabase(engine);
  cleanups.push(() => database.drop());
  const connect = () => kyselyFor(engine, database.location, poolErrors);
  await migrateTo(
    engine,
    database.location,
    MIGRATION_NAMES[MIGRATION_NAMES.indexOf(migration) - 1]!,
  );
  const db = connect();
  try {
    await seed(db);
  } finally {
    await db.destroy();
  }
  return { open: () => database.open(), connect };
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
