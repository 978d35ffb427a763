import { readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import type { Engine } from '../support/engines';

/*
 * The old-database fixtures' files and the few things make-fixtures.ts and old-databases.test.ts
 * both do to a database: read its schema, load a fixture into it.
 */

export const FIXTURES_DIR = path.join(import.meta.dirname, 'fixtures');

/** The fixture of the first release that had `migration`, on `engine`. */
export const fixtureFile = (engine: Engine, migration: string) =>
  path.join(FIXTURES_DIR, engine, `${migration}.sql`);

/** Whether a database migrated to `at` has had `migration` applied. */
export const hasMigration = (at: string, migration: string) => {
  if (!MIGRATION_NAMES.includes(migration)) throw new Error(`no migration ${migration}`);
  return migration <= at;
};

/** A table's columns, in their order, for every table but the migrator's own and SQLite's. */
export type Schema = Map<string, string[]>;

export function sqliteSchema(db: SQLite.Database): Schema {
  const tables = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all() as Array<{ name: string }>;
  return new Map(
    tables.map(({ name }) => [
      name,
      (db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string }>).map(
        (c) => c.name,
      ),
    ]),
  );
}

export async function postgresSchema(client: pg.Client): Promise<Schema> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(`
    SELECT c.table_name, c.column_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position`);
  const schema: Schema = new Map();
  for (const row of rows) {
    const columns = schema.get(row.table_name) ?? [];
    columns.push(row.column_name);
    schema.set(row.table_name, columns);
  }
  return schema;
}

/**
 * What the schema says about each table, as text to compare: SQLite's own CREATE statements;
 * PostgreSQL's columns with their types, nullability and defaults, and its constraints and
 * indexes. Equal for a fixture and a database today's migrations took to the same point, unless
 * a shipped migration was changed.
 */
export async function schemaText(engine: Engine, target: string): Promise<string> {
  if (engine === 'sqlite') {
    const db = new SQLite(target, { readonly: true });
    try {
      const rows = db
        .prepare(
          `SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name`,
        )
        .all() as Array<{ type: string; name: string; sql: string }>;
      return rows.map((r) => `${r.type} ${r.name}: ${r.sql.replace(/\s+/g, ' ')}`).join('\n');
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    const columns = await client.query<Record<string, string>>(`
      SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, '') AS d
      FROM information_schema.columns WHERE table_schema = 'public'
      ORDER BY table_name, column_name`);
    const constraints = await client.query<Record<string, string>>(`
      SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def
      FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY t, conname`);
    const indexes = await client.query<Record<string, string>>(`
      SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`);
    return [
      ...columns.rows.map(
        (c) => `column ${c.table_name}.${c.column_name}: ${c.data_type} ${c.is_nullable} ${c.d}`,
      ),
      ...constraints.rows.map((c) => `constraint ${c.t}.${c.conname}: ${c.def}`),
      ...indexes.rows.map((i) => `index ${i.indexname}: ${i.indexdef}`),
    ].join('\n');
  } finally {
    await client.end();
  }
}

/** Loads a fixture's SQL into an empty SQLite file or PostgreSQL database. */
export async function loadFixture(engine: Engine, file: string, target: string): Promise<void> {
  if (engine === 'sqlite') {
    const db = new SQLite(target);
    try {
      db.exec(readFileSync(file, 'utf8'));
    } finally {
      db.close();
    }
    return;
  }
  // pg_dump's plain SQL (make-fixtures.ts leaves out psql's own commands), in one simple query.
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    await client.query(readFileSync(file, 'utf8'));
  } finally {
    await client.end();
  }
}
