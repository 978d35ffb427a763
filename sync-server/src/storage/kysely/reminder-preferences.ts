import type { Selectable } from 'kysely';
import { reminderPreferencesSchema } from '@pipit/app-definition';
import type { Database } from '../schema';
import type {
  ReminderPreferenceRecord,
  ReminderPreferenceStore,
} from '../types/reminder-preferences';
import type { Db } from './shared';

type Row = Selectable<Database['reminder_preferences']>;

/**
 * A row whose choices no longer read (written by a version whose rules were looser) counts as
 * turned off: nothing is sent on choices that cannot be shown back to the person.
 */
function recordOf(row: Row): ReminderPreferenceRecord | null {
  let preferences: unknown;
  try {
    preferences = JSON.parse(row.preferences);
  } catch {
    return null;
  }
  const read = reminderPreferencesSchema.safeParse(preferences);
  if (!read.success) return null;
  return {
    userId: row.user_id,
    appId: row.app_id,
    reminderId: row.reminder_id,
    preferences: read.data,
    updatedAt: Number(row.updated_at),
  };
}

const records = (rows: Row[]) =>
  rows.map(recordOf).filter((r): r is ReminderPreferenceRecord => r !== null);

export function createReminderPreferenceStore(db: Db): ReminderPreferenceStore {
  return {
    async put(record) {
      const values = {
        enabled: record.preferences.enabled ? 1 : 0,
        preferences: JSON.stringify(record.preferences),
        updated_at: record.updatedAt,
      };
      await db
        .insertInto('reminder_preferences')
        .values({
          user_id: record.userId,
          app_id: record.appId,
          reminder_id: record.reminderId,
          ...values,
        })
        .onConflict((oc) => oc.columns(['user_id', 'app_id', 'reminder_id']).doUpdateSet(values))
        .execute();
    },

    async get(userId, appId, reminderId) {
      const row = await db
        .selectFrom('reminder_preferences')
        .selectAll()
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('reminder_id', '=', reminderId)
        .executeTakeFirst();
      return row ? recordOf(row) : null;
    },

    async listForUser(userId, appId) {
      const rows = await db
        .selectFrom('reminder_preferences')
        .selectAll()
        .where('user_id', '=', userId)
        .$if(appId !== undefined, (q) => q.where('app_id', '=', appId!))
        .orderBy('app_id')
        .orderBy('reminder_id')
        .execute();
      return records(rows);
    },

    async listEnabled(limit, after) {
      const rows = await db
        .selectFrom('reminder_preferences')
        .selectAll()
        .where('enabled', '=', 1)
        .$if(after !== undefined, (q) =>
          q.where((w) =>
            w.or([
              w('user_id', '>', after!.userId),
              w.and([w('user_id', '=', after!.userId), w('app_id', '>', after!.appId)]),
              w.and([
                w('user_id', '=', after!.userId),
                w('app_id', '=', after!.appId),
                w('reminder_id', '>', after!.reminderId),
              ]),
            ]),
          ),
        )
        .orderBy('user_id')
        .orderBy('app_id')
        .orderBy('reminder_id')
        .limit(limit)
        .execute();
      const last = rows.length === limit ? rows.at(-1) : undefined;
      return {
        records: records(rows),
        next: last
          ? { userId: last.user_id, appId: last.app_id, reminderId: last.reminder_id }
          : null,
      };
    },

    async deleteForUser(userId) {
      const result = await db
        .deleteFrom('reminder_preferences')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async delete(userId, appId, reminderId) {
      const result = await db
        .deleteFrom('reminder_preferences')
        .where('user_id', '=', userId)
        .where('app_id', '=', appId)
        .where('reminder_id', '=', reminderId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
