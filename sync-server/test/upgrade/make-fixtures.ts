/*
 * Writes the old-database fixtures (docs/operations.md#testing-upgrades):
 *
 *   npx tsx sync-server/test/upgrade/make-fixtures.ts
 *
 * Needs PostgreSQL at TEST_DATABASE_URL and Debian's pg_dump. For each engine: today's server,
 * with the community of scenario.ts made through its API; then, for each migration, a database
 * that the migrations up to it (and none after) made, the schema the first release with that
 * migration left, holding today's rows as far as that schema has room for them, dumped as SQL.
 * Rows a later migration derives (app_ids, upload_ids) are left to it; what a later one moved is
 * put back (a deleted account's name in its row before 0007_username_holds), and what needs a
 * later one is left out (an app published before 0004_publishing, documents of spaces and drafts
 * before their tables).
 *
 * Run it again when a migration is added: the fixture of the new one is new, and the others'
 * schemas come out the same (old-databases.test.ts checks that shipped migrations never change).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import { emptyDatabase, ENGINES, type Engine, startAccountsServer } from '../support/engines';
import { migrateTo } from '../support/migrated-database';
import {
  fixtureFile,
  hasMigration,
  postgresSchema,
  type Schema,
  sqliteSchema,
} from './fixture-databases';
import { makeCommunity } from './scenario';

type Row = Record<string, unknown>;
type Rows = Map<string, Row[]>;

const HEADER = (engine: Engine, migration: string) =>
  [
    `-- A ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database as the first Pipit release with migration ${migration} left it.`,
    '-- Written by sync-server/test/upgrade/make-fixtures.ts; do not edit by hand.',
    '',
  ].join('\n');

/** Today's server on `engine`, the community made through its API, then every row it stored. */
async function todaysRows(engine: Engine): Promise<Rows> {
  const database = await emptyDatabase(engine);
  try {
    const h = await startAccountsServer(engine, { database });
    try {
      await makeCommunity(h);
    } finally {
      await h.close();
    }
    return engine === 'postgres'
      ? await postgresRows(database.location)
      : sqliteRows(database.location);
  } finally {
    await database.drop();
  }
}

/** Tables whose rows are the migrator's, not Pipit's. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

function sqliteRows(file: string): Rows {
  const db = new SQLite(file, { readonly: true });
  try {
    const rows: Rows = new Map();
    for (const table of sqliteSchema(db).keys()) {
      if (MIGRATOR_TABLES.has(table)) continue;
      rows.set(
        table,
        db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).safeIntegers(true).all() as Row[],
      );
    }
    return rows;
  } finally {
    db.close();
  }
}

async function postgresRows(url: string): Promise<Rows> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows: Rows = new Map();
    for (const table of (await postgresSchema(client)).keys()) {
      if (MIGRATOR_TABLES.has(table)) continue;
      rows.set(table, (await client.query<Row>(`SELECT * FROM "${table}"`)).rows);
    }
    return rows;
  } finally {
    await client.end();
  }
}

/** Documents of kinds a release without their tables never made. */
const DOCUMENT_KINDS: ReadonlyArray<readonly [prefix: string, table: string]> = [
  ['space/', 'spaces'],
  ['draft/', 'app_drafts'],
];

/**
 * Today's rows as a database migrated to `migration` holds them: only its tables and columns,
 * documents of kinds it knows, and what later migrations moved put back where it was.
 */
function rowsAt(migration: string, schema: Schema, today: Rows): Rows {
  const at: Rows = new Map();
  const knownDocument = (name: unknown) =>
    DOCUMENT_KINDS.every(
      ([prefix, table]) => !String(name).startsWith(prefix) || schema.has(table),
    );
  for (const [table, columns] of schema) {
    if (MIGRATOR_TABLES.has(table)) continue;
    let rows = today.get(table) ?? [];
    if (['documents', 'document_updates', 'document_clients'].includes(table)) {
      rows = rows.filter((row) => knownDocument(row.name));
    }
    at.set(
      table,
      rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null]))),
    );
  }
  if (!hasMigration(migration, '0007_username_holds')) {
    // Before it, a deleted account kept its name in its own row.
    const held = new Map(
      (today.get('username_holds') ?? []).map((hold) => [String(hold.user_id), hold.username]),
    );
    for (const user of at.get('users') ?? []) {
      if (user.deleted_at !== null && held.has(String(user.id))) {
        user.username = held.get(String(user.id));
      }
    }
  }
  if (!hasMigration(migration, '0004_publishing')) {
    // Publishing came with it: an app before it was never published, whatever it is today.
    for (const app of at.get('apps') ?? []) {
      app.published_version = null;
      app.visibility = 'private';
    }
  }
  return at;
}

function sqliteLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** A SQLite file's schema and rows as SQL, in the order that loads it: tables, rows, indexes. */
function dumpSqlite(file: string): string {
  const db = new SQLite(file, { readonly: true });
  try {
    const objects = db
      .prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid`)
      .all() as Array<{ type: string; name: string; sql: string }>;
    const lines = ['PRAGMA foreign_keys = OFF;', 'BEGIN;'];
    const tables = objects.filter((o) => o.type === 'table' && o.name !== 'sqlite_sequence');
    for (const table of tables) lines.push(`${table.sql};`);
    for (const table of [...tables.map((t) => t.name), 'sqlite_sequence']) {
      if (table === 'sqlite_sequence' && !objects.some((o) => o.name === table)) continue;
      const rows = db
        .prepare(`SELECT * FROM "${table}" ORDER BY rowid`)
        .safeIntegers(true)
        .all() as Row[];
      for (const row of rows) {
        const columns = Object.keys(row).map((c) => `"${c}"`);
        const values = Object.values(row).map(sqliteLiteral);
        lines.push(`INSERT INTO "${table}" (${columns.join(', ')}) VALUES (${values.join(', ')});`);
      }
    }
    for (const other of objects.filter((o) => o.type !== 'table')) lines.push(`${other.sql};`);
    lines.push('COMMIT;', '');
    return lines.join('\n');
  } finally {
    db.close();
  }
}

async function sqliteFixture(migration: string, today: Rows): Promise<string> {
  const database = await emptyDatabase('sqlite');
  try {
    const file = database.location;
    await migrateTo('sqlite', file, migration);
    const db = new SQLite(file);
    try {
      db.pragma('foreign_keys = OFF');
      const rows = rowsAt(migration, sqliteSchema(db), today);
      db.transaction(() => {
        for (const [table, list] of rows) {
          for (const row of list) {
            const columns = Object.keys(row);
            db.prepare(
              `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
            ).run(...Object.values(row));
          }
        }
      })();
    } finally {
      db.close();
    }
    return dumpSqlite(file);
  } finally {
    await database.drop();
  }
}

async function postgresFixture(migration: string, today: Rows): Promise<string> {
  const database = await emptyDatabase('postgres');
  try {
    await migrateTo('postgres', database.location, migration);
    const client = new pg.Client({ connectionString: database.location });
    await client.connect();
    try {
      // Rows in any order: foreign keys are checked by triggers, which replicas skip.
      await client.query('SET session_replication_role = replica');
      for (const [table, list] of rowsAt(migration, await postgresSchema(client), today)) {
        for (const row of list) {
          const columns = Object.keys(row);
          await client.query(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
            Object.values(row),
          );
        }
      }
      // Rows given their serial numbers leave the sequence behind them: move it on, as the
      // server's own inserts would have.
      const serials = await client.query<{ table_name: string; column_name: string }>(`
        SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'`);
      for (const { table_name: table, column_name: column } of serials.rows) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'), coalesce(max("${column}"), 1), max("${column}") IS NOT NULL) FROM "${table}"`,
        );
      }
    } finally {
      await client.end();
    }
    const dumped = spawnSync(
      'pg_dump',
      ['--no-owner', '--no-privileges', '--inserts', '--dbname', database.location],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    if (dumped.error) throw dumped.error;
    if (dumped.status !== 0) throw new Error(`pg_dump: ${dumped.stderr}`);
    // psql's own commands (\restrict) would stop a plain client loading it; the dump's
    // versions vary from machine to machine.
    return `${dumped.stdout
      .split('\n')
      .filter((line) => !line.startsWith('\\') && !line.startsWith('-- Dumped '))
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()}\n`;
  } finally {
    await database.drop();
  }
}

for (const engine of ENGINES) {
  const today = await todaysRows(engine);
  mkdirSync(path.dirname(fixtureFile(engine, MIGRATION_NAMES[0]!)), { recursive: true });
  for (const migration of MIGRATION_NAMES) {
    const sql =
      engine === 'sqlite'
        ? await sqliteFixture(migration, today)
        : await postgresFixture(migration, today);
    writeFileSync(fixtureFile(engine, migration), HEADER(engine, migration) + sql);
  }
  console.log(`${engine}: ${MIGRATION_NAMES.length} fixtures`);
}
