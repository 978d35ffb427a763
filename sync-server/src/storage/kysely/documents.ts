import { sql } from 'kysely';
import type { DocumentStore } from '../types/documents';
import { isId, type StorageEngine } from '@pipit/protocol';
import { batched } from './batched';
import { type Db, type EngineSpecifics, toUint8Array } from './shared';

/**
 * Logged updates read or dropped, or client ids claimed, per statement (SQLite allows 32,766
 * parameters; PostgreSQL 65,535).
 */
const ROWS_PER_STATEMENT = 1_000;

/**
 * Yjs documents (docs/architecture.md): a snapshot and the updates logged since, compacted into
 * the next snapshot; which client ids belong to whom; deleting documents.
 */
export function createDocumentStore(
  db: Db,
  engine: StorageEngine,
  appendUpdates?: EngineSpecifics['appendUpdates'],
): DocumentStore {
  return {
    ...documentReads(db),
    ...documentWrites(db, appendUpdates),
    ...documentCompaction(db, engine),
    ...documentClients(db),
    ...documentDeletion(db),
  };
}

/** A document as stored: its snapshot, and the updates logged since. */
function documentReads(db: Db): Pick<DocumentStore, 'load' | 'loadWithLog'> {
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
  };
}

/** Appending updates to the log, and storing a snapshot as it is. */
function documentWrites(
  db: Db,
  appendUpdates: EngineSpecifics['appendUpdates'],
): Pick<DocumentStore, 'append' | 'store'> {
  return {
    async append(entries) {
      if (entries.length === 0) return [];
      const createdAt = Date.now();
      if (appendUpdates) return appendUpdates(entries, createdAt);
      const rows = await db
        .insertInto('document_updates')
        .values(entries.map(({ name, update }) => ({ name, update, created_at: createdAt })))
        .returning('seq')
        .execute();
      // Both engines assign a multi-row insert's keys in the order of its rows.
      return rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
    },

    async store(name, state) {
      const updatedAt = Date.now();
      await db
        .insertInto('documents')
        .values({ name, state, updated_at: updatedAt })
        .onConflict((oc) => oc.column('name').doUpdateSet({ state, updated_at: updatedAt }))
        .execute();
    },
  };
}

/** Folding the log into a new snapshot, one compaction of a document at a time. */
function documentCompaction(db: Db, engine: StorageEngine): Pick<DocumentStore, 'compact'> {
  return {
    async compact(name, fold, options = {}) {
      return db.transaction().execute(async (trx) => {
        if (engine === 'postgres') {
          // One compaction of a document at a time across every instance: the lock is the
          // document's, held until this transaction ends. SQLite has one writer (this process) and
          // runs one transaction at a time already.
          await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
        }
        const { owner } = options;
        // Under a share lock: deleting the app (or person) marks its row, and waits for this
        // transaction; a compaction that comes after sees the mark. Either way a deleted document
        // stays deleted. (SQLite: one transaction at a time already.)
        if (owner?.appId !== undefined) {
          const app = await trx
            .selectFrom('app_ids')
            .select('deleted_at')
            .where('id', '=', owner.appId)
            .$if(engine === 'postgres', (q) => q.forShare())
            .executeTakeFirst();
          if (app?.deleted_at != null) return null;
        }
        if (owner?.appId !== undefined && owner.draftId !== undefined) {
          // A draft merged or deleted is closed first, then its document deleted: a store
          // after that (an instance that did not hear of it in time) writes nothing.
          const draft = await trx
            .selectFrom('app_drafts')
            .select('status')
            .where('app_id', '=', owner.appId)
            .where('id', '=', owner.draftId)
            .$if(engine === 'postgres', (q) => q.forShare())
            .executeTakeFirst();
          if (draft?.status !== 'open') return null;
        }
        if (owner?.userId !== undefined) {
          const user = await trx
            .selectFrom('users')
            .select('deleted_at')
            .where('id', '=', owner.userId)
            .$if(engine === 'postgres', (q) => q.forShare())
            .executeTakeFirst();
          if (user?.deleted_at != null) return null;
        }
        if (owner?.spaceId !== undefined) {
          const space = await trx
            .selectFrom('spaces')
            .select('deleted_at')
            .where('id', '=', owner.spaceId)
            .$if(engine === 'postgres', (q) => q.forShare())
            .executeTakeFirst();
          if (space?.deleted_at != null) return null;
        }
        const stored = await trx
          .selectFrom('documents')
          .select('state')
          .where('name', '=', name)
          .executeTakeFirst();
        const seqs = (
          await trx
            .selectFrom('document_updates')
            .select('seq')
            .where('name', '=', name)
            .orderBy('seq')
            .execute()
        ).map((row) => Number(row.seq));
        const held = options.held ?? (() => false);
        const unread = seqs.filter((seq) => !held(seq));
        const log: Array<{ seq: number; update: Uint8Array }> = [];
        for (let i = 0; i < unread.length; i += ROWS_PER_STATEMENT) {
          const rows = await trx
            .selectFrom('document_updates')
            .select(['seq', 'update'])
            .where('name', '=', name)
            .where('seq', 'in', unread.slice(i, i + ROWS_PER_STATEMENT))
            .orderBy('seq')
            .execute();
          for (const row of rows) {
            log.push({ seq: Number(row.seq), update: toUint8Array(row.update) });
          }
        }
        const state = fold({ snapshot: stored ? toUint8Array(stored.state) : null, log });
        const updatedAt = Date.now();
        await trx
          .insertInto('documents')
          .values({ name, state, updated_at: updatedAt })
          .onConflict((oc) => oc.column('name').doUpdateSet({ state, updated_at: updatedAt }))
          .execute();
        // Exactly the updates read: one logged by another instance after the read (even with a
        // lower sequence number, committed later) stays for the next compaction.
        for (let i = 0; i < seqs.length; i += ROWS_PER_STATEMENT) {
          await trx
            .deleteFrom('document_updates')
            .where('name', '=', name)
            .where('seq', 'in', seqs.slice(i, i + ROWS_PER_STATEMENT))
            .execute();
        }
        return seqs;
      });
    },
  };
}

