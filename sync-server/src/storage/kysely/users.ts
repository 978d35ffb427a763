import type { Selectable, Updateable } from 'kysely';
import { avatarSchema } from '@pipit/protocol';
import type { Database } from '../schema';
import {
  NotFoundError,
  type NewUser,
  type UserPatch,
  type UserRecord,
  type UserStore,
} from '../types';
import { type Db, type EngineSpecifics, mapConflict } from './shared';

export const DEFAULT_AVATAR = { kind: 'emoji', emoji: '🐦', color: '#1a7f5a' } as const;

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

/** What a deleted account keeps: nothing personal, an address that can never receive mail. */
function deletedRow(id: string, at: number): Updateable<Database['users']> {
  return {
    deleted_at: at,
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
      await mapConflict(specifics, () => db.insertInto('users').values(row).execute());
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
    async update(id, patch) {
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
    },
    async markDeleted(id, at) {
      await db.updateTable('users').set(deletedRow(id, at)).where('id', '=', id).execute();
    },
    async releaseUsername(username, deletedBefore) {
      const result = await db
        .updateTable('users')
        // "~" cannot appear in a username, so the freed row can never collide again.
        .set({ username: `~released~${username.toLowerCase()}~${Date.now()}` })
        .where('username', '=', username.toLowerCase())
        .where('deleted_at', 'is not', null)
        .where('deleted_at', '<=', deletedBefore)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async usernameInUse(username) {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('username', '=', username.toLowerCase())
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
