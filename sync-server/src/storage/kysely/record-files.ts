import type { RecordFileKind, StorageEngine } from '@pipit/protocol';
import type { Selectable } from 'kysely';
import type { Database } from '../schema';
import type { RecordFileInfo, RecordFileRecord, RecordFileStore } from '../types/record-files';
import { type Db, holdRow, toUint8Array } from './shared';
import { uploadBytesOf } from './upload-quota';

type Row = Selectable<Database['record_files']>;

const INFO_COLUMNS = [
  'scope',
  'hash',
  'app_id',
  'space_id',
  'owner_id',
  'uploaded_by',
  'kind',
  'content_type',
  'width',
  'height',
  'size',
  'created_at',
] as const;

function infoOf(row: Omit<Row, 'bytes' | 'thumbnail'>): RecordFileInfo {
  return {
    scope: row.scope,
    hash: row.hash,
    appId: row.app_id,
    spaceId: row.space_id,
    ownerId: row.owner_id,
    uploadedBy: row.uploaded_by,
    kind: row.kind as RecordFileKind,
    contentType: row.content_type,
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    size: Number(row.size),
    createdAt: Number(row.created_at),
  };
}

function recordOf(row: Row): RecordFileRecord {
  const { size: _size, ...info } = infoOf(row);
  return {
    ...info,
    bytes: toUint8Array(row.bytes),
    thumbnail: row.thumbnail ? toUint8Array(row.thumbnail) : null,
  };
}

export function createRecordFileStore(db: Db, engine: StorageEngine): RecordFileStore {
  const info = async (on: Db, scope: string, hash: string) => {
    const row = await on
      .selectFrom('record_files')
      .select(INFO_COLUMNS)
      .where('scope', '=', scope)
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? infoOf(row) : null;
  };
  return {
    insertWithinQuota(file, limits) {
      return db.transaction().execute(async (trx) => {
        await holdRow(trx, engine, 'users', file.ownerId);
        const existing = await info(trx, file.scope, file.hash);
        if (existing) return { outcome: 'existing', file: existing };
        const size = file.bytes.byteLength + (file.thumbnail?.byteLength ?? 0);
        if ((await uploadBytesOf(trx, file.ownerId)) + size > limits.quotaBytes) {
          return { outcome: 'over_quota' };
        }
        const count = await trx
          .selectFrom('record_files')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('scope', '=', file.scope)
          .executeTakeFirst();
        if (Number(count?.n ?? 0) >= limits.perScope) return { outcome: 'scope_full' };
        await trx
          .insertInto('record_files')
          .values({
            scope: file.scope,
            hash: file.hash,
            app_id: file.appId,
            space_id: file.spaceId,
            owner_id: file.ownerId,
            uploaded_by: file.uploadedBy,
            kind: file.kind,
            content_type: file.contentType,
            bytes: file.bytes,
            thumbnail: file.thumbnail,
            width: file.width,
            height: file.height,
            size,
            created_at: file.createdAt,
          })
          .execute();
        const { bytes: _bytes, thumbnail: _thumbnail, ...stored } = file;
        return { outcome: 'stored', file: { ...stored, size } };
      });
    },
    info: (scope, hash) => info(db, scope, hash),
    async get(scope, hash) {
      const row = await db
        .selectFrom('record_files')
        .selectAll()
        .where('scope', '=', scope)
        .where('hash', '=', hash)
        .executeTakeFirst();
      return row ? recordOf(row) : null;
    },
    async listForScope(scope) {
      const rows = await db
        .selectFrom('record_files')
        .selectAll()
        .where('scope', '=', scope)
        .orderBy('created_at')
        .orderBy('hash')
        .execute();
      return rows.map(recordOf);
    },
    async storedBefore(before, limit, after) {
      let query = db
        .selectFrom('record_files')
        .select(['created_at', 'scope', 'hash'])
        .where('created_at', '<', before);
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('scope', '>', after.scope)]),
            eb.and([
              eb('created_at', '=', after.createdAt),
              eb('scope', '=', after.scope),
              eb('hash', '>', after.hash),
            ]),
          ]),
        );
      }
      const rows = await query
        .orderBy('created_at')
        .orderBy('scope')
        .orderBy('hash')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        createdAt: Number(row.created_at),
        scope: row.scope,
        hash: row.hash,
      }));
    },
    async delete(scope, hashes) {
      if (hashes.length === 0) return 0;
      const result = await db
        .deleteFrom('record_files')
        .where('scope', '=', scope)
        .where('hash', 'in', [...hashes])
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async deleteForApp(appId) {
      await db.deleteFrom('record_files').where('app_id', '=', appId).execute();
    },
    async deleteForSpace(spaceId) {
      await db.deleteFrom('record_files').where('space_id', '=', spaceId).execute();
    },
    async deleteForPersonData(userId) {
      await db
        .deleteFrom('record_files')
        .where('owner_id', '=', userId)
        .where('space_id', 'is', null)
        .execute();
    },
  };
}