/** Which person each of a document's Yjs client ids belongs to (the first to claim it). */
function documentClients(db: Db): Pick<DocumentStore, 'claimClients'> {
  const claim = batched(claimMany(db));
  return {
    claimClients: (name, userId, clients) =>
      clients.length === 0 ? Promise.resolve(new Map()) : claim({ name, userId, clients }),
  };
}

/**
 * Claims of client ids, many at once (batched.ts: a document's writers opening together claim
 * together). One statement: a client nobody has becomes its claimer's, and one somebody has comes
 * back with its owner as it is (the update sets what is there already; a claim racing on another
 * instance waits for the first one's row). A row may be written once per statement, so a client
 * two claims of the batch ask for goes to the first of them, as it would one after the other.
 */
function claimMany(db: Db) {
  return async (claims: ReadonlyArray<{ name: string; userId: string; clients: number[] }>) => {
    const rows = new Map<string, { name: string; client: number; user_id: string }>();
    for (const { name, userId, clients } of claims) {
      for (const client of clients) {
        const key = `${name} ${client}`;
        if (!rows.has(key)) rows.set(key, { name, client, user_id: userId });
      }
    }
    const all = [...rows.values()];
    const owners = new Map<string, string>();
    // Within the engines' parameters per statement however many client ids one update writes:
    // one large claim never fails the others of its batch.
    for (let i = 0; i < all.length; i += ROWS_PER_STATEMENT) {
      const owned = await db
        .insertInto('document_clients')
        .values(all.slice(i, i + ROWS_PER_STATEMENT))
        .onConflict((oc) =>
          oc
            .columns(['name', 'client'])
            .doUpdateSet({ user_id: sql<string>`document_clients.user_id` }),
        )
        .returning(['name', 'client', 'user_id'])
        .execute();
      for (const row of owned) owners.set(`${row.name} ${Number(row.client)}`, row.user_id);
    }
    return claims.map(({ name, clients }) => {
      const answer = new Map<number, string>();
      for (const client of clients) {
        const owner = owners.get(`${name} ${client}`);
        if (owner !== undefined) answer.set(client, owner);
      }
      return answer;
    });
  };
}

/** Deleting a document, or every data document of an app or a person. */
function documentDeletion(db: Db): Pick<DocumentStore, 'delete' | 'deleteData'> {
  return {
    async delete(name) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('documents').where('name', '=', name).execute();
        await trx.deleteFrom('document_updates').where('name', '=', name).execute();
        await trx.deleteFrom('document_clients').where('name', '=', name).execute();
      });
    },

    async deleteData(of) {
      const id = 'appId' in of ? of.appId : 'userId' in of ? of.userId : of.draftsOf;
      // Ids are [a-z2-7] only, so the pattern has no LIKE wildcard but its own.
      if (!isId(id)) throw new Error(`Not an id: ${JSON.stringify(id).slice(0, 40)}`);
      const pattern =
        'appId' in of ? `data/${id}/%` : 'userId' in of ? `data/%/${id}` : `draft/${id}/%`;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('documents').where('name', 'like', pattern).execute();
        await trx.deleteFrom('document_updates').where('name', 'like', pattern).execute();
        await trx.deleteFrom('document_clients').where('name', 'like', pattern).execute();
      });
    },
  };
}
