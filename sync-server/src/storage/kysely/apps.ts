import { type Selectable, sql } from 'kysely';
import { type AppRole, appIconSchema, type CollaboratorRole } from '@pipit/protocol';
import type { Database } from '../schema';
import type { AppRecord, AppStore } from '../types';
import type { Db } from './shared';

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
    publishedVersion: row.published_version,
    publishedAt: row.published_at === null ? null : Number(row.published_at),
    opens: Number(row.opens),
    installs: Number(row.installs),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function createAppStore(db: Db): AppStore {
  const get = async (id: string) => {
    const row = await db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApp(row) : null;
  };

  return {
    async insert(app) {
      const inserted = await db
        .insertInto('apps')
        .values({
          id: app.id,
          owner_id: app.ownerId,
          title: app.title,
          description: app.description,
          icon: app.icon ? JSON.stringify(app.icon) : null,
          forked_from: app.forkedFrom?.appId ?? null,
          forked_from_version: app.forkedFrom?.version ?? null,
          created_at: app.createdAt,
          updated_at: app.createdAt,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { app: toApp(inserted), created: true };
      const existing = await get(app.id);
      if (!existing) throw new Error(`App ${app.id} vanished right after its insert.`);
      return { app: existing, created: false };
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

    async countOwned(ownerId) {
      const row = await db
        .selectFrom('apps')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('owner_id', '=', ownerId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
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
          archived_at: listing.archived
            ? sql<number>`COALESCE(${sql.ref('archived_at')}, ${listing.updatedAt})`
            : null,
        })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('collaborators').where('app_id', '=', id).execute();
        await trx.deleteFrom('apps').where('id', '=', id).execute();
      });
    },

    async getWithRole(id, userId) {
      const row = await db
        .selectFrom('apps')
        .leftJoin('collaborators', (join) =>
          join
            .onRef('collaborators.app_id', '=', 'apps.id')
            .on('collaborators.user_id', '=', userId),
        )
        .selectAll('apps')
        .select('collaborators.role as collaborator_role')
        .where('apps.id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      const { collaborator_role, ...app } = row;
      const role: AppRole | null =
        app.owner_id === userId ? 'owner' : ((collaborator_role as AppRole | null) ?? null);
      return { app: toApp(app), role };
    },

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
