import { sql } from 'kysely';
import type {
  SpaceEndingReason,
  SpaceGrantableRole,
  SpaceRole,
  StorageEngine,
} from '@pipit/protocol';
import type { JoinOutcome, SpaceInviteRecord, SpaceRecord, SpaceStore } from '../types/spaces';
import { type Db, holdRow } from './shared';

type Trx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];

interface SpaceRow {
  id: string;
  app_id: string;
  owner_id: string;
  name: string;
  created_at: number;
}

function toSpace(row: SpaceRow): SpaceRecord {
  return {
    id: row.id,
    appId: row.app_id,
    ownerId: row.owner_id,
    name: row.name,
    createdAt: Number(row.created_at),
  };
}

interface InviteRow {
  id: string;
  space_id: string;
  role: string;
  created_by: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

function toInvite(row: InviteRow): SpaceInviteRecord {
  return {
    id: row.id,
    spaceId: row.space_id,
    role: row.role as SpaceGrantableRole,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

const SPACE_COLUMNS = [
  'spaces.id',
  'spaces.app_id',
  'spaces.owner_id',
  'spaces.name',
  'spaces.created_at',
] as const;

/** How many memberships one person has (all spaces), or one space has (its people). */
async function countMemberships(on: Db | Trx, column: 'user_id' | 'space_id', id: string) {
  const row = await on
    .selectFrom('space_members')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Shared spaces (docs/product/spaces.md): the spaces themselves, the people in them, the endings
 * they are told about, and the invitation links.
 */
export function createSpaceStore(db: Db, engine: StorageEngine): SpaceStore {
  return {
    ...spaceCreation(db, engine),
    ...spaceReads(db),
    ...spaceChanges(db),
    ...spaceMembership(db, engine),
    ...spaceMembers(db),
    ...spaceEndings(db),
    ...spaceInvites(db, engine),
  };
}

/** Making a space, within the limits on spaces per person. */
function spaceCreation(db: Db, engine: StorageEngine): Pick<SpaceStore, 'insert'> {
  const hold = (trx: Trx, table: 'users' | 'spaces', id: string) => holdRow(trx, engine, table, id);
  return {
    insert(space, limits) {
      return db.transaction().execute(async (trx) => {
        await hold(trx, 'users', space.ownerId);
        if ((await countMemberships(trx, 'user_id', space.ownerId)) >= limits.spacesPerPerson) {
          // The same device asking again for a space it made is answered with it, full or not.
          const known = await trx
            .selectFrom('spaces')
            .select([...SPACE_COLUMNS, 'spaces.deleted_at'])
            .where('id', '=', space.id)
            .executeTakeFirst();
          if (!known) return { created: false as const, full: true as const };
          return {
            created: false as const,
            existing: known.deleted_at === null ? toSpace(known) : null,
          };
        }
        // The id is claimed by the row itself; a deleted space keeps its row, so its id stays taken.
        const claimed = await trx
          .insertInto('spaces')
          .values({
            id: space.id,
            app_id: space.appId,
            owner_id: space.ownerId,
            name: space.name,
            created_at: space.createdAt,
            deleted_at: null,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!claimed) {
          const known = await trx
            .selectFrom('spaces')
            .select([...SPACE_COLUMNS, 'spaces.deleted_at'])
            .where('id', '=', space.id)
            .$if(engine === 'postgres', (q) => q.forShare())
            .executeTakeFirst();
          return {
            created: false as const,
            existing: known && known.deleted_at === null ? toSpace(known) : null,
          };
        }
        await trx
          .insertInto('space_members')
          .values({
            space_id: space.id,
            user_id: space.ownerId,
            app_id: space.appId,
            role: 'owner',
            joined_at: space.createdAt,
          })
          .execute();
        return { created: true as const };
      });
    },
  };
}

/** Reading spaces that exist, and whether one was deleted. */
function spaceReads(
  db: Db,
): Pick<
  SpaceStore,
  'get' | 'wasDeleted' | 'getWithRole' | 'listForUser' | 'countForUser' | 'idsOf'
> {
  return {
    async get(id) {
      const row = await db
        .selectFrom('spaces')
        .select(SPACE_COLUMNS)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return row ? toSpace(row) : null;
    },

    async wasDeleted(id) {
      const row = await db
        .selectFrom('spaces')
        .select('deleted_at')
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined && row.deleted_at !== null;
    },

    async getWithRole(id, userId) {
      const row = await db
        .selectFrom('spaces')
        .leftJoin('space_members', (join) =>
          join
            .onRef('space_members.space_id', '=', 'spaces.id')
            .on('space_members.user_id', '=', userId),
        )
        .select([...SPACE_COLUMNS, 'space_members.role'])
        .where('spaces.id', '=', id)
        .where('spaces.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row) return null;
      return { space: toSpace(row), role: (row.role as SpaceRole | null) ?? null };
    },

    async listForUser(userId, appId) {
      const rows = await db
        .selectFrom('space_members as mine')
        .innerJoin('spaces', 'spaces.id', 'mine.space_id')
        .select([...SPACE_COLUMNS, 'mine.role'])
        .select((eb) =>
          eb
            .selectFrom('space_members as everyone')
            .select((inner) => inner.fn.countAll<number>().as('count'))
            .whereRef('everyone.space_id', '=', 'spaces.id')
            .as('member_count'),
        )
        .where('mine.user_id', '=', userId)
        .$if(appId !== undefined, (q) => q.where('mine.app_id', '=', appId!))
        .where('spaces.deleted_at', 'is', null)
        .orderBy('spaces.created_at')
        .orderBy('spaces.id')
        .execute();
      return rows.map((row) => ({
        ...toSpace(row),
        role: row.role as SpaceRole,
        memberCount: Number(row.member_count ?? 0),
      }));
    },

    countForUser: (userId) => countMemberships(db, 'user_id', userId),

    async idsOf(of) {
      const rows = await db
        .selectFrom('spaces')
        .select('id')
        .$if('appId' in of, (q) => q.where('app_id', '=', (of as { appId: string }).appId))
        .$if('ownerId' in of, (q) => q.where('owner_id', '=', (of as { ownerId: string }).ownerId))
        .where('deleted_at', 'is', null)
        .orderBy('created_at')
        .execute();
      return rows.map((row) => row.id);
    },
  };
}

/** Renaming and deleting a space (its people are told it ended). */
function spaceChanges(db: Db): Pick<SpaceStore, 'rename' | 'delete'> {
  return {
    async rename(id, name) {
      const row = await db
        .updateTable('spaces')
        .set({ name })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .returning(SPACE_COLUMNS)
        .executeTakeFirst();
      return row ? toSpace(row) : null;
    },

    async delete(id, at, deletion) {
      await db.transaction().execute(async (trx) => {
        const marked = await trx
          .updateTable('spaces')
          .set({ deleted_at: at })
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        // Everyone still in it is told, once: a deletion run again (a removal that failed
        // half-way) finds no members left and tells nobody twice.
        if (Number(marked.numUpdatedRows) > 0) {
          await trx
            .insertInto('space_endings')
            .columns(['space_id', 'user_id', 'app_id', 'why', 'ended_at'])
            .expression((eb) =>
              eb
                .selectFrom('space_members')
                .select((inner) => [
                  'space_members.space_id',
                  'space_members.user_id',
                  'space_members.app_id',
                  inner.val(deletion.why).as('why'),
                  // Typed, so PostgreSQL does not take the parameter for text.
                  sql<number>`cast(${at} as bigint)`.as('ended_at'),
                ])
                .where('space_members.space_id', '=', id)
                .$if(deletion.by !== null, (q) =>
                  q.where('space_members.user_id', '!=', deletion.by!),
                ),
            )
            .onConflict((oc) => oc.columns(['space_id', 'user_id']).doNothing())
            .execute();
          // People the owner took out are told the space has now ended too (they may still hold
          // its link, or wonder whether they are let back in).
          await trx
            .insertInto('space_endings')
            .columns(['space_id', 'user_id', 'app_id', 'why', 'ended_at'])
            .expression((eb) =>
              eb
                .selectFrom('space_removals')
                .innerJoin('spaces', 'spaces.id', 'space_removals.space_id')
                .select((inner) => [
                  'space_removals.space_id',
                  'space_removals.user_id',
                  'spaces.app_id',
                  inner.val(deletion.why).as('why'),
                  sql<number>`cast(${at} as bigint)`.as('ended_at'),
                ])
                .where('space_removals.space_id', '=', id),
            )
            .onConflict((oc) =>
              oc.columns(['space_id', 'user_id']).doUpdateSet({ why: deletion.why, ended_at: at }),
            )
            .execute();
        }
        await trx.deleteFrom('space_members').where('space_id', '=', id).execute();
        await trx.deleteFrom('space_invites').where('space_id', '=', id).execute();
      });
    },
  };
}

/** Joining a space and leaving it: within its limits, and the owner taking someone out. */
function spaceMembership(
  db: Db,
  engine: StorageEngine,
): Pick<SpaceStore, 'join' | 'removeMember' | 'removeMemberships'> {
  const hold = (trx: Trx, table: 'users' | 'spaces', id: string) => holdRow(trx, engine, table, id);
  return {
    join(member, limits, how) {
      return db.transaction().execute(async (trx): Promise<JoinOutcome> => {
        await hold(trx, 'spaces', member.spaceId);
        await hold(trx, 'users', member.userId);
        const space = await trx
          .selectFrom('spaces')
          .select(['app_id', 'deleted_at'])
          .where('id', '=', member.spaceId)
          .executeTakeFirst();
        if (!space || space.deleted_at !== null) return 'gone';
        const already = await trx
          .selectFrom('space_members')
          .select('role')
          .where('space_id', '=', member.spaceId)
          .where('user_id', '=', member.userId)
          .executeTakeFirst();
        if (already) return 'already';
        const removal = trx
          .selectFrom('space_removals')
          .where('space_id', '=', member.spaceId)
          .where('user_id', '=', member.userId);
        if (how.viaLink && (await removal.select('user_id').executeTakeFirst())) return 'barred';
        if ((await countMemberships(trx, 'space_id', member.spaceId)) >= limits.membersPerSpace) {
          return 'space_full';
        }
        if ((await countMemberships(trx, 'user_id', member.userId)) >= limits.spacesPerPerson) {
          return 'person_full';
        }
        for (const table of ['space_removals', 'space_endings'] as const) {
          await trx
            .deleteFrom(table)
            .where('space_id', '=', member.spaceId)
            .where('user_id', '=', member.userId)
            .execute();
        }
        await trx
          .insertInto('space_members')
          .values({
            space_id: member.spaceId,
            user_id: member.userId,
            app_id: space.app_id,
            role: member.role,
            joined_at: member.joinedAt,
          })
          .execute();
        return 'joined';
      });
    },

    removeMember(spaceId, userId, barredAt) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('space_members')
          .where('space_id', '=', spaceId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        const removed = Number(result.numDeletedRows) > 0;
        if (removed && barredAt !== undefined) {
          await trx
            .insertInto('space_removals')
            .values({ space_id: spaceId, user_id: userId, removed_at: barredAt })
            .onConflict((oc) =>
              oc.columns(['space_id', 'user_id']).doUpdateSet({ removed_at: barredAt }),
            )
            .execute();
          // They are told, on every device, that the owner took them out (not that they left).
          await trx
            .insertInto('space_endings')
            .columns(['space_id', 'user_id', 'app_id', 'why', 'ended_at'])
            .expression((eb) =>
              eb
                .selectFrom('spaces')
                .select((inner) => [
                  'spaces.id',
                  inner.val(userId).as('user_id'),
                  'spaces.app_id',
                  inner.val('removed').as('why'),
                  sql<number>`cast(${barredAt} as bigint)`.as('ended_at'),
                ])
                .where('spaces.id', '=', spaceId),
            )
            .onConflict((oc) =>
              oc
                .columns(['space_id', 'user_id'])
                .doUpdateSet({ why: 'removed', ended_at: barredAt }),
            )
            .execute();
        }
        return removed;
      });
    },

    async removeMemberships(userId) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('space_members').where('user_id', '=', userId).execute();
        await trx.deleteFrom('space_endings').where('user_id', '=', userId).execute();
        await trx.deleteFrom('space_removals').where('user_id', '=', userId).execute();
      });
    },
  };
}

/** The people in a space, their roles, and who the owner took out. */
function spaceMembers(
  db: Db,
): Pick<SpaceStore, 'members' | 'memberCount' | 'isBarred' | 'setRole'> {
  return {
    async members(spaceId) {
      const rows = await db
        .selectFrom('space_members')
        .select(['space_id', 'user_id', 'role', 'joined_at'])
        .where('space_id', '=', spaceId)
        .orderBy('joined_at')
        .orderBy('user_id')
        .execute();
      return rows.map((row) => ({
        spaceId: row.space_id,
        userId: row.user_id,
        role: row.role as SpaceRole,
        joinedAt: Number(row.joined_at),
      }));
    },

    memberCount: (spaceId) => countMemberships(db, 'space_id', spaceId),

    async isBarred(spaceId, userId) {
      const row = await db
        .selectFrom('space_removals')
        .select('user_id')
        .where('space_id', '=', spaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async setRole(spaceId, userId, role) {
      const result = await db
        .updateTable('space_members')
        .set({ role })
        .where('space_id', '=', spaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

/** What people are told about spaces that ended for them. */
function spaceEndings(db: Db): Pick<SpaceStore, 'endingsFor' | 'dismissEnding' | 'pruneEndings'> {
  return {
    async endingsFor(userId, appId, since) {
      const rows = await db
        .selectFrom('space_endings')
        .innerJoin('spaces', 'spaces.id', 'space_endings.space_id')
        .select([
          'space_endings.space_id',
          'spaces.name',
          'space_endings.why',
          'space_endings.ended_at',
        ])
        .where('space_endings.user_id', '=', userId)
        .where('space_endings.app_id', '=', appId)
        .where('space_endings.ended_at', '>=', since)
        .orderBy('space_endings.ended_at', 'desc')
        .orderBy('space_endings.space_id')
        .execute();
      return rows.map((row) => ({
        spaceId: row.space_id,
        name: row.name,
        why: row.why as SpaceEndingReason,
        endedAt: Number(row.ended_at),
      }));
    },

    async dismissEnding(userId, appId, spaceId) {
      const result = await db
        .deleteFrom('space_endings')
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async pruneEndings(before) {
      const result = await db
        .deleteFrom('space_endings')
        .where('ended_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** Invitation links, within the number a space may have open. */
function spaceInvites(
  db: Db,
  engine: StorageEngine,
): Pick<SpaceStore, 'insertInvite' | 'openInvites' | 'inviteByTokenHash' | 'revokeInvite'> {
  const hold = (trx: Trx, table: 'users' | 'spaces', id: string) => holdRow(trx, engine, table, id);
  return {
    insertInvite(invite, limit) {
      return db.transaction().execute(async (trx) => {
        await hold(trx, 'spaces', invite.spaceId);
        const open = await trx
          .selectFrom('space_invites')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('space_id', '=', invite.spaceId)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', limit.now)
          .executeTakeFirstOrThrow();
        if (Number(open.count) >= limit.maxOpen) return false;
        await trx
          .insertInto('space_invites')
          .values({
            id: invite.id,
            space_id: invite.spaceId,
            token_hash: invite.tokenHash,
            role: invite.role,
            created_by: invite.createdBy,
            created_at: invite.createdAt,
            expires_at: invite.expiresAt,
            revoked_at: null,
          })
          .execute();
        return true;
      });
    },

    async openInvites(spaceId, now) {
      const rows = await db
        .selectFrom('space_invites')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
      return rows.map(toInvite);
    },

    async inviteByTokenHash(tokenHash) {
      const row = await db
        .selectFrom('space_invites')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? toInvite(row) : null;
    },

    async revokeInvite(spaceId, inviteId, at) {
      const result = await db
        .updateTable('space_invites')
        .set({ revoked_at: at })
        .where('space_id', '=', spaceId)
        .where('id', '=', inviteId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
