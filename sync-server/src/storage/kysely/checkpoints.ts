import type { CheckpointKind } from '@pipit/protocol';
import type { CheckpointRecord, CheckpointStore } from '../types/checkpoints';
import { type Db, toUint8Array } from './shared';

const COLUMNS = [
  'checkpoints.id',
  'checkpoints.app_id',
  'checkpoints.kind',
  'checkpoints.name',
  'checkpoints.version',
  'checkpoints.created_at',
  'checkpoints.author_ids',
  'checkpoints.changes',
  'checkpoints.definition_hash',
  'checkpoints.size',
  'users.id as user_id',
  'users.username',
  'users.display_name',
] as const;

function select(db: Db, appId: string) {
  return db
    .selectFrom('checkpoints')
    .leftJoin('users', (join) =>
      join.onRef('users.id', '=', 'checkpoints.created_by').on('users.deleted_at', 'is', null),
    )
    .select(COLUMNS)
    .where('checkpoints.app_id', '=', appId);
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirstOrThrow']>>;

function parseIds(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function toRecord(row: Row): CheckpointRecord {
  return {
    id: row.id,
    appId: row.app_id,
    kind: row.kind as CheckpointKind,
    name: row.name,
    version: row.version === null ? null : Number(row.version),
    createdAt: Number(row.created_at),
    createdBy:
      row.user_id && row.username
        ? { id: row.user_id, username: row.username, displayName: row.display_name ?? '' }
        : null,
    authorIds: parseIds(row.author_ids),
    changesJson: row.changes,
    definitionHash: row.definition_hash,
    size: Number(row.size),
  };
}

export function createCheckpointStore(db: Db): CheckpointStore {
  return {
    async insert(c) {
      const result = await db
        .insertInto('checkpoints')
        .values({
          id: c.id,
          app_id: c.appId,
          kind: c.kind,
          name: c.name,
          version: c.version,
          created_at: c.createdAt,
          created_by: c.createdById,
          author_ids: JSON.stringify(c.authorIds),
          changes: c.changesJson,
          definition_hash: c.definitionHash,
          definition: c.definition,
          size: c.size,
        })
        .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async list(appId) {
      const rows = await select(db, appId)
        .orderBy('checkpoints.created_at', 'desc')
        .orderBy('checkpoints.id', 'desc')
        .execute();
      return rows.map(toRecord);
    },

    async get(appId, id) {
      const row = await select(db, appId).where('checkpoints.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async latest(appId) {
      const row = await select(db, appId)
        .orderBy('checkpoints.created_at', 'desc')
        .orderBy('checkpoints.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async definition(appId, id) {
      const row = await db
        .selectFrom('checkpoints')
        .select('definition')
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toUint8Array(row.definition) : null;
    },

    async delete(appId, ids) {
      if (ids.length === 0) return;
      await db
        .deleteFrom('checkpoints')
        .where('app_id', '=', appId)
        .where('id', 'in', ids)
        .execute();
    },
  };
}
