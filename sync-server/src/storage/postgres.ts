import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createKyselyStorage } from './kysely';
import { migrateToLatest } from './migrations';
import type { Database } from './schema';
import type { Storage } from './types';

const INT8_OID = 20;

/**
 * Timestamps are int8 epoch milliseconds; pg returns int8 as a string by default (it may exceed 2^53).
 * Ours never do, so this pool parses them to numbers, without touching pg's global parsers.
 */
export const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Bounds on waiting for PostgreSQL, so a partition shows up as an error (and retry), not a hang. */
export const PG_CONNECT_TIMEOUT_MS = 10_000;
export const PG_STATEMENT_TIMEOUT_MS = 30_000;
/** Connections for everything but the update log, and for the update log (group commits). */
export const POOL_SIZE = 10;
export const LOG_POOL_SIZE = 2;

export async function openPostgresStorage(
  connectionString: string,
  options: { onPoolError?: (error: Error) => void } = {},
): Promise<Storage> {
  const newPool = (max: number) => {
    const pool = new pg.Pool({
      connectionString,
      types,
      max,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      statement_timeout: PG_STATEMENT_TIMEOUT_MS,
      query_timeout: PG_STATEMENT_TIMEOUT_MS + 5_000,
      keepAlive: true,
    });
    // An idle client's error (the server restarting) must not crash the process: the pool replaces
    // the client, and the error is reported.
    pool.on('error', (error) => options.onPoolError?.(error));
    // A client in use (between two statements of a transaction) whose connection breaks emits its
    // error outside any query; with no listener, that would end the process. The statement it runs
    // next fails instead, and the work is retried (the update log, stores) or answered 503.
    pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
    return pool;
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: newPool(POOL_SIZE) }) });
  try {
    await migrateToLatest(db as Kysely<unknown>, 'postgres');
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // The update log's own connections: every acknowledgement waits for an append, so appends never
  // queue behind stores, loads and API requests for the pool's connections.
  const logPool = newPool(LOG_POOL_SIZE);

  return createKyselyStorage(db, {
    engine: 'postgres',
    // One named (prepared once per connection) statement for any batch: the rows as arrays.
    async appendUpdates(entries, at) {
      const result = await logPool.query<{ seq: string | number }>({
        name: 'pipit_append_updates',
        text:
          'INSERT INTO document_updates (name, "update", created_at) ' +
          'SELECT name, "update", $3::int8 FROM unnest($1::text[], $2::bytea[]) AS t(name, "update") ' +
          'RETURNING seq',
        values: [
          entries.map((e) => e.name),
          entries.map((e) =>
            Buffer.from(e.update.buffer, e.update.byteOffset, e.update.byteLength),
          ),
          at,
        ],
      });
      return result.rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
    },
    afterClose: () => logPool.end(),
    uniqueViolation(error) {
      if (!(error instanceof pg.DatabaseError) || error.code !== '23505') return null;
      // "Key (email)=(a@b.c) already exists."
      const field = /^Key \((\w+)\)/.exec(error.detail ?? '')?.[1];
      return { field };
    },
  });
}
