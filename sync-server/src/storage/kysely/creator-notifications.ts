import type { Selectable } from 'kysely';
import type { Database } from '../schema';
import {
  CREATOR_NOTIFICATION_KINDS,
  type CreatorNotificationKind,
  type CreatorNotificationRecord,
  type CreatorNotificationStore,
  EMAIL_DIGEST_CHOICES,
  type EmailDigestChoice,
} from '../types/creator-notifications';
import { platformPushSubscriptions } from './platform-push-subscriptions';
import type { Db, EngineSpecifics } from './shared';

type Row = Selectable<Database['creator_notifications']>;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function recordOf(row: Row): CreatorNotificationRecord {
  return {
    id: row.id,
    userId: row.user_id,
    appId: row.app_id,
    kind: row.kind as CreatorNotificationKind,
    actorId: row.actor_id,
    dedupeKey: row.dedupe_key,
    createdAt: Number(row.created_at),
    digestPending: Number(row.digest_pending) === 1,
    digestedAt: row.digested_at === null ? null : Number(row.digested_at),
  };
}

function checkDay(day: string): void {
  if (typeof day !== 'string' || !DAY_PATTERN.test(day)) {
    throw new RangeError(
      `A digest's day is YYYY-MM-DD (on its zone's calendar); got ${JSON.stringify(day)}.`,
    );
  }
}

function checkNotification(n: CreatorNotificationRecord): void {
  if (!CREATOR_NOTIFICATION_KINDS.includes(n.kind)) {
    throw new TypeError(
      `A creator notification is one of ${CREATOR_NOTIFICATION_KINDS.join(', ')}; got ${JSON.stringify(n.kind)}.`,
    );
  }
  for (const [name, value] of [
    ['id', n.id],
    ['user id', n.userId],
    ['app id', n.appId],
    ['dedupe key', n.dedupeKey],
  ] as const) {
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`A creator notification needs a ${name} (a non-empty string).`);
    }
  }
}

export function createCreatorNotificationStore(
  db: Db,
  specifics: EngineSpecifics,
): CreatorNotificationStore {
  return {
    ...platformPushSubscriptions(db, specifics),
    ...choicesAndRemoval(db),

    async add(n) {
      checkNotification(n);
      const inserted = await db
        .insertInto('creator_notifications')
        .values({
          id: n.id,
          user_id: n.userId,
          app_id: n.appId,
          kind: n.kind,
          actor_id: n.actorId,
          dedupe_key: n.dedupeKey,
          created_at: n.createdAt,
          digest_pending: n.digestPending ? 1 : 0,
          digested_at: n.digestedAt,
        })
        .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async listForUser(userId, limit) {
      const rows = await db
        .selectFrom('creator_notifications')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(recordOf);
    },

    async pendingDigest(userId) {
      const rows = await db
        .selectFrom('creator_notifications')
        .selectAll()
        .where('digest_pending', '=', 1)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(recordOf);
    },

    async usersWithPendingDigest(limit, after) {
      const rows = await db
        .selectFrom('creator_notifications')
        .select('user_id')
        .distinct()
        .where('digest_pending', '=', 1)
        .$if(after !== undefined, (q) => q.where('user_id', '>', after!))
        .orderBy('user_id')
        .limit(limit)
        .execute();
      return rows.map((r) => r.user_id);
    },

    async claimDigest(userId, day, claimant, now) {
      checkDay(day);
      if (typeof claimant !== 'string' || claimant === '') {
        throw new TypeError('Claiming a digest needs the claiming job (a non-empty string).');
      }
      // One statement on both engines, as reminder occurrences are claimed.
      const taken = await db
        .insertInto('creator_digests')
        .values({ user_id: userId, day, status: 'sending', claimed_by: claimant, updated_at: now })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'day'])
            .doUpdateSet({ updated_at: now })
            .where('creator_digests.status', '=', 'sending')
            .where('creator_digests.claimed_by', '=', claimant),
        )
        .returning('status')
        .executeTakeFirst();
      return taken !== undefined;
    },

    async finishDigest(userId, day, carried, now) {
      checkDay(day);
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('creator_digests')
          .set({ status: 'sent', updated_at: now })
          .where('user_id', '=', userId)
          .where('day', '=', day)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) {
          throw new RangeError(`The digest of ${userId} for ${day} was never claimed.`);
        }
        if (carried.length === 0) return;
        await trx
          .updateTable('creator_notifications')
          .set({ digest_pending: 0, digested_at: now })
          .where('user_id', '=', userId)
          .where('id', 'in', carried)
          .execute();
      });
    },

    async digestStatus(userId, day) {
      checkDay(day);
      const row = await db
        .selectFrom('creator_digests')
        .select('status')
        .where('user_id', '=', userId)
        .where('day', '=', day)
        .executeTakeFirst();
      return (row?.status as 'sending' | 'sent' | undefined) ?? null;
    },

    async dropPending(userId) {
      const result = await db
        .updateTable('creator_notifications')
        .set({ digest_pending: 0 })
        .where('user_id', '=', userId)
        .where('digest_pending', '=', 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

/** A person's choice of email digest, and everything of theirs going when their account does. */
function choicesAndRemoval(
  db: Db,
): Pick<
  CreatorNotificationStore,
  'emailDigest' | 'digestTimeZone' | 'setEmailDigest' | 'deleteForUser'
> {
  /** The person's row of choices; none until they first choose. */
  const settingsOf = (userId: string) =>
    db
      .selectFrom('creator_notification_settings')
      .select(['email_digest', 'time_zone'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  return {
    async emailDigest(userId) {
      const choice = (await settingsOf(userId))?.email_digest as EmailDigestChoice | undefined;
      return choice && EMAIL_DIGEST_CHOICES.includes(choice) ? choice : 'when_no_push';
    },

    async digestTimeZone(userId) {
      return (await settingsOf(userId))?.time_zone ?? null;
    },

    async setEmailDigest(userId, choice, now, timeZone) {
      if (!EMAIL_DIGEST_CHOICES.includes(choice)) {
        throw new TypeError(
          `The email digest is one of ${EMAIL_DIGEST_CHOICES.join(', ')}; got ${JSON.stringify(choice)}.`,
        );
      }
      await db
        .insertInto('creator_notification_settings')
        .values({
          user_id: userId,
          email_digest: choice,
          updated_at: now,
          time_zone: timeZone ?? null,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            email_digest: choice,
            updated_at: now,
            ...(timeZone === undefined ? {} : { time_zone: timeZone }),
          }),
        )
        .execute();
    },

    async deleteForUser(userId) {
      return db.transaction().execute(async (trx) => {
        let removed = 0;
        for (const table of [
          'creator_notifications',
          'creator_notification_settings',
          'creator_digests',
          'platform_push_subscriptions',
        ] as const) {
          const result = await trx
            .deleteFrom(table)
            .where('user_id', '=', userId)
            .executeTakeFirst();
          removed += Number(result.numDeletedRows);
        }
        return removed;
      });
    },
  };
}
