import type { DocumentStore } from '../types/documents';
import { isId } from '@pipit/protocol';
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

    async loadWithLog(name) {
      // One snapshot of the database for both reads, so a compaction between them (a new snapshot
      // stored, the log entries it holds dropped) cannot hide an update. PostgreSQL's default READ
      // COMMITTED gives each statement its own snapshot, so it must be REPEATABLE READ (read-only,
      // it never fails to serialize); SQLite's transactions are serializable already.
      return db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const row = await trx
            .selectFrom('documents')
            .select('state')
            .where('name', '=', name)
            .executeTakeFirst();
          const log = await trx
            .selectFrom('document_updates')
            .select(['seq', 'update'])
            .where('name', '=', name)
            .orderBy('seq')
            .execute();
          return {
            snapshot: row ? toUint8Array(row.state) : null,
            log: log.map((entry) => ({
              seq: Number(entry.seq),
              update: toUint8Array(entry.update),
            })),
          };
        });
    },

    async append(entries) {
      if (entries.length === 0) return [];
      const createdAt = Date.now();
      const rows = await db
        .insertInto('document_updates')
        .values(entries.map(({ name, update }) => ({ name, update, created_at: createdAt })))
        .returning('seq')
        .execute();
      // Both engines assign a multi-row insert's keys in the order of its rows.
      return rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
    },

    async store(name, state, compactedThrough) {
      const updatedAt = Date.now();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('documents')
          .values({ name, state, updated_at: updatedAt })
          .onConflict((oc) => oc.column('name').doUpdateSet({ state, updated_at: updatedAt }))
          .execute();
        if (compactedThrough !== undefined) {
          await trx
            .deleteFrom('document_updates')
            .where('name', '=', name)
            .where('seq', '<=', compactedThrough)
            .execute();
        }
      });
    },

    async delete(name) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('documents').where('name', '=', name).execute();
        await trx.deleteFrom('document_updates').where('name', '=', name).execute();
      });
    },

    async deleteData(of) {
      const id = 'appId' in of ? of.appId : of.userId;
      // Ids are [a-z2-7] only, so the pattern has no LIKE wildcard but its own.
      if (!isId(id)) throw new Error(`Not an id: ${JSON.stringify(id).slice(0, 40)}`);
      const pattern = 'appId' in of ? `data/${id}/%` : `data/%/${id}`;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('documents').where('name', 'like', pattern).execute();
        await trx.deleteFrom('document_updates').where('name', 'like', pattern).execute();
      });
    },
  };
}
