import { CHANGE_AUTHOR_KINDS, type ChangeAuthorKind } from '@pipit/protocol';
import type { AppChangeRecord, AppChangeStore } from '../types/app-changes';
import type { Db } from './shared';

/** Rows per insert statement: 8 values each, well within both engines' bound on parameters. */
const INSERT_CHUNK = 500;

function parsePaths(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

const kindOf = (value: string): ChangeAuthorKind =>
  (CHANGE_AUTHOR_KINDS as readonly string[]).includes(value)
    ? (value as ChangeAuthorKind)
    : 'person';

export function createAppChangeStore(db: Db): AppChangeStore {
  return {
    async add(changes) {
      if (changes.length === 0) return 0;
      return db.transaction().execute(async (trx) => {
        const appIds = [...new Set(changes.map((c) => c.appId))];
        const existing = await trx
          .selectFrom('apps')
          .select('id')
          .where('id', 'in', appIds)
          .execute();
        const live = new Set(existing.map((row) => row.id));
        const kept = changes.filter((c) => live.has(c.appId));
        for (let start = 0; start < kept.length; start += INSERT_CHUNK) {
          await trx
            .insertInto('app_changes')
            .values(
              kept.slice(start, start + INSERT_CHUNK).map((c) => ({
                id: c.id,
                app_id: c.appId,
                entity: c.entity,
                entity_id: c.entityId,
                paths: JSON.stringify(c.paths),
                kind: c.kind,
                author_id: c.authorId,
                at: c.at,
              })),
            )
            .execute();
        }
        return kept.length;
      });
    },

    async list(appId, { since, until, entity, limit }) {
      let query = db
        .selectFrom('app_changes')
        .leftJoin('users', (join) =>
          join.onRef('users.id', '=', 'app_changes.author_id').on('users.deleted_at', 'is', null),
        )
        .select([
          'app_changes.id',
          'app_changes.app_id',
          'app_changes.entity',
          'app_changes.entity_id',
          'app_changes.paths',
          'app_changes.kind',
          'app_changes.at',
          'users.id as user_id',
          'users.username',
          'users.display_name',
        ])
        .where('app_changes.app_id', '=', appId);
      if (since !== undefined) query = query.where('app_changes.at', '>', since);
      if (until !== undefined) query = query.where('app_changes.at', '<=', until);
      if (entity) {
        query = query
          .where('app_changes.entity', '=', entity.entity)
          .where('app_changes.entity_id', '=', entity.id);
      }
      const rows = await query
        .orderBy('app_changes.at', 'desc')
        .orderBy('app_changes.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row): AppChangeRecord => ({
        id: row.id,
        appId: row.app_id,
        entity: row.entity,
        entityId: row.entity_id,
        paths: parsePaths(row.paths),
        kind: kindOf(row.kind),
        at: Number(row.at),
        author:
          row.user_id && row.username
            ? { id: row.user_id, username: row.username, displayName: row.display_name ?? '' }
            : null,
      }));
    },

    async thin(appId, keep) {
      const edge = await db
        .selectFrom('app_changes')
        .select(['at', 'id'])
        .where('app_id', '=', appId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (!edge) return 0;
      // The edge and everything older than it (by time, then id) goes.
      const at = Number(edge.at);
      const result = await db
        .deleteFrom('app_changes')
        .where('app_id', '=', appId)
        .where((eb) =>
          eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<=', edge.id)])]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows ?? 0);
    },
  };
}
