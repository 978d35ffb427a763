import { type Kysely, type MigrationProvider, Migrator, sql } from 'kysely';
import type { StorageEngine } from '@pipit/protocol';
import { ACCOUNTS_APPS_AND_PUBLISHING } from './migration-steps/accounts-apps-and-publishing';
import type { EngineMigration } from './migration-steps/engine-migration';
import { HISTORY } from './migration-steps/history';
import { NOTIFICATIONS } from './migration-steps/notifications';
import { OPERATIONS } from './migration-steps/operations';
import { SPACES_AND_FILES } from './migration-steps/spaces-and-files';

/**
 * Versioned migrations (migration-steps/, by what their tables hold), applied in name order at
 * start-up. Never edit one that has shipped: add the next.
 */
const MIGRATIONS: Record<string, EngineMigration> = {
  ...ACCOUNTS_APPS_AND_PUBLISHING,
  ...SPACES_AND_FILES,
  ...NOTIFICATIONS,
  ...HISTORY,
  ...OPERATIONS,
};

export const MIGRATION_NAMES = Object.keys(MIGRATIONS).sort();

/** Every migration, for `engine`; tests use it to stop at an older version. */
export function migrationProvider(engine: StorageEngine): MigrationProvider {
  return {
    getMigrations: () =>
      Promise.resolve(
        Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, m(engine)])),
      ),
  };
}

export class MigrationError extends Error {}

/**
 * The migrations still to apply, given what the database records; refuses a database that
 * records one this Pipit does not know (a newer release migrated it).
 */
export function pendingMigrations(recorded: readonly string[]): string[] {
  const newer = recorded.filter((name) => !MIGRATION_NAMES.includes(name));
  if (newer.length > 0) {
    throw new MigrationError(
      `This database was migrated by a newer Pipit (${newer.join(', ')}), which this one does not know. Start that release or a newer one on it, or restore a backup made before the upgrade (docs/operations.md#upgrades).`,
    );
  }
  return MIGRATION_NAMES.filter((name) => !recorded.includes(name));
}

/**
 * Applies every pending migration; several instances starting at once take turns (Kysely's
 * lock). A database with nothing pending is only read (one query), never locked.
 */
export async function migrateToLatest(db: Kysely<unknown>, engine: StorageEngine): Promise<void> {
  if (pendingMigrations(await recordedMigrations(db, engine)).length === 0) return;
  const migrator = new Migrator({ db, provider: migrationProvider(engine) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new MigrationError(
      `Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`,
      { cause: error },
    );
  }
}

/** Every migration the database records as applied, known to this Pipit or not. */
export async function recordedMigrations(
  db: Kysely<unknown>,
  engine: StorageEngine,
): Promise<string[]> {
  const table =
    engine === 'postgres'
      ? sql<{ found: unknown }>`SELECT to_regclass('kysely_migration') AS found`
      : sql<{
          found: unknown;
        }>`SELECT name AS found FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`;
  const { rows: found } = await table.execute(db);
  if (found[0]?.found === undefined || found[0].found === null) return [];
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  return rows.map((row) => row.name);
}

export async function appliedMigrations(
  db: Kysely<unknown>,
  engine: StorageEngine,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider(engine) });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
