import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { StorageEngine } from '@pipit/protocol';
import type { Config } from '../config';
import { types } from '../storage/postgres';
import { SQLITE_FILE_NAME } from '../storage/sqlite';
import { BackupError, BackupInProgressError, dependencyOrder, isBookkeeping } from './format';

/**
 * A database read for a backup as it was at one moment, while the server keeps writing: SQLite in
 * one read transaction (WAL: writers go on, this reader sees its snapshot), PostgreSQL in one
 * repeatable-read, read-only transaction.
 */
export interface BackupSource {
  engine: StorageEngine;
  /** The newest migration applied. */
  schema: string;
  /** Every table of Pipit's, parents before the tables that refer to them. */
  tables: string[];
  /** A table's columns and rows, in batches (never the whole table in memory). */
  rows(table: string): AsyncIterable<{ columns: string[]; batch: unknown[][] }>;
  close(): Promise<void>;
}

/** Held by the backup being made, so two never run at once (by hand, on a schedule, or both). */
export const SQLITE_BACKUP_LOCK = 'backup.lock';
/** PostgreSQL's advisory lock key for the same (held by the backup's own connection). */
const POSTGRES_BACKUP_LOCK = 7_414_243_118;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
};

/**
 * Takes SQLite's backup lock: a file naming the process that holds it. One left by a process
 * that is gone (kill -9, a crash) is taken over; one held by a live process refuses.
 */
function lockSqlite(dataDir: string): () => void {
  const file = path.join(dataDir, SQLITE_BACKUP_LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(file, 'utf8'));
      } catch {
        // Gone in between: try again.
      }
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
        throw new BackupInProgressError(`process ${holder}`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new BackupInProgressError('it took the lock just now');
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
/**
 * Rows per batch, and bytes: a batch is read, encoded and written in one go, so a table of big
 * rows (documents of 100 KB) goes in smaller batches, and a server making a scheduled backup
 * never stops serving for long.
 */
const BATCH = 500;
const BATCH_BYTES = 2 * 1024 * 1024;

/** About how many bytes a row holds (its bytes and texts; numbers count for little). */
const rowBytes = (row: unknown[]) =>
  row.reduce<number>(
    (sum, value) =>
      sum +
      (value instanceof Uint8Array ? value.length : typeof value === 'string' ? value.length : 8),
    0,
  );

export function openSqliteSource(dataDir: string): BackupSource {
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  if (!existsSync(file)) {
    throw new BackupError(`There is no Pipit database in ${dataDir} (no ${SQLITE_FILE_NAME}).`);
  }
  const unlock = lockSqlite(dataDir);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    unlock();
    throw error;
  }
  db.pragma('busy_timeout = 5000');
  db.exec('BEGIN');
  try {
    // The first read starts the snapshot every later read sees.
    const schema = db
      .prepare('SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1')
      .pluck()
      .get() as string | undefined;
    if (!schema) throw new BackupError(`The database in ${dataDir} has no Pipit schema.`);
    const names = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const parents = new Map<string, Set<string>>();
    for (const table of names.filter((n) => !isBookkeeping(n))) {
      const keys = db.prepare(`PRAGMA foreign_key_list(${quoted(table)})`).all() as Array<{
        table: string;
      }>;
      parents.set(table, new Set(keys.map((k) => k.table)));
    }
    return {
      engine: 'sqlite',
      schema,
      tables: dependencyOrder(parents),
      async *rows(table) {
        const statement = db.prepare(`SELECT * FROM ${quoted(table)}`).raw(true);
        const columns = statement.columns().map((c) => c.name);
        let batch: unknown[][] = [];
        let bytes = 0;
        for (const row of statement.iterate() as Iterable<unknown[]>) {
          batch.push(row);
          bytes += rowBytes(row);
          if (batch.length >= BATCH || bytes >= BATCH_BYTES) {
            yield { columns, batch };
            batch = [];
            bytes = 0;
          }
        }
        yield { columns, batch };
      },
      close() {
        try {
          if (db.inTransaction) db.exec('COMMIT');
          db.close();
        } finally {
          unlock();
        }
        return Promise.resolve();
      },
    };
  } catch (error) {
    db.close();
    unlock();
    throw error;
  }
}

export async function openPostgresSource(connectionString: string): Promise<BackupSource> {
  const client = new pg.Client({ connectionString, types });
  await client.connect();
  try {
    // Held by this connection until it ends, so released by a backup killed half-way too.
    const locked = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
      POSTGRES_BACKUP_LOCK,
    ]);
    if (!locked.rows[0]?.ok) throw new BackupInProgressError('on another connection');
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const migrated = await client
      .query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1')
      .catch(() => ({ rows: [] as Array<{ name: string }> }));
    const schema = migrated.rows[0]?.name;
    if (!schema) throw new BackupError('That database has no Pipit schema.');
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    const keys = await client.query<{ child: string; parent: string }>(
      `SELECT tc.table_name AS child, ccu.table_name AS parent
         FROM information_schema.table_constraints tc
         JOIN information_schema.constraint_column_usage ccu
           ON tc.constraint_name = ccu.constraint_name AND tc.table_schema = ccu.table_schema
        WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public'`,
    );
    const parents = new Map<string, Set<string>>();
    for (const { table_name } of tables.rows) {
      if (!isBookkeeping(table_name)) parents.set(table_name, new Set());
    }
    for (const { child, parent } of keys.rows) parents.get(child)?.add(parent);
    let cursor = 0;
    return {
      engine: 'postgres',
      schema,
      tables: dependencyOrder(parents),
      async *rows(table) {
        const name = `backup_${(cursor += 1)}`;
        await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR SELECT * FROM ${quoted(table)}`);
        try {
          // As many rows as make about BATCH_BYTES, judged by the rows fetched so far.
          let rows = 10;
          for (;;) {
            const got = await client.query<unknown[]>({
              text: `FETCH ${rows} FROM ${name}`,
              rowMode: 'array',
            });
            yield { columns: got.fields.map((f) => f.name), batch: got.rows };
            if (got.rows.length < rows) break;
            const average = got.rows.reduce((sum, row) => sum + rowBytes(row), 0) / rows;
            rows = Math.max(1, Math.min(BATCH, Math.floor(BATCH_BYTES / Math.max(average, 1))));
          }
        } finally {
          await client.query(`CLOSE ${name}`);
        }
      },
      async close() {
        await client.query('COMMIT').catch(() => undefined);
        await client.end();
      },
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** The database the server with `config` uses, as a backup reads it. */
export const openServerSource = (config: Config): Promise<BackupSource> =>
  config.databaseUrl
    ? openPostgresSource(config.databaseUrl)
    : Promise.resolve().then(() => openSqliteSource(config.dataDir));
