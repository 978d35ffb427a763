import { z } from 'zod';
import { LIMITS } from './limits';

/*
 * A reminder as the creator defines it in the app definition. It lives beside the rest of the
 * definition's schema, which imports nothing else of the package; reminders/ holds what works out
 * when one is due and a visitor's own choices.
 */

/** What a reminder may hold, each enforced by the schemas below with a clear error. */
export const REMINDER_LIMITS = {
  /** How far before or after a record's date a reminder may fire, in days. */
  maxDaysOffset: 365,
  /** How far before or after a record's date and time a reminder may fire, in minutes (a week). */
  maxMinutesOffset: 7 * 24 * 60,
  /**
   * A notification's title and text: far below the 3993 bytes a push message leaves for them, even
   * at four bytes a character, so the rest of the payload always fits.
   */
  titleLength: 60,
  bodyLength: 200,
  /** IANA names are short; a longer one is refused before `Intl` reads it. */
  timeZoneLength: 64,
} as const;

/** Monday is 1 and Sunday 7, as the formulas' `weekday` counts. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A time of day as `<input type="time">` gives it and an app definition keeps it: `HH:MM`. */
export const TIME_TEXT = /^([01]\d|2[0-3]):([0-5]\d)$/;

const id = z.string().min(1).max(64);

export const timeOfDaySchema = z
  .string()
  .regex(TIME_TEXT, 'Pick a time between 00:00 and 23:59, written like 07:30.');

const weekdaySchema = z.literal(WEEKDAYS, 'Days are numbered 1 (Monday) to 7 (Sunday).');

const weekdaysSchema = z
  .array(weekdaySchema)
  .min(1, 'Choose at least one day.')
  .max(7)
  .refine((days) => new Set(days).size === days.length, 'Choose each day only once.');

/** "Every day at 20:00", "Mon–Fri at 07:30": a wall time on chosen weekdays. */
export const weeklyScheduleSchema = z.object({
  kind: z.literal('weekly'),
  days: weekdaysSchema,
  /** The creator's time; each visitor may choose their own. */
  time: timeOfDaySchema,
});

const daysOffsetSchema = z
  .number()
  .int('Use a whole number of days.')
  .min(
    -REMINDER_LIMITS.maxDaysOffset,
    `Remind at most ${REMINDER_LIMITS.maxDaysOffset} days before the date.`,
  )
  .max(
    REMINDER_LIMITS.maxDaysOffset,
    `Remind at most ${REMINDER_LIMITS.maxDaysOffset} days after the date.`,
  );

const minutesOffsetSchema = z
  .number()
  .int('Use a whole number of minutes.')
  .min(
    -REMINDER_LIMITS.maxMinutesOffset,
    `Remind at most ${REMINDER_LIMITS.maxMinutesOffset / 1440} days before the time.`,
  )
  .max(
    REMINDER_LIMITS.maxMinutesOffset,
    `Remind at most ${REMINDER_LIMITS.maxMinutesOffset / 1440} days after the time.`,
  );

/**
 * "A day before the record's date, at 09:00": a wall time on a day counted from a date or
 * date-and-time field (for the latter, the day the visitor's clock shows for it).
 */
export const recordDayScheduleSchema = z.object({
  kind: z.literal('recordDay'),
  collectionId: id,
  fieldId: id,
  /** Days from the record's date: -1 is the day before, 0 the day itself, 1 the day after. */
  days: daysOffsetSchema,
  time: timeOfDaySchema,
});

/**
 * "1 hour before", "at the time": an instant counted from a date-and-time field. A date-only field
 * counts from the start of its day (00:00) in the visitor's zone.
 */
export const recordTimeScheduleSchema = z.object({
  kind: z.literal('recordTime'),
  collectionId: id,
  fieldId: id,
  /** Minutes from the record's time: -60 is an hour before, 0 the time itself. */
  minutes: minutesOffsetSchema,
});

/**
 * "When {Stock} < 3": a formula over a collection's records, checked at a wall time on chosen days.
 * The formula is evaluated elsewhere; this is when it is looked at.
 */
export const formulaScheduleSchema = z.object({
  kind: z.literal('formula'),
  collectionId: id,
  formula: z
    .string()
    .trim()
    .min(1, 'Write the formula that decides when to remind.')
    .max(LIMITS.formulaLength, `Keep the formula to ${LIMITS.formulaLength} characters.`),
  days: weekdaysSchema,
  time: timeOfDaySchema,
});

export const reminderScheduleSchema = z.discriminatedUnion('kind', [
  weeklyScheduleSchema,
  recordDayScheduleSchema,
  recordTimeScheduleSchema,
  formulaScheduleSchema,
]);

export type WeeklySchedule = z.infer<typeof weeklyScheduleSchema>;
export type RecordDaySchedule = z.infer<typeof recordDayScheduleSchema>;
export type RecordTimeSchedule = z.infer<typeof recordTimeScheduleSchema>;
export type FormulaSchedule = z.infer<typeof formulaScheduleSchema>;
export type ReminderSchedule = z.infer<typeof reminderScheduleSchema>;
/** The schedules that repeat at a wall time on chosen days. */
export type RecurringSchedule = WeeklySchedule | FormulaSchedule;
/** The schedules counted from a record's date. */
export type RecordSchedule = RecordDaySchedule | RecordTimeSchedule;

/** A reminder as the creator defines it in the app. */
export const reminderSchema = z.object({
  id,
  title: z
    .string()
    .trim()
    .min(1, 'Give the reminder a title.')
    .max(
      REMINDER_LIMITS.titleLength,
      `Keep the reminder's title to ${REMINDER_LIMITS.titleLength} characters.`,
    ),
  body: z
    .string()
    .max(
      REMINDER_LIMITS.bodyLength,
      `Keep the reminder's text to ${REMINDER_LIMITS.bodyLength} characters.`,
    )
    .default(''),
  schedule: reminderScheduleSchema,
});
export type Reminder = z.infer<typeof reminderSchema>;
