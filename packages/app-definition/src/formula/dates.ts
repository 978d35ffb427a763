/**
 * Calendar days as whole numbers (days since 1970-01-01, proleptic Gregorian), so date arithmetic
 * is integer arithmetic: a day is never 23 or 25 hours, whatever the clocks did that night. Only
 * reading an instant's day in a time zone asks `Intl`, with a fixed locale and calendar.
 */

export const DAY_MS = 86_400_000;

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Howard Hinnant's days_from_civil: exact for any year, no `Date` involved. */
export function dayNumber(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The inverse of `dayNumber` (civil_from_days). */
export function civilDate(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The days a formula may compute with: the four-digit years, as `YYYY-MM-DD` writes them. */
export const FIRST_DAY = dayNumber(1, 1, 1);
export const LAST_DAY = dayNumber(9999, 12, 31);
const FIRST_MS = FIRST_DAY * DAY_MS;
const LAST_MS = (LAST_DAY + 1) * DAY_MS - 1;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z$/;

/** The day a real calendar date is, or null (`2025-02-30`, year 0, not `YYYY-MM-DD`). */
function realDay(year: string, month: string, day: string): number | null {
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  if (y < 1 || m < 1 || m > 12 || d < 1) return null;
  const days = dayNumber(y, m, d);
  return civilDate(days).day === d ? days : null;
}

/** A `YYYY-MM-DD` text as its day number, or null when it is not a real date. */
export function parseDate(text: string): number | null {
  const match = DATE.exec(text);
  return match ? realDay(match[1] as string, match[2] as string, match[3] as string) : null;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function formatDate(days: number): string {
  const { year, month, day } = civilDate(days);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Whether a day number is one a formula may hold (years 1 to 9999). */
export function isDayInRange(days: number): boolean {
  return Number.isInteger(days) && days >= FIRST_DAY && days <= LAST_DAY;
}

/** Whether an instant (ms) is one a formula may hold: its UTC day in years 1 to 9999. */
export function isInstantInRange(ms: number): boolean {
  return Number.isInteger(ms) && ms >= FIRST_MS && ms <= LAST_MS;
}

/** An ISO instant in UTC (`2026-11-29T15:22:00.000Z`; seconds and milliseconds optional) as ms. */
export function parseDateTime(text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const days = realDay(match[1] as string, match[2] as string, match[3] as string);
  const [hours, minutes, seconds] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
  if (days === null || hours > 23 || minutes > 59 || seconds > 59) return null;
  const millis = Number((match[7] ?? '0').padEnd(3, '0'));
  return days * DAY_MS + hours * 3_600_000 + minutes * 60_000 + seconds * 1_000 + millis;
}

/** An instant as the ISO text in UTC it is stored as. */
export function formatDateTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** An instant's wall clock in a time zone: its day, and its hour and minute. */
export interface ZonedTime {
  day: number;
  hour: number;
  minute: number;
}

/**
 * One formatter per time zone, kept: building one loads the zone's rules. Few zones are ever asked
 * for (the device's, a test's), so the map stays small.
 */
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | null {
  if (!formatters.has(timeZone)) {
    let formatter: Intl.DateTimeFormat | null = null;
    try {
      // A fixed locale, calendar and digits: only the zone's rules decide the parts.
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        calendar: 'gregory',
        numberingSystem: 'latn',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      });
    } catch {
      // An unknown zone (RangeError): the evaluation says so where a formula needs it.
    }
    formatters.set(timeZone, formatter);
  }
  return formatters.get(timeZone) ?? null;
}

/** The wall clock an instant shows in `timeZone`, or null when the zone is unknown. */
export function zonedTime(ms: number, timeZone: string): ZonedTime | null {
  const formatter = formatterFor(timeZone);
  if (!formatter) return null;
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(ms)) parts[part.type] = part.value;
  const year = Number(parts.year);
  // Before year 1 the calendar counts back from 1 BC, which is year 0 on this count.
  const fullYear = parts.era === 'BC' || parts.era === 'B' ? 1 - year : year;
  return {
    day: dayNumber(fullYear, Number(parts.month), Number(parts.day)),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
  };
}

/** Monday is 1 and Sunday 7; day 0, 1970-01-01, was a Thursday. */
export function weekday(days: number): number {
  return ((((days + 3) % 7) + 7) % 7) + 1;
}
