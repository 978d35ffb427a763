import type { Config } from '../config';
import { openPostgresStorage } from './postgres';
import { openSqliteStorage } from './sqlite';
import type { Storage } from './types';

/** PostgreSQL when DATABASE_URL is set, else SQLite under DATA_DIR; migrated before it returns. */
export function openStorage(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Storage> {
  return config.databaseUrl
    ? openPostgresStorage(config.databaseUrl)
    : openSqliteStorage(config.dataDir);
}
