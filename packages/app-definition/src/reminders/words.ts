import type { ReminderSchedule } from '../schema/reminder';

/*
 * A reminder's schedule in words, the same wherever a person reads it: Ask AI's summary of its
 * edits, and the Reminders section of an installed app.
 */

const DAY_WORDS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function daysInWords(days: readonly number[]): string {
  if (days.length === 7) return 'every day';
  return `on ${[...days]
    .sort((a, b) => a - b)
    .map((d) => DAY_WORDS[d - 1])
    .join(', ')}`;
}

function offsetInWords(n: number, unit: string, what: string): string {
  if (n === 0) return `on ${what}`;
  const count = `${Math.abs(n)} ${unit}${Math.abs(n) === 1 ? '' : 's'}`;
  return `${count} ${n < 0 ? 'before' : 'after'} ${what}`;
}

/** "every day at 20:00", "1 day before Due at 09:00": a schedule as the person reads it. */
export function scheduleInWords(
  schedule: ReminderSchedule,
  nameOf: (id: unknown) => string,
): string {
  switch (schedule.kind) {
    case 'weekly':
      return `${daysInWords(schedule.days)} at ${schedule.time}`;
    case 'recordDay':
      return `${offsetInWords(schedule.days, 'day', nameOf(schedule.fieldId))} at ${schedule.time}`;
    case 'recordTime':
      return schedule.minutes === 0
        ? `at the time of ${nameOf(schedule.fieldId)}`
        : offsetInWords(schedule.minutes, 'minute', nameOf(schedule.fieldId));
    case 'formula':
      return `${daysInWords(schedule.days)} at ${schedule.time}, for ${nameOf(schedule.collectionId)} where ${schedule.formula}`;
  }
}
