import type { TokenKind, TokenStore } from '../types/tokens';
import type { Db } from './shared';

export function createTokenStore(db: Db): TokenStore {
  return {
    async insert(t) {
      await db
        .insertInto('tokens')
        .values({
          hash: t.hash,
          kind: t.kind,
          user_id: t.userId,
          email: t.email,
          created_at: t.createdAt,
          expires_at: t.expiresAt,
          used_at: null,
        })
        .execute();
    },
    async find(hash) {
      const row = await db
        .selectFrom('tokens')
        .selectAll()
        .where('hash', '=', hash)
        .executeTakeFirst();
      return row
        ? {
            hash: row.hash,
            kind: row.kind as TokenKind,
            userId: row.user_id,
            email: row.email,
            createdAt: row.created_at,
            expiresAt: row.expires_at,
            usedAt: row.used_at,
          }
        : null;
    },
    async consume(hash, kind, now) {
      // One conditional UPDATE: of racing requests, exactly one sees a row come back.
      const row = await db
        .updateTable('tokens')
        .set({ used_at: now })
        .where('hash', '=', hash)
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning(['user_id', 'email'])
        .executeTakeFirst();
      if (row) return { outcome: 'consumed', userId: row.user_id, email: row.email };
      const existing = await db
        .selectFrom('tokens')
        .select(['kind', 'used_at'])
        .where('hash', '=', hash)
        .executeTakeFirst();
      if (!existing || existing.kind !== kind) return { outcome: 'invalid' };
      return { outcome: existing.used_at !== null ? 'used' : 'expired' };
    },
    async revokeForUser(userId, kind, now) {
      let update = db
        .updateTable('tokens')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null);
      if (kind !== null) update = update.where('kind', '=', kind);
      await update.execute();
    },
  };
}
