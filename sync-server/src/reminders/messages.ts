import {
  type Collection,
  type Reminder,
  type ReminderPreferences,
  type ReminderRecord,
  recordTitle,
} from '@pipit/app-definition';
import { PUSH_BODY_MAX, PUSH_TITLE_MAX } from '@pipit/protocol';

/*
 * What a reminder's notification says. It shows on the lock screen, so by default it holds only
 * what the app's creator wrote (the reminder's title and text) and, for a reminder about records,
 * how many: a record's own name is there only when the person turned `showRecordText` on.
 */

/** How many records a notification names; the rest are counted ("and 2 more"). */
const NAMED_RECORDS = 3;

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

const itemsText = (count: number) => `${count} ${count === 1 ? 'item' : 'items'}`;

/** "Dentist, Pay rent and 2 more", or null when none of the records has a name. */
function namesText(collection: Collection | undefined, records: readonly ReminderRecord[]) {
  if (!collection) return null;
  const names = records
    .map((record) => recordTitle(collection, record))
    .filter((name): name is string => name !== null)
    // In an order of their own: the records' order in a data document is Yjs's, which differs
    // between the device that wrote them and a copy loaded from storage.
    .sort((a, b) => a.localeCompare(b));
  if (names.length === 0) return null;
  const shown = names.slice(0, NAMED_RECORDS);
  const more = records.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** The title and text of one occurrence's notification. */
export function reminderText(
  reminder: Reminder,
  preferences: ReminderPreferences,
  about: { collection: Collection | undefined; records: readonly ReminderRecord[] } | null,
): { title: string; body: string } {
  const title = clip(reminder.title, PUSH_TITLE_MAX);
  if (!about) return { title, body: clip(reminder.body, PUSH_BODY_MAX) };
  const named = preferences.showRecordText ? namesText(about.collection, about.records) : null;
  const first = named ?? itemsText(about.records.length);
  const body = reminder.body ? `${first} · ${reminder.body}` : first;
  return { title, body: clip(body, PUSH_BODY_MAX) };
}
