/**
 * A day or a month as English text, "2 Nov 2026" or "November 2026", in UTC or the reader's time
 * zone, without `Intl.DateTimeFormat`: a page's first date formatter loads the browser's locale data
 * on the main thread (~25 ms on a desktop, four times that on a phone), and the public
 * pages that show a date (an app's, a profile) would pay it twice as they hydrate, once in UTC for
 * the server's text and once in the reader's zone. The text is the same as Intl's for `en-GB`
 * `{ day: 'numeric', month: 'short', year: 'numeric' }` and `en` `{ month: 'long', year: 'numeric' }`
 * (the tests compare them), and the same on the server and in every browser.
 */
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** `day`: "2 Nov 2026"; `month`: "November 2026". */
export type CalendarStyle = 'day' | 'month';

export function calendarDate(at: number, style: CalendarStyle, zone: 'utc' | 'local'): string {
  const date = new Date(at);
  const utc = zone === 'utc';
  const year = utc ? date.getUTCFullYear() : date.getFullYear();
  const month = MONTHS[utc ? date.getUTCMonth() : date.getMonth()]!;
  if (style === 'month') return `${month} ${year}`;
  const day = utc ? date.getUTCDate() : date.getDate();
  // British English shortens September to four letters, every other month to three.
  return `${day} ${month.slice(0, month === 'September' ? 4 : 3)} ${year}`;
}
