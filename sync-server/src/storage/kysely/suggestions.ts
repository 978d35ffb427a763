import type { SuggestionStatus } from '@pipit/protocol';
import type { SuggestionRecord, SuggestionStore } from '../types/suggestions';
import { type Db, keepNewestClosed, joinedPerson as person, toUint8Array } from './shared';

function parseJson<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

function select(db: Db, appId: string) {
  return db
    .selectFrom('app_suggestions as s')
    .leftJoin('users as asker', (join) =>
      join.onRef('asker.id', '=', 's.created_by').on('asker.deleted_at', 'is', null),
    )
    .leftJoin('users as closer', (join) =>
      join.onRef('closer.id', '=', 's.closed_by').on('closer.deleted_at', 'is', null),
    )
    .select([
      's.id',
      's.app_id',
      's.asked',
      's.summary',
      's.earlier',
      's.status',
      's.created_at',
      's.closed_at',
      'asker.id as asker_id',
      'asker.username as asker_username',
      'asker.display_name as asker_display_name',
      'closer.id as closer_id',
      'closer.username as closer_username',
      'closer.display_name as closer_display_name',
    ])
    .where('s.app_id', '=', appId);
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;

function toRecord(row: Row): SuggestionRecord {
  return {
    id: row.id,
    appId: row.app_id,
    asked: row.asked,
    summary: parseJson<string[]>(row.summary, []),
    earlier: parseJson<SuggestionRecord['earlier']>(row.earlier, []),
    status: row.status as SuggestionStatus,
    createdAt: Number(row.created_at),
    createdBy: person(row.asker_id, row.asker_username, row.asker_display_name),
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    closedBy: person(row.closer_id, row.closer_username, row.closer_display_name),
  };
}

export function createSuggestionStore(db: Db): SuggestionStore {
  return {
    insert(s, limits) {
      return db.transaction().execute(async (trx) => {
        const known = await trx
          .selectFrom('app_suggestions')
          .select('id')
          .where('app_id', '=', s.appId)
          .where('id', '=', s.id)
          .executeTakeFirst();
        if (known) return 'exists';
        const size = s.base.byteLength + s.proposed.byteLength;
        const open = await trx
          .selectFrom('app_suggestions')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
          .where('app_id', '=', s.appId)
          .where('status', '=', 'open')
          .executeTakeFirstOrThrow();
        if (Number(open.n) >= limits.count || Number(open.bytes ?? 0) + size > limits.bytes) {
          return 'full';
        }
        await trx
          .insertInto('app_suggestions')
          .values({
            id: s.id,
            app_id: s.appId,
            asked: s.asked,
            summary: JSON.stringify(s.summary),
            earlier: JSON.stringify(s.earlier),
            base: s.base,
            proposed: s.proposed,
            size,
            status: 'open',
            created_by: s.createdById,
            created_at: s.createdAt,
            closed_by: null,
            closed_at: null,
          })
          .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
          .execute();
        return 'stored';
      });
    },

    async list(appId, status) {
      const rows = await select(db, appId)
        .where('s.status', '=', status)
        .orderBy('s.created_at', 'desc')
        .orderBy('s.id', 'desc')
        .execute();
      return rows.map(toRecord);
    },

    async get(appId, id) {
      const row = await select(db, appId).where('s.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async definitions(appId, id) {
      const row = await db
        .selectFrom('app_suggestions')
        .select(['base', 'proposed'])
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { base: toUint8Array(row.base), proposed: toUint8Array(row.proposed) } : null;
    },

    async close(appId, id, outcome, byId, at, keepClosed) {
      const result = await db
        .updateTable('app_suggestions')
        .set({
          status: outcome,
          closed_by: byId,
          closed_at: at,
          base: new Uint8Array(0),
          proposed: new Uint8Array(0),
          size: 0,
        })
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await keepNewestClosed(db, 'app_suggestions', appId, keepClosed);
      return true;
    },
  };
}
