import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
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

/** Applies every pending migration; several instances starting at once take turns (Kysely's lock). */
export async function migrateToLatest(db: Kysely<unknown>, engine: StorageEngine): Promise<void> {
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

export async function appliedMigrations(
  db: Kysely<unknown>,
  engine: StorageEngine,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider(engine) });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
