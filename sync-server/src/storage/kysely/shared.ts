import type { Kysely, Transaction } from 'kysely';
import type { StorageEngine } from '@pipit/protocol';
import type { Database } from '../schema';
import { ConflictError } from '../types/errors';

export type Db = Kysely<Database>;

export interface EngineSpecifics {
  engine: StorageEngine;
  /** Names the column of a unique-constraint error, or returns null when `error` is not one. */
  uniqueViolation(error: unknown): { field: string | undefined } | null;
  /** Called after the database is destroyed (closing the SQLite file, ending the pool). */
  afterClose?(): void | Promise<void>;
  /**
   * Appends to the update log, when the engine has a faster way than the query builder: the
   * hottest statement of all (every edit of every person), one prepared statement whatever the
   * batch's size (PostgreSQL).
   */
  appendUpdates?(
    entries: Array<{ name: string; update: Uint8Array }>,
    at: number,
  ): Promise<number[]>;
}

/** Engines hand back Buffer (a Uint8Array subclass); callers get a plain Uint8Array. */
export function toUint8Array(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice();
}

/** A person read through a left join of `users` (null: none, or their account is deleted). */
export const joinedPerson = (
  id: string | null,
  username: string | null,
  displayName: string | null,
) => (id && username ? { id, username, displayName: displayName ?? '' } : null);

/**
 * Deletes an app's closed rows (suggestions, drafts) past the newest `keep`, by when they closed:
 * the record of what became of them is kept, within bounds.
 */
export async function keepNewestClosed(
  db: Db,
  table: 'app_suggestions' | 'app_drafts',
  appId: string,
  keep: number,
): Promise<void> {
  const edge = await db
    .selectFrom(table)
    .select(['closed_at', 'id'])
    .where('app_id', '=', appId)
    .where('status', '!=', 'open')
    .orderBy('closed_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (!edge || edge.closed_at === null) return;
  const closedAt = Number(edge.closed_at);
  await db
    .deleteFrom(table)
    .where('app_id', '=', appId)
    .where('status', '!=', 'open')
    .where((eb) =>
      eb.or([
        eb('closed_at', '<', closedAt),
        eb.and([eb('closed_at', '=', closedAt), eb('id', '<=', edge.id)]),
      ]),
    )
    .execute();
}

/** Runs a write, turning the engine's unique-constraint error into a ConflictError. */
export async function mapConflict<T>(
  specifics: EngineSpecifics,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const conflict = specifics.uniqueViolation(error);
    if (conflict) throw new ConflictError(conflict.field);
    throw error;
  }
}

/**
 * Holds a person's or a space's row until the transaction ends, so that what a limit counts
 * against it (a person's apps, spaces and upload bytes; a space's people and links) cannot change
 * meanwhile: requests sent together take turns, and no limit is passed by racing.
 * PostgreSQL locks the row `FOR NO KEY UPDATE`, which waits for another holder but not for the
 * foreign-key checks of rows that point at it (a person's sign-ins go on); SQLite runs one
 * transaction at a time already. Callers holding two hold the space before the person, so two
 * transactions never wait for each other in a circle.
 */
export async function holdRow(
  trx: Transaction<Database>,
  engine: StorageEngine,
  table: 'users' | 'spaces',
  id: string,
): Promise<void> {
  if (engine !== 'postgres') return;
  await trx.selectFrom(table).select('id').where('id', '=', id).forNoKeyUpdate().execute();
}
