import type { Selectable } from 'kysely';
import type { Database } from '../schema';
import type { SessionRecord, SessionStore } from '../types/sessions';
import { batched } from './batched';
import type { Db } from './shared';
import { toUser } from './users';

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
    findWithUser: batched(async (ids: readonly string[]) => {
      const rows = await db
        .selectFrom('sessions')
        .leftJoin('users', (join) =>
          join.onRef('users.id', '=', 'sessions.user_id').on('users.deleted_at', 'is', null),
        )
        .selectAll('users')
        .select([
          'sessions.id as session_id',
          'sessions.secret_hash as session_secret_hash',
          'sessions.user_id as session_user_id',
          'sessions.created_at as session_created_at',
          'sessions.last_seen_at as session_last_seen_at',
          'sessions.expires_at as session_expires_at',
          'sessions.user_agent as session_user_agent',
          'sessions.ip as session_ip',
        ])
        .where('sessions.id', 'in', [...new Set(ids)])
        .execute();
      const found = new Map(rows.map((row) => [row.session_id, row]));
      // Each call its own records, built from the row: the caller may change them (authenticate
      // does).
      return ids.map((id) => {
        const row = found.get(id);
        if (!row) return null;
        const session = toSession({
          id: row.session_id,
          secret_hash: row.session_secret_hash,
          user_id: row.session_user_id,
          created_at: row.session_created_at,
          last_seen_at: row.session_last_seen_at,
          expires_at: row.session_expires_at,
          user_agent: row.session_user_agent,
          ip: row.session_ip,
        });
        // A left join's missing row comes back as nulls: the account's id says which it is.
        const user = row.id === null ? null : toUser(row as Selectable<Database['users']>);
        return { session, user };
      });
    }),
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
