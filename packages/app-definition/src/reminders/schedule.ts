import { z } from 'zod';
import { REMINDER_LIMITS, TIME_TEXT, timeOfDaySchema } from '../schema/reminder';
import { isTimeZone, type TimeOfDay } from './zones';

export {
  REMINDER_LIMITS,
  WEEKDAYS,
  type Weekday,
  timeOfDaySchema,
  weeklyScheduleSchema,
  recordDayScheduleSchema,
  recordTimeScheduleSchema,
  formulaScheduleSchema,
  reminderScheduleSchema,
  type WeeklySchedule,
  type RecordDaySchedule,
  type RecordTimeSchedule,
  type FormulaSchedule,
  type ReminderSchedule,
  type RecurringSchedule,
  type RecordSchedule,
  reminderSchema,
  type Reminder,
} from '../schema/reminder';

/** `HH:MM` (00:00 to 23:59) as hour and minute, or null. */
export function parseTimeOfDay(text: string): TimeOfDay | null {
  const match = TIME_TEXT.exec(text);
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

export function formatTimeOfDay(time: TimeOfDay): string {
  return `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
}

export const timeZoneSchema = z
  .string()
  .max(REMINDER_LIMITS.timeZoneLength, 'Pick a time zone from the list, like Europe/Paris.')
  .refine(isTimeZone, {
    error: (issue) =>
      `“${String(issue.input)}” isn't a time zone this device knows. Pick one from the list, like Europe/Paris.`,
  });

/** A wall-clock range when nothing is sent; it may cross midnight (22:00–07:00). */
export const quietHoursSchema = z
  .object({ start: timeOfDaySchema, end: timeOfDaySchema })
  .refine((quiet) => quiet.start !== quiet.end, {
    message: 'Quiet hours must end at a different time than they start.',
    path: ['end'],
  });
export type QuietHours = z.infer<typeof quietHoursSchema>;

/** One visitor's choices for one reminder, in their own time zone. */
export const reminderPreferencesSchema = z.object({
  enabled: z.boolean(),
  /** Their own time of day, in place of the creator's (schedules with a time of day only). */
  time: timeOfDaySchema.optional(),
  /** IANA, as `Intl.DateTimeFormat().resolvedOptions().timeZone` gives it. */
  timeZone: timeZoneSchema,
  quietHours: quietHoursSchema.optional(),
  /**
   * Whether a reminder about records names them ("Dentist") in the notification, which shows on
   * the lock screen; off (the default), it says only the reminder's title, text and how many.
   */
  showRecordText: z.boolean().optional(),
});
export type ReminderPreferences = z.infer<typeof reminderPreferencesSchema>;
