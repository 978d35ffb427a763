import { type Selectable, sql } from 'kysely';
import type { Database } from '../schema';
import type { CreatorNotificationStore } from '../types/creator-notifications';
import {
  PLATFORM_PUSH_APP_ID,
  PUSH_FAILURES_BEFORE_DISABLE,
  type PushSubscriptionRecord,
} from '../types/push-subscriptions';
import { type Db, type EngineSpecifics, mapConflict } from './shared';

type Row = Selectable<Database['platform_push_subscriptions']>;

function recordOf(row: Row): PushSubscriptionRecord {
  return {
    id: row.id,
    userId: row.user_id,
    appId: PLATFORM_PUSH_APP_ID,
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

type PlatformMethods = Pick<
  CreatorNotificationStore,
  | 'upsertPlatformSubscription'
  | 'getPlatformSubscription'
  | 'listPlatformSubscriptions'
  | 'deletePlatformSubscription'
  | 'recordPlatformSuccess'
  | 'recordPlatformFailure'
>;

/** Pipit's own push subscriptions: as apps' (push-subscriptions.ts), one row per browser. */
export function platformPushSubscriptions(db: Db, specifics: EngineSpecifics): PlatformMethods {
  return {
    upsertPlatformSubscription(s) {
      return mapConflict(specifics, () =>
        db.transaction().execute(async (trx) => {
          const existing = await trx
            .selectFrom('platform_push_subscriptions')
            .selectAll()
            .where('user_id', '=', s.userId)
            .where('device_id', '=', s.deviceId)
            .executeTakeFirst();
          // The browser's subscription kept for someone else (or another device id of this
          // person) moves here: a push to it reaches whoever subscribed last on that browser.
          await trx
            .deleteFrom('platform_push_subscriptions')
            .where('endpoint', '=', s.endpoint)
            .$if(existing !== undefined, (q) => q.where('id', '!=', existing!.id))
            .execute();
          const values = {
            endpoint: s.endpoint,
            p256dh: s.p256dh,
            auth: s.auth,
            vapid_public_key: s.vapidPublicKey,
            failures: 0,
            disabled_at: null,
          };
          if (existing) {
            const row = await trx
              .updateTable('platform_push_subscriptions')
              .set({
                ...values,
                last_success_at: existing.endpoint === s.endpoint ? existing.last_success_at : null,
              })
              .where('id', '=', existing.id)
              .returningAll()
              .executeTakeFirstOrThrow();
            return { subscription: recordOf(row), created: false };
          }
          const row = await trx
            .insertInto('platform_push_subscriptions')
            .values({
              ...values,
              id: s.id,
              user_id: s.userId,
              device_id: s.deviceId,
              created_at: s.createdAt,
              last_success_at: null,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          return { subscription: recordOf(row), created: true };
        }),
      );
    },

    async getPlatformSubscription(id) {
      const row = await db
        .selectFrom('platform_push_subscriptions')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? recordOf(row) : null;
    },

    async listPlatformSubscriptions(userId) {
      const rows = await db
        .selectFrom('platform_push_subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(recordOf);
    },

    async deletePlatformSubscription(endpoint, userId) {
      const result = await db
        .deleteFrom('platform_push_subscriptions')
        .where('endpoint', '=', endpoint)
        .$if(userId !== undefined, (q) => q.where('user_id', '=', userId!))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async recordPlatformSuccess(id, at) {
      const result = await db
        .updateTable('platform_push_subscriptions')
        .set({ last_success_at: at, failures: 0 })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async recordPlatformFailure(id, at) {
      // One statement, so failures counted by two instances at once are both counted.
      const row = await db
        .updateTable('platform_push_subscriptions')
        .set({
          failures: sql<number>`${sql.ref('failures')} + 1`,
          disabled_at: sql<
            number | null
          >`CASE WHEN ${sql.ref('failures')} + 1 >= ${PUSH_FAILURES_BEFORE_DISABLE} THEN COALESCE(${sql.ref('disabled_at')}, ${at}) ELSE ${sql.ref('disabled_at')} END`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? recordOf(row) : null;
    },
  };
}
