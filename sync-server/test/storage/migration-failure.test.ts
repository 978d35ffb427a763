import { afterAll, describe, expect, it } from 'vitest';
import { type Kysely, sql } from 'kysely';
import { appliedMigrations, MIGRATION_NAMES, MigrationError } from '../../src/storage/migrations';
import { ENGINES } from '../support/engines';
import { type Cleanups, oldDatabase } from '../support/migrated-database';

/**
 * A migration that fails at start-up leaves the database as it was (docs/operations.md#upgrades):
 * on both engines, a database two migrations behind, in which the second would create a table
 * that is already there (one an operator made by hand), refuses to start with the migration's
 * name, and afterwards holds neither migration — the first, which succeeded, taken back too — and
 * everything it held before. Once the stray table is gone, the next start migrates it.
 */

const cleanups: Cleanups = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const FIRST = '0029_app_drafts';
const FAILING = '0030_backup_runs';

async function tables(db: Kysely<unknown>, engine: string): Promise<string[]> {
  const query =
    engine === 'sqlite'
      ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`
      : sql<{
          name: string;
        }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`;
  return (await query.execute(db)).rows.map((r) => r.name);
}

describe.each(ENGINES)('a migration that fails (%s)', (engine) => {
  it('leaves the database as it was, and the next start migrates it once the cause is gone', async () => {
    expect(MIGRATION_NAMES.indexOf(FAILING)).toBe(MIGRATION_NAMES.indexOf(FIRST) + 1);
    const { open, connect } = await oldDatabase(
      engine,
      FIRST,
      async (db) => {
        await sql`CREATE TABLE backup_runs (note text)`.execute(db);
        await sql`INSERT INTO backup_runs (note) VALUES ('made by hand')`.execute(db);
      },
      cleanups,
    );
    const before = MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf(FIRST));
    const refused = open();
    await expect(refused).rejects.toThrow(MigrationError);
    await expect(refused).rejects.toThrow(new RegExp(`Migration ${FAILING} failed`));

    const db = connect();
    try {
      expect(await appliedMigrations(db, engine)).toEqual(before);
      // The migration that succeeded before the failing one is taken back with it.
      expect(await tables(db, engine)).not.toContain('app_drafts');
      const stray = await sql<{ note: string }>`SELECT note FROM backup_runs`.execute(db);
      expect(stray.rows).toEqual([{ note: 'made by hand' }]);
      // The operator moves the stray table away.
      await sql`DROP TABLE backup_runs`.execute(db);
    } finally {
      await db.destroy();
    }
    const storage = await open();
    try {
      expect(await storage.appliedMigrations()).toEqual(MIGRATION_NAMES);
      expect(await storage.backupRuns.recent(1)).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});

describe.each(ENGINES)('a database a newer Pipit migrated (%s)', (engine) => {
  it('is refused at start-up with what to do, and left as it was', async () => {
    const last = MIGRATION_NAMES.at(-1)!;
    const { open, connect } = await oldDatabase(engine, last, () => Promise.resolve(), cleanups);
    // Today's Pipit migrates it, then a newer one adds a migration this one does not know.
    const storage = await open();
    await storage.close();
    const future = '9999_from_a_newer_pipit';
    let db = connect();
    try {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${future}, ${new Date().toISOString()})`.execute(
        db,
      );
    } finally {
      await db.destroy();
    }
    const refused = open();
    await expect(refused).rejects.toThrow(MigrationError);
    await expect(refused).rejects.toThrow(
      /migrated by a newer Pipit \(9999_from_a_newer_pipit\).*restore a backup made before the upgrade/,
    );
    db = connect();
    try {
      const recorded = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
      expect(recorded.rows.map((r) => r.name).sort()).toEqual([...MIGRATION_NAMES, future].sort());
    } finally {
      await db.destroy();
    }
  });
});
