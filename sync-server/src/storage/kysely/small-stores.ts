import { sql } from 'kysely';
import type { StorageEngine } from '@pipit/protocol';
import type {
  BackupRun,
  BackupRunStore,
  HumanCheckStore,
  InstanceStatus,
  InstanceStore,
  MessageRecord,
  MessageStore,
  RateLimitStore,
  SecretStore,
  UploadStore,
} from '../types/small-stores';
import { type Db, holdRow, toUint8Array } from './shared';
import { uploadBytesOf, writeUpload } from './upload-quota';

/** Rate-limit rows older than this are removed now and then; no window is longer. */
const RATE_LIMIT_ROW_TTL_MS = 24 * 60 * 60 * 1000;

export function createRateLimitStore(db: Db): RateLimitStore {
  return {
    async hit(key, windowMs, now, amount = 1) {
      const cutoff = now - windowMs;
      // Atomic on both engines: one upsert either starts a new window or counts in the current one.
      // Both CASE expressions read the row as it was before this update.
      const row = await db
        .insertInto('rate_limits')
        .values({ key, window_start: now, count: amount })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            count: sql<number>`CASE WHEN ${sql.ref('rate_limits.window_start')} <= ${cutoff} THEN ${amount} ELSE ${sql.ref('rate_limits.count')} + ${amount} END`,
            window_start: sql<number>`CASE WHEN ${sql.ref('rate_limits.window_start')} <= ${cutoff} THEN ${now} ELSE ${sql.ref('rate_limits.window_start')} END`,
          }),
        )
        .returning(['count', 'window_start'])
        .executeTakeFirstOrThrow();
      if (Math.random() < 0.01) {
        await db
          .deleteFrom('rate_limits')
          .where('window_start', '<', now - RATE_LIMIT_ROW_TTL_MS)
          .execute();
      }
      return { count: Number(row.count), resetAt: Number(row.window_start) + windowMs };
    },
    async peek(key, windowMs, now) {
      const row = await db
        .selectFrom('rate_limits')
        .select(['count', 'window_start'])
        .where('key', '=', key)
        .executeTakeFirst();
      // The same rule as `hit`: a window that started `windowMs` ago or earlier is over.
      if (!row || Number(row.window_start) <= now - windowMs) {
        return { count: 0, resetAt: now + windowMs };
      }
      return { count: Number(row.count), resetAt: Number(row.window_start) + windowMs };
    },
  };
}

export function createHumanCheckStore(db: Db): HumanCheckStore {
  return {
    async consume(signature, expiresAt, now) {
      // Expired uses are pruned now and then, like rate-limit rows: an expired challenge is refused
      // before it gets here, so a stale row never decides anything.
      if (Math.random() < 0.01) {
        await db.deleteFrom('human_check_uses').where('expires_at', '<', now).execute();
      }
      const inserted = await db
        .insertInto('human_check_uses')
        .values({ signature, expires_at: expiresAt })
        .onConflict((oc) => oc.column('signature').doNothing())
        .returning('signature')
        .executeTakeFirst();
      return inserted !== undefined;
    },
  };
}

