import type { Config } from '../config';
import type { Logger } from '../logger';
import { openPostgresStorage } from './postgres';
import { openSqliteStorage } from './sqlite';
import type { Storage } from './types';

/** PostgreSQL when DATABASE_URL is set, else SQLite under DATA_DIR; migrated before it returns. */
export function openStorage(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  logger?: Logger,
): Promise<Storage> {
  return config.databaseUrl
    ? openPostgresStorage(config.databaseUrl, {
        // The message and code only: pg hangs its client (with the connection's settings, the
        // password among them) on such errors.
        onPoolError: (error) =>
          logger?.warn(
            { err: { message: error.message, code: (error as { code?: unknown }).code } },
            'a PostgreSQL connection failed',
          ),
      })
    : openSqliteStorage(config.dataDir);
}
