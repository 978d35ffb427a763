import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { StorageEngine } from '@pipit/protocol';
import { migrationProvider } from '../storage/migrations';
import { SQLITE_FILE_NAME } from '../storage/sqlite';
import { BackupError } from './format';
import { types } from '../storage/postgres';

/**
 * An empty database a backup is restored into: its schema made as the backup's was, its rows
 * loaded in one transaction, then migrated to this Pipit's newest schema. Anything that fails
 * leaves it empty again.
 */
export interface RestoreTarget {
  engine: StorageEngine;
  /** The schema as the backup's (the migrations up to `schema`, in order). */
  migrateTo(schema: string): Promise<void>;
  /** Loads rows, table by table, in one transaction (`load` resolves once committed). */
  load(rows: AsyncIterable<{ table: string; columns: string[]; row: unknown[] }>): Promise<void>;
  migrateToLatest(): Promise<string[]>;
  /** Takes back everything made here (the target was empty). */
  undo(): Promise<void>;
  close(): Promise<void>;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function migrate(db: Kysely<unknown>, engine: StorageEngine, to: string | 'latest') {
  const migrator = new Migrator({ db, provider: migrationProvider(engine) });
  const { error, results } =
    to === 'latest' ? await migrator.migrateToLatest() : await migrator.migrateTo(to);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

const asBinding = (value: unknown) => (value instanceof Uint8Array ? Buffer.from(value) : value);

export function openSqliteTarget(dataDir: string): RestoreTarget {
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  if (existsSync(file)) {
    throw new BackupError(
      `${dataDir} already holds a Pipit database (${SQLITE_FILE_NAME}). A backup is restored into an empty data directory only: choose another DATA_DIR, or move that one away first.`,
    );
  }
  // Made only once the backup is known to be whole (the first migration), and undone if not.
  const madeDir = !existsSync(dataDir);
  let opened: { database: SQLite.Database; db: Kysely<unknown> } | null = null;
  const open = () => {
    if (opened) return opened;
    mkdirSync(dataDir, { recursive: true });
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    opened = { database, db: new Kysely<unknown>({ dialect: new SqliteDialect({ database }) }) };
    return opened;
  };
  const close = async () => {
    const was = opened;
    opened = null;
    if (was) await was.db.destroy();
  };
  return {
    engine: 'sqlite',
    migrateTo: (schema) => migrate(open().db, 'sqlite', schema).then(() => undefined),
    async load(rows) {
      const { database } = open();
      const statements = new Map<string, SQLite.Statement>();
      database.exec('BEGIN');
      try {
        for await (const { table, columns, row } of rows) {
          const key = `${table}\n${columns.join(',')}`;
          let statement = statements.get(key);
          if (!statement) {
            statement = database.prepare(
              `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
            );
            statements.set(key, statement);
          }
          statement.run(...row.map(asBinding));
        }
        database.exec('COMMIT');
      } catch (error) {
        if (database.inTransaction) database.exec('ROLLBACK');
        throw error;
      }
    },
    migrateToLatest: () => migrate(open().db, 'sqlite', 'latest'),
    async undo() {
      await close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
      if (madeDir) rmSync(dataDir, { recursive: true, force: true });
    },
    close,
  };
}

/** Rows per INSERT: within PostgreSQL's 65,535 parameters for the widest table. */
const PG_ROWS_PER_INSERT = 200;

export async function openPostgresTarget(connectionString: string): Promise<RestoreTarget> {
  const client = new pg.Client({ connectionString, types });
  await client.connect();
  const tables = await client.query<{ n: string }>(
    "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'",
  );
  if (Number(tables.rows[0]?.n ?? 0) > 0) {
    await client.end();
    throw new BackupError(
      'That database is not empty. A backup is restored into an empty database only: create a new one (createdb) and point DATABASE_URL at it.',
    );
  }
  const pool = new pg.Pool({ connectionString, types, max: 1 });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  const flush = async (table: string, columns: string[], rows: unknown[][]) => {
    if (rows.length === 0) return;
    const values: unknown[] = [];
    const tuples = rows.map((row) => {
      const start = values.length;
      values.push(...row.map(asBinding));
      return `(${row.map((_, i) => `$${start + i + 1}`).join(', ')})`;
    });
    await client.query(
      `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES ${tuples.join(', ')}`,
      values,
    );
  };
  const close = async () => {
    if (closed) return;
    closed = true;
    await db.destroy();
    await client.end();
  };
  return {
    engine: 'postgres',
    migrateTo: (schema) => migrate(db, 'postgres', schema).then(() => undefined),
    async load(rows) {
      await client.query('BEGIN');
      try {
        let pending: { table: string; columns: string[]; rows: unknown[][] } | null = null;
        for await (const { table, columns, row } of rows) {
          if (pending && (pending.table !== table || pending.rows.length >= PG_ROWS_PER_INSERT)) {
            await flush(pending.table, pending.columns, pending.rows);
            pending = null;
          }
          pending ??= { table, columns, rows: [] };
          pending.rows.push(row);
        }
        if (pending) await flush(pending.table, pending.columns, pending.rows);
        // Sequences go on from the rows restored (the update log's numbers).
        const serials = await client.query<{ table_name: string; column_name: string }>(
          "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'",
        );
        for (const { table_name, column_name } of serials.rows) {
          const t = quoted(table_name);
          const c = quoted(column_name);
          await client.query(
            `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(${c}), 1), MAX(${c}) IS NOT NULL) FROM ${t}`,
            [table_name, column_name],
          );
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    migrateToLatest: () => migrate(db, 'postgres', 'latest'),
    async undo() {
      const made = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      );
      if (made.rows.length > 0) {
        await client.query(
          `DROP TABLE IF EXISTS ${made.rows.map((r) => quoted(r.table_name)).join(', ')} CASCADE`,
        );
      }
      await close();
    },
    close,
  };
}
