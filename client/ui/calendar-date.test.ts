import { describe, expect, it } from 'vitest';
import { calendarDate } from './calendar-date';

describe('calendarDate', () => {
  // Every day of three years (a leap year among them), at a few times of day.
  const moments: number[] = [];
  for (let day = 0; day < 3 * 366; day += 1) {
    for (const hour of [0, 7, 23]) moments.push(Date.UTC(2027, 0, 1 + day, hour, 30));
  }
  moments.push(0, Date.UTC(1999, 11, 31, 23, 59), Date.UTC(2100, 1, 28, 12));

  it('writes a day as Intl does for en-GB, in UTC and in the local zone', () => {
    const utc = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    const local = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    });
    for (const at of moments) {
      expect(calendarDate(at, 'day', 'utc')).toBe(utc.format(at));
      expect(calendarDate(at, 'day', 'local')).toBe(local.format(at));
    }
  });

  it('writes a month as Intl does for en, in UTC and in the local zone', () => {
    const utc = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    const local = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });
    for (const at of moments) {
      expect(calendarDate(at, 'month', 'utc')).toBe(utc.format(at));
      expect(calendarDate(at, 'month', 'local')).toBe(local.format(at));
    }
  });

  it('dates a moment near midnight by the zone asked for', () => {
    const lateOnTheFirst = Date.UTC(2026, 10, 1, 23, 30);
    expect(calendarDate(lateOnTheFirst, 'day', 'utc')).toBe('1 Nov 2026');
    expect(calendarDate(Date.UTC(2026, 8, 30, 12), 'day', 'utc')).toBe('30 Sept 2026');
  });
});