export function createSecretStore(db: Db): SecretStore {
  return {
    async getOrCreate(name, create) {
      await db
        .insertInto('server_secrets')
        .values({ name, value: create(), created_at: Date.now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}

export function createMessageStore(db: Db): MessageStore {
  return {
    async insert(m) {
      await db
        .insertInto('messages')
        .values({
          id: m.id,
          kind: m.kind,
          user_id: m.userId,
          email: m.email,
          body: m.body,
          page: m.page,
          created_at: m.createdAt,
        })
        .execute();
    },
    async list(limit) {
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r): MessageRecord => ({
        id: r.id,
        kind: r.kind as MessageRecord['kind'],
        userId: r.user_id,
        email: r.email,
        body: r.body,
        page: r.page,
        createdAt: r.created_at,
      }));
    },
  };
}

export function createUploadStore(db: Db, engine: StorageEngine): UploadStore {
  return {
    async insert(u) {
      await db.transaction().execute((trx) => writeUpload(trx, u));
    },
    insertWithinQuota(u, quotaBytes) {
      // One transaction per person at a time: the sum and the insert see the same uploads, so
      // requests sent together cannot each find room for themselves in the same bytes.
      return db.transaction().execute(async (trx) => {
        await holdRow(trx, engine, 'users', u.userId);
        if ((await uploadBytesOf(trx, u.userId)) + u.bytes.byteLength > quotaBytes) return false;
        await writeUpload(trx, u);
        return true;
      });
    },
    async get(id) {
      const row = await db
        .selectFrom('uploads')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row
        ? {
            id: row.id,
            userId: row.user_id,
            contentType: row.content_type,
            bytes: toUint8Array(row.bytes),
            createdAt: Number(row.created_at),
            appId: row.app_id,
          }
        : null;
    },
    async idsForApp(appId) {
      const rows = await db
        .selectFrom('uploads')
        .select('id')
        .where('app_id', '=', appId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => row.id);
    },
    async delete(id) {
      await db.deleteFrom('uploads').where('id', '=', id).execute();
    },
    async deleteForUser(userId) {
      await db.deleteFrom('uploads').where('user_id', '=', userId).execute();
    },
    totalBytesForUser(userId) {
      return uploadBytesOf(db, userId);
    },
  };
}

/** Backup runs kept: enough for months of daily backups, never a growing table. */
export const BACKUP_RUNS_KEPT = 200;

export function createBackupRunStore(db: Db): BackupRunStore {
  return {
    async record(run) {
      await db
        .insertInto('backup_runs')
        .values({
          id: run.id,
          instance: run.instance,
          started_at: run.startedAt,
          finished_at: run.finishedAt,
          status: run.status,
          file: run.file,
          bytes: run.bytes,
          rows: run.rows,
          drill: run.drill,
          message: run.message,
        })
        .execute();
      const oldest = await db
        .selectFrom('backup_runs')
        .select('started_at')
        .orderBy('started_at', 'desc')
        .offset(BACKUP_RUNS_KEPT - 1)
        .limit(1)
        .executeTakeFirst();
      if (oldest) {
        await db.deleteFrom('backup_runs').where('started_at', '<', oldest.started_at).execute();
      }
    },
    async recent(limit) {
      const rows = await db
        .selectFrom('backup_runs')
        .selectAll()
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row): BackupRun => ({
        id: row.id,
        instance: row.instance,
        startedAt: Number(row.started_at),
        finishedAt: Number(row.finished_at),
        status: row.status as BackupRun['status'],
        file: row.file,
        bytes: row.bytes === null ? null : Number(row.bytes),
        rows: row.rows === null ? null : Number(row.rows),
        drill: row.drill as BackupRun['drill'],
        message: row.message,
      }));
    },
  };
}

export function createInstanceStore(db: Db, engine: StorageEngine): InstanceStore {
  return {
    async beat(status, forgetBefore) {
      const row = {
        name: status.name,
        version: status.version,
        started_at: status.startedAt,
        seen_at: status.seenAt,
        sockets: status.sockets,
        documents: status.documents,
        rss_bytes: status.rssBytes,
        heap_bytes: status.heapBytes,
        window_ms: status.windowMs,
        requests: status.requests,
        server_errors: status.serverErrors,
      };
      const { name: _name, ...changes } = row;
      await db
        .insertInto('instance_status')
        .values(row)
        .onConflict((oc) => oc.column('name').doUpdateSet(changes))
        .execute();
      await db.deleteFrom('instance_status').where('seen_at', '<', forgetBefore).execute();
    },
    async list(since) {
      const rows = await db
        .selectFrom('instance_status')
        .selectAll()
        .where('seen_at', '>=', since)
        .orderBy('name')
        .execute();
      return rows.map((row): InstanceStatus => ({
        name: row.name,
        version: row.version,
        startedAt: Number(row.started_at),
        seenAt: Number(row.seen_at),
        sockets: Number(row.sockets),
        documents: Number(row.documents),
        rssBytes: Number(row.rss_bytes),
        heapBytes: Number(row.heap_bytes),
        windowMs: Number(row.window_ms),
        requests: Number(row.requests),
        serverErrors: Number(row.server_errors),
      }));
    },
    async databaseBytes() {
      if (engine === 'postgres') {
        const { rows } = await sql<{
          bytes: string;
        }>`SELECT pg_database_size(current_database()) AS bytes`.execute(db);
        return Number(rows[0]?.bytes ?? 0);
      }
      const pages = await sql<{ bytes: number }>`
        SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()`.execute(
        db,
      );
      return Number(pages.rows[0]?.bytes ?? 0);
    },
    async recordSize(day, bytes, forgetBefore) {
      await db
        .insertInto('storage_sizes')
        .values({ day, bytes })
        .onConflict((oc) => oc.column('day').doUpdateSet({ bytes }))
        .execute();
      await db.deleteFrom('storage_sizes').where('day', '<', forgetBefore).execute();
    },
    async sizeSince(since) {
      const row = await db
        .selectFrom('storage_sizes')
        .select(['day', 'bytes'])
        .where('day', '>=', since)
        .orderBy('day')
        .limit(1)
        .executeTakeFirst();
      return row ? { day: Number(row.day), bytes: Number(row.bytes) } : null;
    },
  };
}
