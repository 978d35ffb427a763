import type { Selectable, Updateable } from 'kysely';
import { avatarSchema } from '@pipit/protocol';
import type { Database } from '../schema';
import { ConflictError, NotFoundError } from '../types/errors';
import type { NewUser, UserPatch, UserRecord, UserStore } from '../types/users';
import { type Db, type EngineSpecifics, mapConflict } from './shared';

export const DEFAULT_AVATAR = { kind: 'emoji', emoji: '🐦', color: '#1a7f5a' } as const;

export function toUser(row: Selectable<Database['users']>): UserRecord {
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

function toRow(patch: UserPatch): Updateable<Database['users']> {
  const row: Updateable<Database['users']> = {};
  if (patch.username !== undefined) row.username = patch.username.toLowerCase();
  if (patch.email !== undefined) row.email = patch.email.toLowerCase();
  if (patch.emailVerifiedAt !== undefined) row.email_verified_at = patch.emailVerifiedAt;
  if (patch.pendingEmail !== undefined)
    row.pending_email = patch.pendingEmail?.toLowerCase() ?? null;
  if (patch.passwordHash !== undefined) row.password_hash = patch.passwordHash;
  if (patch.displayName !== undefined) row.display_name = patch.displayName;
  if (patch.bio !== undefined) row.bio = patch.bio;
  if (patch.avatar !== undefined) row.avatar = JSON.stringify(patch.avatar);
  if (patch.links !== undefined) row.links = JSON.stringify(patch.links);
  if (patch.pinnedAppIds !== undefined) row.pinned_app_ids = JSON.stringify(patch.pinnedAppIds);
  return row;
}

/**
 * What a deleted account keeps: nothing personal, an address that can never receive mail, and a
 * username no one can choose ("~" is not allowed in one); its real username is held.
 */
function deletedRow(id: string, at: number): Updateable<Database['users']> {
  return {
    deleted_at: at,
    username: `~deleted~${id}`,
    email: `deleted+${id}@pipit.invalid`,
    pending_email: null,
    password_hash: '!deleted',
    display_name: '',
    bio: '',
    avatar: JSON.stringify(DEFAULT_AVATAR),
    links: '[]',
    pinned_app_ids: '[]',
  };
}

/**
 * Refuses `username` while it is held for another account, and ends a hold the account itself has
 * on it (taking back a name it gave up). Called after the row takes the name, in the same
 * transaction: on PostgreSQL, a rename away from this name that is still in flight makes that write
 * wait until it commits, hold included, so this read sees the hold.
 */
async function claim(trx: Db, username: string, userId: string): Promise<void> {
  const held = await trx
    .selectFrom('username_holds')
    .select('user_id')
    .where('username', '=', username)
    .executeTakeFirst();
  if (!held) return;
  if (held.user_id !== userId) throw new ConflictError('username');
  await trx.deleteFrom('username_holds').where('username', '=', username).execute();
}

/** Holds a name an account gave up (renamed away from, or deleted with) from `at`. */
async function hold(trx: Db, username: string, userId: string, at: number): Promise<void> {
  await trx
    .insertInto('username_holds')
    .values({ username, user_id: userId, held_at: at })
    .onConflict((oc) => oc.column('username').doUpdateSet({ user_id: userId, held_at: at }))
    .execute();
}

export function createUserStore(db: Db, specifics: EngineSpecifics): UserStore {
  const live = () => db.selectFrom('users').selectAll().where('deleted_at', 'is', null);

  return {
    async insert(user: NewUser) {
      const row = {
        id: user.id,
        username: user.username.toLowerCase(),
        email: user.email.toLowerCase(),
        email_verified_at: user.emailVerifiedAt ?? null,
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
      await mapConflict(specifics, () =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('users').values(row).execute();
          await claim(trx, row.username, row.id);
        }),
      );
      return toUser(row);
    },
    async findByUsername(username) {
      const row = await live().where('username', '=', username.toLowerCase()).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async findByEmail(email) {
      const row = await live().where('email', '=', email.toLowerCase()).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async findByIds(ids) {
      if (ids.length === 0) return new Map();
      const rows = await live()
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((row) => [row.id, toUser(row)]));
    },
    async findById(id) {
      const row = await live().where('id', '=', id).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async update(id, patch, at = Date.now()) {
      if (Object.keys(toRow(patch)).length === 0) {
        // Nothing to set: no statement (an empty SET is not SQL).
        const row = await live().where('id', '=', id).executeTakeFirst();
        if (!row) throw new NotFoundError(`No live account ${id}`);
        return toUser(row);
      }
      if (patch.username === undefined) {
        const row = await mapConflict(specifics, () =>
          db
            .updateTable('users')
            .set(toRow(patch))
            .where('id', '=', id)
            .where('deleted_at', 'is', null)
            .returningAll()
            .executeTakeFirst(),
        );
        if (!row) throw new NotFoundError(`No live account ${id}`);
        return toUser(row);
      }
      const row = await mapConflict(specifics, () =>
        db.transaction().execute(async (trx) => {
          const before = await trx
            .selectFrom('users')
            .select('username')
            .where('id', '=', id)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (!before) return undefined;
          const after = await trx
            .updateTable('users')
            .set(toRow(patch))
            .where('id', '=', id)
            // A rename that raced this one changed the name read above: its hold would be lost.
            .where('username', '=', before.username)
            .returningAll()
            .executeTakeFirst();
          if (!after) throw new ConflictError('username');
          if (after.username !== before.username) {
            await claim(trx, after.username, id);
            await hold(trx, before.username, id, at);
          }
          return after;
        }),
      );
      if (!row) throw new NotFoundError(`No live account ${id}`);
      return toUser(row);
    },
    async markDeleted(id, at) {
      await db.transaction().execute(async (trx) => {
        const user = await trx
          .selectFrom('users')
          .select('username')
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!user) return;
        await trx.updateTable('users').set(deletedRow(id, at)).where('id', '=', id).execute();
        await hold(trx, user.username, id, at);
      });
    },
    async releaseUsername(username, heldBefore) {
      const result = await db
        .deleteFrom('username_holds')
        .where('username', '=', username.toLowerCase())
        .where('held_at', '<=', heldBefore)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async usernameInUse(username, asker) {
      const name = username.toLowerCase();
      const [account, held] = await Promise.all([
        db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirst(),
        db
          .selectFrom('username_holds')
          .select('user_id')
          .where('username', '=', name)
          .executeTakeFirst(),
      ]);
      return account !== undefined || (held !== undefined && held.user_id !== asker);
    },
  };
}
