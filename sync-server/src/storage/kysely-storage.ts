import type { Kysely, Selectable } from 'kysely';
import { avatarSchema, type StorageEngine } from '@pipit/protocol';
import { appliedMigrations } from './migrations';
import type { Database } from './schema';
import type { NewUser, Storage, UserRecord } from './types';
import { ConflictError } from './types';

const DEFAULT_AVATAR = { kind: 'emoji', emoji: '🐦', color: '#1a7f5a' } as const;

export interface EngineSpecifics {
  engine: StorageEngine;
  /** Names the column of a unique-constraint error, or returns null when `error` is not one. */
  uniqueViolation(error: unknown): { field: string | undefined } | null;
  /** Called after the database is destroyed (closing the SQLite file, ending the pool). */
  afterClose?(): void | Promise<void>;
}

/** Engines hand back Buffer (a Uint8Array subclass); callers get a plain Uint8Array. */
function toUint8Array(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice();
}

function toUser(row: Selectable<Database['users']>): UserRecord {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerifiedAt: row.email_verified_at,
    pendingEmail: row.pending_email,
    passwordHash: row.password_hash,
    displayName: row.display_name,
    bio: row.bio,
    avatar: avatarSchema.parse(JSON.parse(row.avatar)),
    links: JSON.parse(row.links) as UserRecord['links'],
    pinnedAppIds: JSON.parse(row.pinned_app_ids) as string[],
    createdAt: row.created_at,
    deletedAt: row.deleted_at,
  };
}

/**
 * The storage interface over Kysely: queries are written once and run on both engines; each adapter
 * supplies its dialect and the few engine specifics.
 */
export function createKyselyStorage(db: Kysely<Database>, specifics: EngineSpecifics): Storage {
  const { engine } = specifics;

  async function mapConflict<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const conflict = specifics.uniqueViolation(error);
      if (conflict) throw new ConflictError(conflict.field);
      throw error;
    }
  }

  return {
    engine,

    documents: {
      async load(name) {
        const row = await db
          .selectFrom('documents')
          .select('state')
          .where('name', '=', name)
          .executeTakeFirst();
        return row ? toUint8Array(row.state) : null;
      },
      async store(name, state) {
        const updatedAt = Date.now();
        await db
          .insertInto('documents')
          .values({ name, state, updated_at: updatedAt })
          .onConflict((oc) => oc.column('name').doUpdateSet({ state, updated_at: updatedAt }))
          .execute();
      },
      async delete(name) {
        await db.deleteFrom('documents').where('name', '=', name).execute();
      },
    },

    users: {
      async insert(user: NewUser) {
        const row = {
          id: user.id,
          username: user.username.toLowerCase(),
          email: user.email.toLowerCase(),
          email_verified_at: null,
          pending_email: null,
          password_hash: user.passwordHash,
          display_name: user.displayName ?? user.username,
          bio: user.bio ?? '',
          avatar: JSON.stringify(user.avatar ?? DEFAULT_AVATAR),
          links: JSON.stringify(user.links ?? []),
          pinned_app_ids: '[]',
          created_at: user.createdAt ?? Date.now(),
          deleted_at: null,
        };
        await mapConflict(() => db.insertInto('users').values(row).execute());
        return toUser(row);
      },
      async findByUsername(username) {
        const row = await db
          .selectFrom('users')
          .selectAll()
          .where('username', '=', username.toLowerCase())
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        return row ? toUser(row) : null;
      },
    },

    appliedMigrations: () => appliedMigrations(db as Kysely<unknown>, engine),

    async ping() {
      await db.selectFrom('documents').select('name').limit(1).execute();
    },

    async close() {
      await db.destroy();
      await specifics.afterClose?.();
    },
  };
}
