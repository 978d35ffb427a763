import { type Selectable, sql } from 'kysely';
import type { Database } from '../schema';
import {
  PUSH_FAILURES_BEFORE_DISABLE,
  type PushSubscriptionRecord,
  type PushSubscriptionStore,
} from '../types/push-subscriptions';
import { type Db, type EngineSpecifics, mapConflict } from './shared';

type Row = Selectable<Database['push_subscriptions']>;

function recordOf(row: Row): PushSubscriptionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    appId: row.app_id,
    deviceId: row.device_id,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    vapidPublicKey: row.vapid_public_key,
    createdAt: Number(row.created_at),
    lastSuccessAt: row.last_success_at === null ? null : Number(row.last_success_at),
    failures: Number(row.failures),
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
  };
}

export function createPushSubscriptionStore(
  db: Db,
  specifics: EngineSpecifics,
): PushSubscriptionStore {
  return {
    upsert(s) {
      // Two requests for one device at once may both find no row; the loser's insert is a unique
      // violation (ConflictError) and the caller may send it again.
      return mapConflict(specifics, () =>
        db.transaction().execute(async (trx) => {
          const existing = await trx
            .selectFrom('push_subscriptions')
            .selectAll()
            .where('user_id', '=', s.userId)
            .where('app_id', '=', s.appId)
            .where('device_id', '=', s.deviceId)
            .executeTakeFirst();
          // The same browser subscription kept for someone else moves here, every app of it: a
          // push to it now reaches whoever subscribed last on that browser. Kept for this app
          // under another device id (the browser's storage was cleared), this row replaces it.
          await trx
            .deleteFrom('push_subscriptions')
            .where('endpoint', '=', s.endpoint)
            .where((w) => w.or([w('user_id', '!=', s.userId), w('app_id', '=', s.appId)]))
            .$if(existing !== undefined, (q) => q.where('id', '!=', existing!.id))
            .execute();
          if (existing) {
            const row = await trx
              .updateTable('push_subscriptions')
              .set({
                endpoint: s.endpoint,
                p256dh: s.p256dh,
                auth: s.auth,
                vapid_public_key: s.vapidPublicKey,
                failures: 0,
                disabled_at: null,
                // A new endpoint has had no success yet.
                last_success_at: existing.endpoint === s.endpoint ? existing.last_success_at : null,
              })
              .where('id', '=', existing.id)
              .returningAll()
              .executeTakeFirstOrThrow();
            return { subscription: recordOf(row), created: false };
          }
          const row = await trx
            .insertInto('push_subscriptions')
            .values({
              id: s.id,
              user_id: s.userId,
              app_id: s.appId,
              device_id: s.deviceId,
              endpoint: s.endpoint,
              p256dh: s.p256dh,
              auth: s.auth,
              vapid_public_key: s.vapidPublicKey,
              created_at: s.createdAt,
              last_success_at: null,
              failures: 0,
              disabled_at: null,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          return { subscription: recordOf(row), created: true };
        }),
      );
    },

    async get(id) {
      const row = await db
        .selectFrom('push_subscriptions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? recordOf(row) : null;
    },

    async listForUser(userId, appId) {
      const rows = await db
        .selectFrom('push_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .$if(appId !== undefined, (q) => q.where('app_id', '=', appId!))
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(recordOf);
    },

    async getByEndpoint(endpoint, appId) {
      const row = await db
        .selectFrom('push_subscriptions')
        .selectAll()
        .where('endpoint', '=', endpoint)
        .$if(appId !== undefined, (q) => q.where('app_id', '=', appId!))
        .orderBy('created_at')
        .executeTakeFirst();
      return row ? recordOf(row) : null;
    },

    async deleteByEndpoint(endpoint, only = {}) {
      const { userId, appId } = only;
      const result = await db
        .deleteFrom('push_subscriptions')
        .where('endpoint', '=', endpoint)
        .$if(userId !== undefined, (q) => q.where('user_id', '=', userId!))
        .$if(appId !== undefined, (q) => q.where('app_id', '=', appId!))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteForDevice(userId, appId, deviceId) {
      const result = await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteForUser(userId) {
      const result = await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async recordSuccess(id, at) {
      const result = await db
        .updateTable('push_subscriptions')
        .set({ last_success_at: at, failures: 0 })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async recordFailure(id, at) {
      // One statement, so failures counted by two instances at once are both counted.
      const failures = sql<number>`${sql.ref('failures')} + 1`;
      const row = await db
        .updateTable('push_subscriptions')
        .set({
          failures,
          disabled_at: sql<
            number | null
          >`CASE WHEN ${sql.ref('failures')} + 1 >= ${PUSH_FAILURES_BEFORE_DISABLE} THEN COALESCE(${sql.ref('disabled_at')}, ${at}) ELSE ${sql.ref('disabled_at')} END`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? recordOf(row) : null;
    },

    async deleteForOtherKeys(vapidPublicKey) {
      const result = await db
        .deleteFrom('push_subscriptions')
        .where('vapid_public_key', '!=', vapidPublicKey)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
