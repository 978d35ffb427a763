import type { DraftStatus } from '@pipit/protocol';
import type { DraftRecord, DraftStore } from '../types/drafts';
import { type Db, keepNewestClosed, joinedPerson, toUint8Array } from './shared';

function select(db: Db, appId: string) {
  return db
    .selectFrom('app_drafts as d')
    .leftJoin('users as starter', (join) =>
      join.onRef('starter.id', '=', 'd.created_by').on('starter.deleted_at', 'is', null),
    )
    .leftJoin('users as closer', (join) =>
      join.onRef('closer.id', '=', 'd.closed_by').on('closer.deleted_at', 'is', null),
    )
    .select([
      'd.id',
      'd.app_id',
      'd.name',
      'd.status',
      'd.created_at',
      'd.base_at',
      'd.closed_at',
      'starter.id as starter_id',
      'starter.username as starter_username',
      'starter.display_name as starter_display_name',
      'closer.id as closer_id',
      'closer.username as closer_username',
      'closer.display_name as closer_display_name',
    ])
    .where('d.app_id', '=', appId);
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;

function toRecord(row: Row): DraftRecord {
  return {
    id: row.id,
    appId: row.app_id,
    name: row.name,
    status: row.status as DraftStatus,
    createdAt: Number(row.created_at),
    createdBy: joinedPerson(row.starter_id, row.starter_username, row.starter_display_name),
    baseAt: Number(row.base_at),
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    closedBy: joinedPerson(row.closer_id, row.closer_username, row.closer_display_name),
  };
}

export function createDraftStore(db: Db): DraftStore {
  return {
    insert(draft, openLimit) {
      return db.transaction().execute(async (trx) => {
        const known = await trx
          .selectFrom('app_drafts')
          .select('id')
          .where('app_id', '=', draft.appId)
          .where('id', '=', draft.id)
          .executeTakeFirst();
        if (known) return 'exists';
        const open = await trx
          .selectFrom('app_drafts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('app_id', '=', draft.appId)
          .where('status', '=', 'open')
          .executeTakeFirstOrThrow();
        if (Number(open.n) >= openLimit) return 'full';
        await trx
          .insertInto('app_drafts')
          .values({
            id: draft.id,
            app_id: draft.appId,
            name: draft.name,
            base: draft.base,
            base_at: draft.createdAt,
            status: 'open',
            created_by: draft.createdById,
            created_at: draft.createdAt,
            closed_by: null,
            closed_at: null,
          })
          .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
          .execute();
        return 'stored';
      });
    },

    async list(appId) {
      const rows = await select(db, appId)
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .execute();
      const records = rows.map(toRecord);
      return [
        ...records.filter((d) => d.status === 'open'),
        ...records
          .filter((d) => d.status !== 'open')
          .sort((a, b) => (b.closedAt ?? 0) - (a.closedAt ?? 0)),
      ];
    },

    async get(appId, id) {
      const row = await select(db, appId).where('d.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async base(appId, id) {
      const row = await db
        .selectFrom('app_drafts')
        .select('base')
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return row ? toUint8Array(row.base) : null;
    },

    async update(appId, id, change) {
      const result = await db
        .updateTable('app_drafts')
        .set({
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.base ? { base: change.base.bytes, base_at: change.base.at } : {}),
        })
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async close(appId, id, outcome, byId, at, keepClosed) {
      const result = await db
        .updateTable('app_drafts')
        .set({ status: outcome, closed_by: byId, closed_at: at, base: new Uint8Array(0) })
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await keepNewestClosed(db, 'app_drafts', appId, keepClosed);
      return true;
    },
  };
}
