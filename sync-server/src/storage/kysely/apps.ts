import { type Selectable, sql } from 'kysely';
import {
  type AppRole,
  appIconSchema,
  type CollaboratorRole,
  type StorageEngine,
} from '@pipit/protocol';
import type { Database } from '../schema';
import type { AppRecord, AppStore } from '../types/apps';
import { batched } from './batched';
import { type Db, holdRow } from './shared';

/** The apps a person owns (archived ones too: the plan counts them). */
export async function countOwnedApps(on: Db, ownerId: string): Promise<number> {
  const row = await on
    .selectFrom('apps')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function toApp(row: Selectable<Database['apps']>): AppRecord {
  const icon = row.icon ? appIconSchema.safeParse(JSON.parse(row.icon)) : null;
  return {
    id: row.id,
    ownerId: row.owner_id,
    title: row.title,
    description: row.description,
    icon: icon?.success ? icon.data : null,
    tags: JSON.parse(row.tags) as string[],
    visibility: row.visibility as AppRecord['visibility'],
    archivedAt: row.archived_at === null ? null : Number(row.archived_at),
    forkedFrom: row.forked_from,
    forkedFromVersion: row.forked_from_version,
    forkedFromPublicAt:
      row.forked_from_public_at === null ? null : Number(row.forked_from_public_at),
    publishedVersion: row.published_version,
    publishedAt: row.published_at === null ? null : Number(row.published_at),
    opens: Number(row.opens),
    installs: Number(row.installs),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Apps (docs/product/records.md): registering one, reading, changing, its collaborators. */
export function createAppStore(db: Db, engine: StorageEngine): AppStore {
  return {
    ...appRegistration(db, engine),
    ...appReads(db),
    ...appChanges(db),
    ...appCollaborators(db),
  };
}

/** Registering an app: its id claimed for good, within the apps a person may own. */
function appRegistration(db: Db, engine: StorageEngine): Pick<AppStore, 'insert'> {
  return {
    insert(app, limits) {
      return db.transaction().execute(async (trx) => {
        if (limits) {
          await holdRow(trx, engine, 'users', app.ownerId);
          const known = await trx
            .selectFrom('app_ids')
            .select('id')
            .where('id', '=', app.id)
            .executeTakeFirst();
          // The same device asking again for an app it made is answered below, full or not.
          if (!known && (await countOwnedApps(trx, app.ownerId)) >= limits.maxOwned) {
            return { full: true } as const;
          }
        }
        // The id is claimed first, for good: a concurrent registration of the same id waits here,
        // and a deleted app's claim is never given up.
        const claimed = await trx
          .insertInto('app_ids')
          .values({ id: app.id, owner_id: app.ownerId, registered_at: app.createdAt })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!claimed) {
          // Under a share lock: a deletion under way (it marks this row) is waited for, and one
          // that comes after waits for this transaction. Without it, PostgreSQL's per-statement
          // snapshots could read the claim before the deletion committed and the app row after.
          // (SQLite: one transaction at a time already.)
          const known = await trx
            .selectFrom('app_ids')
            .select('deleted_at')
            .where('id', '=', app.id)
            .$if(engine === 'postgres', (q) => q.forShare())
            .executeTakeFirst();
          if (known && known.deleted_at !== null) return { deleted: true } as const;
          const existing = await trx
            .selectFrom('apps')
            .selectAll()
            .where('id', '=', app.id)
            .executeTakeFirst();
          if (!existing) throw new Error(`App ${app.id} is claimed but has no row.`);
          return { app: toApp(existing), created: false };
        }
        const inserted = await trx
          .insertInto('apps')
          .values({
            id: app.id,
            owner_id: app.ownerId,
            title: app.title,
            description: app.description,
            icon: app.icon ? JSON.stringify(app.icon) : null,
            forked_from: app.forkedFrom?.appId ?? null,
            forked_from_version: app.forkedFrom?.version ?? null,
            forked_from_public_at: app.forkedFrom && app.forkedFromPublic ? app.createdAt : null,
            created_at: app.createdAt,
            updated_at: app.createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { app: toApp(inserted), created: true };
      });
    },
  };
}

/** Reading apps, and a person's role in one. */
function appReads(
  db: Db,
): Pick<AppStore, 'wasDeleted' | 'get' | 'listForUser' | 'countOwned' | 'getWithRole'> {
  /** One read for the roles asked for together (every socket opening of an app asks). */
  const getWithRole = batched(appsWithRoles(db));
  const get = async (id: string) => {
    const row = await db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApp(row) : null;
  };

  return {
    async wasDeleted(id) {
      const row = await db
        .selectFrom('app_ids')
        .select('deleted_at')
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined && row.deleted_at !== null;
    },

    get,

    async listForUser(userId) {
      const owned = await db
        .selectFrom('apps')
        .selectAll()
        .where('owner_id', '=', userId)
        .execute();
      const shared = await db
        .selectFrom('collaborators')
        .innerJoin('apps', 'apps.id', 'collaborators.app_id')
        .selectAll('apps')
        .select('collaborators.role as collaborator_role')
        .where('collaborators.user_id', '=', userId)
        .execute();
      return [
        ...owned.map((row) => ({ ...toApp(row), role: 'owner' as AppRole })),
        ...shared.map(({ collaborator_role, ...row }) => ({
          ...toApp(row),
          role: collaborator_role as AppRole,
        })),
      ].sort((a, b) => b.updatedAt - a.updatedAt);
    },

    countOwned: (ownerId) => countOwnedApps(db, ownerId),

    getWithRole: (id, userId) => getWithRole({ id, userId }),
  };
}

/**
 * Apps and people's roles on them, for many at once (a burst of socket openings, batched.ts): the
 * apps asked for, with the rows of those people among their collaborators. null for an app with no
 * row.
 */
function appsWithRoles(db: Db) {
  return async (keys: ReadonlyArray<{ id: string; userId: string }>) => {
    const userIds = [...new Set(keys.map((key) => key.userId))];
    const rows = await db
      .selectFrom('apps')
      .leftJoin('collaborators', (join) =>
        join
          .onRef('collaborators.app_id', '=', 'apps.id')
          .on('collaborators.user_id', 'in', userIds),
      )
      .selectAll('apps')
      .select([
        'collaborators.user_id as collaborator_user_id',
        'collaborators.role as collaborator_role',
      ])
      .where('apps.id', 'in', [...new Set(keys.map((key) => key.id))])
      .execute();
    const apps = new Map<string, Selectable<Database['apps']>>();
    const roles = new Map<string, AppRole>();
    for (const { collaborator_user_id, collaborator_role, ...app } of rows) {
      apps.set(app.id, app);
      if (collaborator_user_id !== null && collaborator_role !== null) {
        roles.set(`${app.id} ${collaborator_user_id}`, collaborator_role as AppRole);
      }
    }
    return keys.map(({ id, userId }) => {
      const app = apps.get(id);
      if (!app) return null;
      const role: AppRole | null =
        app.owner_id === userId ? 'owner' : (roles.get(`${id} ${userId}`) ?? null);
      // Each call its own record: callers may hold or change it.
      return { app: toApp(app), role };
    });
  };
}

/** Changing an app's row: its listing, where it was remixed from, archiving, deleting. */
function appChanges(
  db: Db,
): Pick<AppStore, 'setForkedFromVersion' | 'updateListing' | 'setArchived' | 'delete'> {
  return {
    async setForkedFromVersion(id, version, publicAt) {
      await db
        .updateTable('apps')
        .set({ forked_from_version: version, forked_from_public_at: publicAt })
        .where('id', '=', id)
        .where('forked_from', 'is not', null)
        .execute();
    },

    async updateListing(id, listing) {
      await db
        .updateTable('apps')
        .set({
          title: listing.title,
          description: listing.description,
          icon: listing.icon ? JSON.stringify(listing.icon) : null,
          tags: JSON.stringify(listing.tags),
          updated_at: listing.updatedAt,
        })
        .where('id', '=', id)
        .execute();
    },

    async setArchived(id, at) {
      const row = await db
        .updateTable('apps')
        .set({
          archived_at: at === null ? null : sql<number>`COALESCE(${sql.ref('archived_at')}, ${at})`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? toApp(row) : null;
    },

    async delete(id, at) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('app_ids')
          .set({ deleted_at: at })
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .execute();
        await trx.deleteFrom('collaborators').where('app_id', '=', id).execute();
        await trx.deleteFrom('apps').where('id', '=', id).execute();
      });
    },
  };
}

/** The people an app is shared with, and their roles. */
function appCollaborators(
  db: Db,
): Pick<AppStore, 'collaborators' | 'putCollaborator' | 'removeCollaborator'> {
  return {
    async collaborators(appId) {
      const rows = await db
        .selectFrom('collaborators')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('added_at')
        .execute();
      return rows.map((row) => ({
        appId: row.app_id,
        userId: row.user_id,
        role: row.role as CollaboratorRole,
        invitedBy: row.invited_by,
        addedAt: Number(row.added_at),
      }));
    },

    async putCollaborator(c) {
      await db
        .insertInto('collaborators')
        .values({
          app_id: c.appId,
          user_id: c.userId,
          role: c.role,
          invited_by: c.invitedBy,
          added_at: c.addedAt,
        })
        .onConflict((oc) => oc.columns(['app_id', 'user_id']).doUpdateSet({ role: c.role }))
        .execute();
    },

    async removeCollaborator(appId, userId) {
      const result = await db
        .deleteFrom('collaborators')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
