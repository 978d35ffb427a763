import type { ReminderPreferences } from '@pipit/app-definition';

/** One person's choices for one reminder of one app (docs/product/reminders.md). */
export interface ReminderPreferenceRecord {
  userId: string;
  appId: string;
  reminderId: string;
  preferences: ReminderPreferences;
  updatedAt: number;
}

export interface ReminderPreferenceStore {
  /** Stores a person's choices for a reminder, replacing what was there. */
  put(record: ReminderPreferenceRecord): Promise<void>;
  get(userId: string, appId: string, reminderId: string): Promise<ReminderPreferenceRecord | null>;
  /** A person's choices, in one app when given. */
  listForUser(userId: string, appId?: string): Promise<ReminderPreferenceRecord[]>;
  /**
   * Turned-on reminders, a page at a time in a stable order after `after` (the last one of the
   * page before), for the sweep that makes sure each has its next occurrence queued.
   */
  listEnabled(
    limit: number,
    after?: Pick<ReminderPreferenceRecord, 'userId' | 'appId' | 'reminderId'>,
  ): Promise<ReminderPreferenceRecord[]>;
  delete(userId: string, appId: string, reminderId: string): Promise<boolean>;
  /** Every choice of a person (their account is deleted); returns how many went. */
  deleteForUser(userId: string): Promise<number>;
}
