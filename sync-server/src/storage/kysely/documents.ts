import type { DocumentStore } from '../types';
import { type Db, toUint8Array } from './shared';

export function createDocumentStore(db: Db): DocumentStore {
  return {
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
  };
}
