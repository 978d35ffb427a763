import type {
  OccurrenceKey,
  OccurrenceStatus,
  ReminderDeliveryStore,
} from '../types/reminder-deliveries';
import { NotFoundError } from '../types/errors';
import type { Db } from './shared';

const OUTCOMES = new Set(['sent', 'missed', 'skipped']);

function checkKey(key: OccurrenceKey): void {
  if (typeof key.userId !== 'string' || key.userId === '') {
    throw new TypeError('A reminder occurrence needs a user id (a non-empty string).');
  }
  if (typeof key.appId !== 'string' || key.appId === '') {
    throw new TypeError('A reminder occurrence needs an app id (a non-empty string).');
  }
  if (typeof key.reminderId !== 'string' || key.reminderId === '') {
    throw new TypeError('A reminder occurrence needs a reminder id (a non-empty string).');
  }
  if (!Number.isSafeInteger(key.occurrence) || key.occurrence < 0) {
    throw new RangeError(
      `A reminder occurrence is the UTC epoch milliseconds it was due, a non-negative integer; got ${String(key.occurrence)}.`,
    );
  }
}

export function createReminderDeliveryStore(db: Db): ReminderDeliveryStore {
  const row = (key: OccurrenceKey) =>
    db
      .selectFrom('reminder_deliveries')
      .where('user_id', '=', key.userId)
      .where('app_id', '=', key.appId)
      .where('reminder_id', '=', key.reminderId)
      .where('occurrence', '=', key.occurrence);
  return {
    async claimOccurrence(key, claimant, now) {
      checkKey(key);
      if (typeof claimant !== 'string' || claimant === '') {
        throw new TypeError(
          'Claiming a reminder occurrence needs the claiming job (a non-empty string).',
        );
      }
      // One statement on both engines: the insert wins, or the update takes the row back for the
      // same job while it is still sending; anything else returns no row.
      const taken = await db
        .insertInto('reminder_deliveries')
        .values({
          user_id: key.userId,
          app_id: key.appId,
          reminder_id: key.reminderId,
          occurrence: key.occurrence,
          status: 'sending',
          claimed_by: claimant,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'app_id', 'reminder_id', 'occurrence'])
            .doUpdateSet({ updated_at: now })
            .where('reminder_deliveries.status', '=', 'sending')
            .where('reminder_deliveries.claimed_by', '=', claimant),
        )
        .returning('status')
        .executeTakeFirst();
      return taken !== undefined;
    },
    async markOccurrence(key, status, now) {
      checkKey(key);
      if (!OUTCOMES.has(status)) {
        throw new TypeError(
          `A reminder occurrence ends as 'sent', 'missed' or 'skipped'; got ${JSON.stringify(status)}.`,
        );
      }
      const result = await db
        .updateTable('reminder_deliveries')
        .set({ status, updated_at: now })
        .where('user_id', '=', key.userId)
        .where('app_id', '=', key.appId)
        .where('reminder_id', '=', key.reminderId)
        .where('occurrence', '=', key.occurrence)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        throw new NotFoundError(
          `reminder occurrence ${key.userId}/${key.appId}/${key.reminderId}/${key.occurrence} was never claimed`,
        );
      }
    },
    async occurrenceStatus(key) {
      checkKey(key);
      const found = await row(key).select('status').executeTakeFirst();
      return (found?.status as OccurrenceStatus | undefined) ?? null;
    },
  };
}
