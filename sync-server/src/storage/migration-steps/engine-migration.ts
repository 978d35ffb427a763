import type { Migration } from 'kysely';
import type { StorageEngine } from '@pipit/protocol';

/**
 * A versioned migration (../migrations.ts). Never edit one that has shipped: add the next. Each
 * receives the engine for the few types that differ (BLOB vs BYTEA).
 */
export type EngineMigration = (engine: StorageEngine) => Migration;
