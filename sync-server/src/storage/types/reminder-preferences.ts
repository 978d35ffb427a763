import type { ReminderPreferences } from '@pipit/app-definition';

/** One person's choices for one reminder of one app (docs/product/reminders.md). */
export interface ReminderPreferenceRecord {
  userId: string;
  appId: string;
  reminderId: string;
  preferences: ReminderPreferences;
  updatedAt: number;
}

/** Whose reminder of which app. */
export type ReminderKey = Pick<ReminderPreferenceRecord, 'userId' | 'appId' | 'reminderId'>;

export interface ReminderPreferenceStore {
  /** Stores a person's choices for a reminder, replacing what was there. */
  put(record: ReminderPreferenceRecord): Promise<void>;
  get(userId: string, appId: string, reminderId: string): Promise<ReminderPreferenceRecord | null>;
  /** A person's choices, in one app when given. */
  listForUser(userId: string, appId?: string): Promise<ReminderPreferenceRecord[]>;
  /**
   * Turned-on reminders, a page of `limit` rows at a time in a stable order after `after`, for the
   * sweep that makes sure each has its next occurrence queued. `next` is where the next page
   * starts, null after the last one (a row whose choices do not read is skipped, not the end).
   */
  listEnabled(
    limit: number,
    after?: ReminderKey,
  ): Promise<{ records: ReminderPreferenceRecord[]; next: ReminderKey | null }>;
  delete(userId: string, appId: string, reminderId: string): Promise<boolean>;
  /** Every choice of a person (their account is deleted); returns how many went. */
  deleteForUser(userId: string): Promise<number>;
}
