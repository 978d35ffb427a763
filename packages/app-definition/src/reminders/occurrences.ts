import {
  civilDate,
  isDayInRange,
  parseDate,
  parseDateTime,
  weekday,
  zonedTime,
} from '../formula/dates';
import {
  parseTimeOfDay,
  type QuietHours,
  type RecordSchedule,
  type RecurringSchedule,
  type ReminderPreferences,
} from './schedule';
import { MINUTE_MS, resolveWallTime, type TimeOfDay } from './zones';

/** How late an occurrence may still be sent; later, it is recorded as missed. */
export const LATE_GRACE_MS = 3_600_000;

/** Whether an occurrence due at `occurrence` is past sending at `now`. */
export function isTooLate(
  occurrence: number,
  now: number,
  graceMs: number = LATE_GRACE_MS,
): boolean {
  return now - occurrence > graceMs;
}

const minuteOfDay = (time: TimeOfDay) => time.hour * 60 + time.minute;

/** Whether a minute of the day is in a quiet range: [start, end), wrapping past midnight. */
function isQuietMinute(minute: number, start: number, end: number): boolean {
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * Whether `ms` falls in the quiet hours, by the wall clock `zone` shows then. False when there are
 * none, or when the zone or the hours can't be read (nothing is held back for a mistake).
 */
export function isInQuietHours(ms: number, quiet: QuietHours | undefined, zone: string): boolean {
  const start = quiet && parseTimeOfDay(quiet.start);
  const end = quiet && parseTimeOfDay(quiet.end);
  const wall = zonedTime(ms, zone);
  if (!start || !end || !wall) return false;
  return isQuietMinute(minuteOfDay(wall), minuteOfDay(start), minuteOfDay(end));
}

/**
 * `ms`, or when it falls in the quiet hours, the end of those quiet hours: their end time on the
 * same day, or on the next when they crossed midnight before `ms`. The end is a wall time like any
 * other, so a DST change that night moves it as it moves an occurrence.
 */
export function afterQuietHours(ms: number, quiet: QuietHours | undefined, zone: string): number {
  if (!quiet || !isInQuietHours(ms, quiet, zone)) return ms;
  const wall = zonedTime(ms, zone);
  const end = parseTimeOfDay(quiet.end);
  if (!wall || !end) return ms;
  const endsNextDay = minuteOfDay(wall) >= minuteOfDay(end);
  const resolved = resolveWallTime(civilDate(wall.day + (endsNextDay ? 1 : 0)), end, zone);
  // Held back, never brought forward: a clock change can't make the end come before `ms`.
  return resolved && resolved.ms > ms ? resolved.ms : ms;
}

/** Days looked back from `afterMs`: quiet hours hold an occurrence back by at most a day. */
const DAYS_BACK = 2;
/** Days looked ahead: a week finds any chosen weekday, with room for a missing day. */
const DAYS_AHEAD = 9;

/**
 * The next instant (UTC ms) a repeating reminder is due for this visitor, strictly after
 * `afterMs`: their time (or the creator's) on the next chosen weekday, by their zone's clock,
 * then held to the end of their quiet hours. A time the clocks jump over is due at the first
 * minute after the jump, one they show twice at the first of the two; a date the zone skipped
 * entirely has no occurrence. Null when there is none: the reminder is off, no day is chosen, or
 * the zone or the time can't be read.
 *
 * For a formula schedule this is when the formula is next checked.
 */
export function nextOccurrence(
  schedule: RecurringSchedule,
  prefs: ReminderPreferences,
  afterMs: number,
): number | null {
  if (!prefs.enabled || !Number.isFinite(afterMs)) return null;
  const time = parseTimeOfDay(prefs.time ?? schedule.time);
  const days = new Set<number>(schedule.days);
  const now = zonedTime(afterMs, prefs.timeZone);
  if (!time || days.size === 0 || !now) return null;
  // Occurrences run in day order, and holding them for quiet hours keeps that order, so the first
  // one past `afterMs` is the next. Starting before today finds yesterday's, held past `afterMs`.
  for (let day = now.day - DAYS_BACK; day <= now.day + DAYS_AHEAD; day++) {
    if (!days.has(weekday(day)) || !isDayInRange(day)) continue;
    const resolved = resolveWallTime(civilDate(day), time, prefs.timeZone);
    // A weekday the zone never had (a "Friday" skipped to cross the date line) is no occurrence:
    // firing at the next midnight would be a surprise on a day nobody chose.
    if (!resolved || resolved.fit === 'missing-day') continue;
    const due = afterQuietHours(resolved.ms, prefs.quietHours, prefs.timeZone);
    if (due > afterMs) return due;
  }
  return null;
}

/**
 * The instant (UTC ms) a reminder counted from a record's date is due for this visitor, past or
 * not (whether it is still worth sending is `isTooLate`'s). `value` is the field's stored value: a
 * date field's `YYYY-MM-DD` is a day on the visitor's own calendar, a date-and-time field's ISO
 * instant in UTC is a moment, read on the visitor's clock when a day is counted from it. Null when
 * the reminder is off, the field is empty or unreadable, the result leaves the years 1 to 9999, or
 * the zone can't be read.
 *
 * Unlike a repeating reminder, a one-off is never dropped for a day the zone skipped: it fires at
 * the first minute after the jump, since no later occurrence would make up for it.
 */
export function occurrenceForDate(
  schedule: RecordSchedule,
  prefs: ReminderPreferences,
  value: string | null | undefined,
): number | null {
  if (!prefs.enabled || typeof value !== 'string') return null;
  const zone = prefs.timeZone;
  const dateDay = parseDate(value);
  const instant = dateDay === null ? parseDateTime(value) : null;
  if (dateDay === null && instant === null) return null;

  let due: number | null;
  if (schedule.kind === 'recordDay') {
    const time = parseTimeOfDay(prefs.time ?? schedule.time);
    const recordDay = dateDay ?? (instant === null ? null : zonedTime(instant, zone)?.day);
    if (!time || recordDay === null || recordDay === undefined) return null;
    const day = recordDay + schedule.days;
    if (!isDayInRange(day)) return null;
    due = resolveWallTime(civilDate(day), time, zone)?.ms ?? null;
  } else {
    const start =
      instant ??
      (dateDay === null
        ? null
        : resolveWallTime(civilDate(dateDay), { hour: 0, minute: 0 }, zone)?.ms);
    if (start === null || start === undefined) return null;
    due = start + schedule.minutes * MINUTE_MS;
    const shown = zonedTime(due, zone);
    if (!shown || !isDayInRange(shown.day)) return null;
  }
  return due === null ? null : afterQuietHours(due, prefs.quietHours, zone);
}
