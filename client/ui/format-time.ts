import { calendarDate } from './calendar-date';

/**
 * Each formatter is made when first used, not when this module loads: a page that imports it and
 * shows no date does not pay for building one (a few milliseconds each on the main thread).
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const relative = once(() => new Intl.RelativeTimeFormat('en', { numeric: 'auto' }));
const timeFormat = once(
  () => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' }),
);

const dateTimeFormat = once(
  () => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }),
);

/** "Nov 28, 2026, 1:38 AM": a moment with its date, in the reader's time zone. */
export function dateAndTime(at: number | string): string {
  return dateTimeFormat().format(new Date(at));
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** "2 hours ago", "yesterday", "just now" for a past moment (epoch milliseconds). */
export function timeAgo(at: number, now = Date.now()): string {
  const elapsed = now - at;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(elapsed) >= ms) return relative().format(-Math.round(elapsed / ms), unit);
  }
  return 'just now';
}

/** "2 Nov 2026". */
export function formatDate(at: number): string {
  return calendarDate(at, 'day', 'local');
}

/** "14:05" today, "2 Nov 2026, 14:05" on another day: when a copy was made. */
export function formatMoment(at: number, now = Date.now()): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return sameDay ? timeFormat().format(at) : `${formatDate(at)}, ${timeFormat().format(at)}`;
}

/**
 * A moment as a sentence says it: "at 14:05" today, "on 2 Nov 2026 at 14:05" on another day
 * ("as this device last saw it, at 14:05").
 */
export function atMoment(at: number, now = Date.now()): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  const time = timeFormat().format(at);
  return sameDay ? `at ${time}` : `on ${formatDate(at)} at ${time}`;
}
