import { type Selectable, sql } from 'kysely';
import type { Database } from '../schema';
import type {
  SpaceActivityItem,
  SpaceActivityKind,
  SpaceActivityPreferenceRecord,
  SpaceActivityStore,
} from '../types/space-activity';
import type { Db } from './shared';

type PreferenceRow = Selectable<Database['space_activity_preferences']>;
type ItemRow = Selectable<Database['space_activity_items']>;

const KINDS: ReadonlySet<string> = new Set<SpaceActivityKind>(['added', 'completed']);

const preferenceOf = (row: PreferenceRow): SpaceActivityPreferenceRecord => ({
  spaceId: row.space_id,
  userId: row.user_id,
  enabled: Number(row.enabled) === 1,
  showNames: Number(row.show_names) === 1,
  updatedAt: Number(row.updated_at),
});

const itemOf = (row: ItemRow): SpaceActivityItem => ({
  id: row.id,
  spaceId: row.space_id,
  recipientId: row.recipient_id,
  authorId: row.author_id,
  kind: row.kind as SpaceActivityKind,
  recordId: row.record_id,
  name: row.name,
  createdAt: Number(row.created_at),
  windowEnd: Number(row.window_end),
});

function checkItem(item: SpaceActivityItem): void {
  for (const key of ['id', 'spaceId', 'recipientId', 'authorId', 'recordId'] as const) {
    if (typeof item[key] !== 'string' || item[key] === '') {
      throw new TypeError(`A space activity item needs ${key} (a non-empty string).`);
    }
  }
  if (!KINDS.has(item.kind)) {
    throw new TypeError(
      `A space activity item is 'added' or 'completed'; got ${JSON.stringify(item.kind)}.`,
    );
  }
  if (!Number.isSafeInteger(item.createdAt) || !Number.isSafeInteger(item.windowEnd)) {
    throw new RangeError('A space activity item’s times are UTC epoch milliseconds (integers).');
  }
}

export function createSpaceActivityStore(db: Db): SpaceActivityStore {
  const member = (spaceId: string, userId: string) =>
    db.selectFrom('space_members').where('space_id', '=', spaceId).where('user_id', '=', userId);
  return {
    async putPreference(record) {
      const values = {
        enabled: record.enabled ? 1 : 0,
        show_names: record.showNames ? 1 : 0,
        updated_at: record.updatedAt,
      };
      // Only for someone in the space, in one statement: a membership ending at the same moment
      // either takes the row with it or leaves none.
      const result = await db
        .insertInto('space_activity_preferences')
        .columns(['space_id', 'user_id', 'enabled', 'show_names', 'updated_at'])
        .expression(() =>
          member(record.spaceId, record.userId).select([
            'space_members.space_id',
            'space_members.user_id',
            sql<number>`cast(${values.enabled} as integer)`.as('enabled'),
            sql<number>`cast(${values.show_names} as integer)`.as('show_names'),
            sql<number>`cast(${values.updated_at} as bigint)`.as('updated_at'),
          ]),
        )
        .onConflict((oc) => oc.columns(['space_id', 'user_id']).doUpdateSet(values))
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async getPreference(spaceId, userId) {
      const row = await db
        .selectFrom('space_activity_preferences')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row ? preferenceOf(row) : null;
    },

    async watchers(spaceId) {
      const rows = await db
        .selectFrom('space_activity_preferences')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('enabled', '=', 1)
        .orderBy('user_id')
        .execute();
      return rows.map(preferenceOf);
    },

    async listForUser(userId) {
      const rows = await db
        .selectFrom('space_activity_preferences')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('space_id')
        .execute();
      return rows.map(preferenceOf);
    },

    async addItems(items) {
      items.forEach(checkItem);
      if (items.length === 0) return 0;
      return db.transaction().execute(async (trx) => {
        let added = 0;
        for (const item of items) {
          // Someone who left since the change is simply not told: no row, no error.
          const result = await trx
            .insertInto('space_activity_items')
            .columns([
              'id',
              'space_id',
              'recipient_id',
              'author_id',
              'kind',
              'record_id',
              'name',
              'created_at',
              'window_end',
            ])
            .expression((eb) =>
              eb
                .selectFrom('space_members')
                .where('space_id', '=', item.spaceId)
                .where('user_id', '=', item.recipientId)
                .select([
                  eb.val(item.id).as('id'),
                  'space_members.space_id',
                  'space_members.user_id',
                  eb.val(item.authorId).as('author_id'),
                  eb.val(item.kind).as('kind'),
                  eb.val(item.recordId).as('record_id'),
                  sql<string | null>`cast(${item.name} as text)`.as('name'),
                  sql<number>`cast(${item.createdAt} as bigint)`.as('created_at'),
                  sql<number>`cast(${item.windowEnd} as bigint)`.as('window_end'),
                ]),
            )
            .executeTakeFirst();
          added += Number(result.numInsertedOrUpdatedRows ?? 0);
        }
        return added;
      });
    },

    ...activityBatches(db),
  };
}

/** The changes waiting to be told: claimed by the job that sends their batch, then deleted. */
function activityBatches(
  db: Db,
): Pick<
  SpaceActivityStore,
  'claimItems' | 'finishItems' | 'openWindow' | 'anyWaiting' | 'dropItems'
> {
  return {
    async claimItems(spaceId, recipientId, windowEnd, claimant) {
      if (typeof claimant !== 'string' || claimant === '') {
        throw new TypeError('Claiming space activity needs the claiming job (a non-empty string).');
      }
      await db
        .updateTable('space_activity_items')
        .set({ claimed_by: claimant })
        .where('space_id', '=', spaceId)
        .where('recipient_id', '=', recipientId)
        .where('window_end', '<=', windowEnd)
        .where('claimed_by', 'is', null)
        .execute();
      const rows = await db
        .selectFrom('space_activity_items')
        .selectAll()
        .where('space_id', '=', spaceId)
        .where('recipient_id', '=', recipientId)
        .where('claimed_by', '=', claimant)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(itemOf);
    },

    async finishItems(claimant) {
      const result = await db
        .deleteFrom('space_activity_items')
        .where('claimed_by', '=', claimant)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async openWindow(spaceId, recipientId, after) {
      const row = await db
        .selectFrom('space_activity_items')
        .select((eb) => eb.fn.min('window_end').as('window_end'))
        .where('space_id', '=', spaceId)
        .where('recipient_id', '=', recipientId)
        .where('window_end', '>', after)
        .where('claimed_by', 'is', null)
        .executeTakeFirst();
      return row?.window_end == null ? null : Number(row.window_end);
    },

    async anyWaiting() {
      const row = await db
        .selectFrom('space_activity_items')
        .select('id')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async dropItems(spaceId, recipientId, windowEnd) {
      const result = await db
        .deleteFrom('space_activity_items')
        .where('space_id', '=', spaceId)
        .where('recipient_id', '=', recipientId)
        .where('window_end', '<=', windowEnd)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
