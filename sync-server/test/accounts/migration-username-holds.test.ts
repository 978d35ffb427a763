import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import { ENGINES } from '../support/engines';
import { databaseBefore } from '../support/migrated-database';

const HOLDS = '0007_username_holds';

/**
 * A database that deleted accounts before username holds had a table of their own: each kept its
 * name in its own row. The migration moves those names into holds, from the time of deletion.
 */
describe.each(ENGINES)(`migration ${HOLDS} on %s`, (engine) => {
  const cleanups: Array<() => Promise<void>> = [];
  const poolErrors: Error[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    expect(poolErrors.splice(0)).toEqual([]);
  });

  // The old database is migrated and written, then closed: the storage opens it as the server
  // would, alone.
  const databaseBeforeHolds = (seed: (db: Kysely<unknown>) => Promise<void>) =>
    databaseBefore(engine, HOLDS, seed, cleanups, poolErrors);

  const user = (id: string, username: string, deletedAt: number | null) => sql`
    INSERT INTO users (id, username, email, password_hash, avatar, created_at, deleted_at)
    VALUES (${id}, ${username}, ${`${id}@example.org`}, 'x', '{"kind":"emoji","emoji":"🐦","color":"#1a7f5a"}', 1, ${deletedAt})
  `;

  it('holds the names of accounts deleted before it, from their deletion', async () => {
    const open = await databaseBeforeHolds(async (db) => {
      await user('gone', 'gone', 1_000).execute(db);
      await user('freed', '~released~freed~5', 2_000).execute(db);
      await user('here', 'here', null).execute(db);
    });

    const storage = await open();
    cleanups.push(() => storage.close());
    expect(await storage.appliedMigrations()).toEqual(MIGRATION_NAMES);
    // The deleted account's name is held as it was, and is released on the same schedule.
    expect(await storage.users.usernameInUse('gone')).toBe(true);
    await expect(
      storage.users.insert({
        id: 'n1',
        username: 'gone',
        email: 'n1@example.org',
        passwordHash: 'x',
      }),
    ).rejects.toMatchObject({ field: 'username' });
    expect(await storage.users.releaseUsername('gone', 999)).toBe(false);
    expect(await storage.users.releaseUsername('gone', 1_000)).toBe(true);
    await storage.users.insert({
      id: 'n2',
      username: 'gone',
      email: 'n2@example.org',
      passwordHash: 'x',
    });
    // An already released name stays free; a live account keeps its name and holds nothing.
    expect(await storage.users.usernameInUse('freed')).toBe(false);
    expect((await storage.users.findByUsername('here'))?.id).toBe('here');
    expect(await storage.users.releaseUsername('here', Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});
