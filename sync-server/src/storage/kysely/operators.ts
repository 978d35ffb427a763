import type { OperatorStore } from '../types/operators';
import type { Db } from './shared';

export function createOperatorStore(db: Db): OperatorStore {
  return {
    async add(userId, at) {
      const inserted = await db
        .insertInto('operators')
        .values({ user_id: userId, added_at: at })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .returning('user_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async remove(userId) {
      const result = await db
        .deleteFrom('operators')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async has(userId) {
      const row = await db
        .selectFrom('operators')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async list() {
      const rows = await db
        .selectFrom('operators')
        .selectAll()
        .orderBy('added_at')
        .orderBy('user_id')
        .execute();
      return rows.map((row) => ({ userId: row.user_id, addedAt: row.added_at }));
    },
  };
}
