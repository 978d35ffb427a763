import type { Selectable } from 'kysely';
import type { Database } from '../schema';
import type { SessionRecord, SessionStore } from '../types/sessions';
import type { Db } from './shared';

function toSession(row: Selectable<Database['sessions']>): SessionRecord {
  return {
    id: row.id,
    secretHash: row.secret_hash,
    userId: row.user_id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
    ip: row.ip,
  };
}

export function createSessionStore(db: Db): SessionStore {
  return {
    async insert(s) {
      await db
        .insertInto('sessions')
        .values({
          id: s.id,
          secret_hash: s.secretHash,
          user_id: s.userId,
          created_at: s.createdAt,
          last_seen_at: s.lastSeenAt,
          expires_at: s.expiresAt,
          user_agent: s.userAgent,
          ip: s.ip,
        })
        .execute();
    },
    async findById(id) {
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toSession(row) : null;
    },
    async listForUser(userId) {
      const rows = await db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('last_seen_at', 'desc')
        .execute();
      return rows.map(toSession);
    },
    async touch(id, lastSeenAt) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: lastSeenAt })
        .where('id', '=', id)
        .execute();
    },
    async delete(id) {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
    },
    async deleteForUser(userId, exceptId) {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptId) query = query.where('id', '!=', exceptId);
      const rows = await query.returning('id').execute();
      return rows.map((r) => r.id);
    },
  };
}
