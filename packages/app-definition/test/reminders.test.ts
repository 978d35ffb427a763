import { describe, expect, it } from 'vitest';
import {
  LATE_GRACE_MS,
  REMINDER_LIMITS,
  afterQuietHours,
  isInQuietHours,
  isTimeZone,
  isTooLate,
  nextOccurrence,
  occurrenceForDate,
  reminderPreferencesSchema,
  reminderScheduleSchema,
  resolveWallTime,
  wallTimeToInstant,
  zonedTime,
  type RecordDaySchedule,
  type RecordTimeSchedule,
  type ReminderPreferences,
  type FormulaSchedule,
  type Weekday,
  type WeeklySchedule,
} from '../src/index';

const utc = (text: string) => Date.parse(text);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function resolve(zone: string, date: string, time: string) {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const resolved = resolveWallTime({ year, month, day }, { hour, minute }, zone);
  return resolved && { at: iso(resolved.ms), fit: resolved.fit };
}

/** The wall clock `zone` shows at `ms`, as `YYYY-MM-DD HH:MM` via zonedTime's day number. */
function wall(ms: number | null, zone: string): string | null {
  if (ms === null) return null;
  const shown = zonedTime(ms, zone);
  if (!shown) return null;
  const date = new Date(shown.day * 86_400_000).toISOString().slice(0, 10);
  return `${date} ${String(shown.hour).padStart(2, '0')}:${String(shown.minute).padStart(2, '0')}`;
}

const EVERY_DAY: Weekday[] = [1, 2, 3, 4, 5, 6, 7];
const weekly = (time: string, days: Weekday[] = EVERY_DAY): WeeklySchedule => ({
  kind: 'weekly',
  days,
  time,
});
const prefsIn = (timeZone: string, extra: Partial<ReminderPreferences> = {}) => ({
  enabled: true,
  timeZone,
  ...extra,
});

describe('wallTimeToInstant: clock changes', () => {
  it('Europe/London: 01:30 on the spring-forward night fires at 02:00 BST, the end of the gap', () => {
    expect(resolve('Europe/London', '2026-03-29', '01:30')).toEqual({
      at: '2026-03-29T01:00:00.000Z',
      fit: 'gap',
    });
    expect(wall(utc('2026-03-29T01:00:00Z'), 'Europe/London')).toBe('2026-03-29 02:00');
  });

  it('Europe/London: 01:30 on the fall-back night fires once, at the first (BST)', () => {
    expect(resolve('Europe/London', '2026-10-25', '01:30')).toEqual({
      at: '2026-10-25T00:30:00.000Z',
      fit: 'twice',
    });
    // The second 01:30 (GMT) exists an hour later; it is not the one chosen.
    expect(wall(utc('2026-10-25T01:30:00Z'), 'Europe/London')).toBe('2026-10-25 01:30');
  });

  it('America/New_York: 02:30 on the spring-forward night fires at 03:00 EDT', () => {
    expect(resolve('America/New_York', '2026-03-08', '02:30')).toEqual({
      at: '2026-03-08T07:00:00.000Z',
      fit: 'gap',
    });
    expect(wall(utc('2026-03-08T07:00:00Z'), 'America/New_York')).toBe('2026-03-08 03:00');
  });

  it('America/New_York: 01:30 on the fall-back night fires once, at the first (EDT)', () => {
    expect(resolve('America/New_York', '2026-11-01', '01:30')).toEqual({
      at: '2026-11-01T05:30:00.000Z',
      fit: 'twice',
    });
    const schedule = weekly('01:30');
    const prefs = prefsIn('America/New_York');
    const first = nextOccurrence(schedule, prefs, utc('2026-10-31T12:00:00Z'));
    expect(iso(first)).toBe('2026-11-01T05:30:00.000Z');
    // Asked again between the two 01:30s, the next is the following night's, not the second pass.
    expect(iso(nextOccurrence(schedule, prefs, first as number))).toBe('2026-11-02T06:30:00.000Z');
  });

  it('a daily reminder across a spring-forward night keeps its wall time before and after', () => {
    const schedule = weekly('08:00');
    const prefs = prefsIn('Europe/London');
    const saturday = nextOccurrence(schedule, prefs, utc('2026-03-28T00:00:00Z'));
    const sunday = nextOccurrence(schedule, prefs, saturday as number);
    expect(iso(saturday)).toBe('2026-03-28T08:00:00.000Z');
    expect(iso(sunday)).toBe('2026-03-29T07:00:00.000Z');
    expect((sunday as number) - (saturday as number)).toBe(23 * 3_600_000);
  });

  it('Asia/Kolkata (+05:30) and Asia/Kathmandu (+05:45)', () => {
    expect(resolve('Asia/Kolkata', '2026-06-01', '09:00')).toEqual({
      at: '2026-06-01T03:30:00.000Z',
      fit: 'once',
    });
    expect(resolve('Asia/Kathmandu', '2026-06-01', '09:00')).toEqual({
      at: '2026-06-01T03:15:00.000Z',
      fit: 'once',
    });
    expect(
      iso(nextOccurrence(weekly('00:10'), prefsIn('Asia/Kathmandu'), utc('2026-06-01T00:00:00Z'))),
    ).toBe('2026-06-01T18:25:00.000Z');
  });

  it('Australia/Lord_Howe: a 30-minute gap and a 30-minute repeat', () => {
    // 02:00 becomes 02:30 on the first Sunday of October.
    expect(resolve('Australia/Lord_Howe', '2026-10-04', '02:15')).toEqual({
      at: '2026-10-03T15:30:00.000Z',
      fit: 'gap',
    });
    expect(wall(utc('2026-10-03T15:30:00Z'), 'Australia/Lord_Howe')).toBe('2026-10-04 02:30');
    // 02:00 becomes 01:30 on the first Sunday of April: 01:45 happens twice, +11:00 first.
    expect(resolve('Australia/Lord_Howe', '2026-04-05', '01:45')).toEqual({
      at: '2026-04-04T14:45:00.000Z',
      fit: 'twice',
    });
    expect(resolve('Australia/Lord_Howe', '2026-04-05', '02:00')).toEqual({
      at: '2026-04-04T15:30:00.000Z',
      fit: 'once',
    });
  });

  it('Pacific/Chatham (+12:45, +13:45 in summer), changing at 02:45', () => {
    expect(resolve('Pacific/Chatham', '2026-09-27', '03:00')).toEqual({
      at: '2026-09-26T14:00:00.000Z',
      fit: 'gap',
    });
    expect(wall(utc('2026-09-26T14:00:00Z'), 'Pacific/Chatham')).toBe('2026-09-27 03:45');
    expect(resolve('Pacific/Chatham', '2026-04-05', '03:00')).toEqual({
      at: '2026-04-04T13:15:00.000Z',
      fit: 'twice',
    });
  });

  it('Pacific/Apia skipped 2011-12-30 whole', () => {
    expect(resolve('Pacific/Apia', '2011-12-30', '09:00')).toEqual({
      at: '2011-12-30T10:00:00.000Z',
      fit: 'missing-day',
    });
    expect(resolve('Pacific/Apia', '2011-12-29', '23:59')?.fit).toBe('once');
    expect(resolve('Pacific/Apia', '2011-12-31', '00:00')).toEqual({
      at: '2011-12-30T10:00:00.000Z',
      fit: 'once',
    });
    const prefs = prefsIn('Pacific/Apia');
    // A daily reminder goes from Thursday to Saturday; a Friday-only one waits a week.
    const thursday = utc('2011-12-29T19:00:00Z');
    expect(wall(thursday, 'Pacific/Apia')).toBe('2011-12-29 09:00');
    expect(wall(nextOccurrence(weekly('09:00'), prefs, thursday), 'Pacific/Apia')).toBe(
      '2011-12-31 09:00',
    );
    expect(wall(nextOccurrence(weekly('09:00', [5]), prefs, thursday), 'Pacific/Apia')).toBe(
      '2012-01-06 09:00',
    );
    // A one-off for a record dated that Friday still fires, at the first minute after the jump.
    const dayOf: RecordDaySchedule = {
      kind: 'recordDay',
      collectionId: 'c',
      fieldId: 'due',
      days: 0,
      time: '09:00',
    };
    expect(wall(occurrenceForDate(dayOf, prefs, '2011-12-30'), 'Pacific/Apia')).toBe(
      '2011-12-31 00:00',
    );
  });

  it('refuses what is not a wall time or a zone', () => {
    expect(
      wallTimeToInstant({ year: 2026, month: 2, day: 30 }, { hour: 9, minute: 0 }, 'UTC'),
    ).toBeNull();
    expect(
      wallTimeToInstant({ year: 2026, month: 2, day: 3 }, { hour: 24, minute: 0 }, 'UTC'),
    ).toBeNull();
    expect(
      wallTimeToInstant({ year: 2026, month: 2, day: 3 }, { hour: 9, minute: 0 }, 'Mars/Olympus'),
    ).toBeNull();
    expect(wallTimeToInstant({ year: 2026, month: 2, day: 3 }, { hour: 9, minute: 0 }, 'UTC')).toBe(
      utc('2026-02-03T09:00:00Z'),
    );
  });
});

describe('nextOccurrence', () => {
  it('picks the chosen weekdays: Mon–Fri at 07:30 goes from Friday to Monday', () => {
    const schedule = weekly('07:30', [1, 2, 3, 4, 5]);
    const prefs = prefsIn('Europe/Paris');
    const afterFriday = utc('2026-06-05T08:00:00Z'); // Friday 10:00 in Paris
    expect(wall(nextOccurrence(schedule, prefs, afterFriday), 'Europe/Paris')).toBe(
      '2026-06-08 07:30',
    );
    const beforeFriday = utc('2026-06-05T05:00:00Z'); // Friday 07:00
    expect(wall(nextOccurrence(schedule, prefs, beforeFriday), 'Europe/Paris')).toBe(
      '2026-06-05 07:30',
    );
  });

  it('is strictly after: at the occurrence itself, the next one', () => {
    const prefs = prefsIn('UTC');
    const at = utc('2026-06-05T20:00:00Z');
    expect(iso(nextOccurrence(weekly('20:00'), prefs, at - 1))).toBe('2026-06-05T20:00:00.000Z');
    expect(iso(nextOccurrence(weekly('20:00'), prefs, at))).toBe('2026-06-06T20:00:00.000Z');
  });

  it("uses the visitor's own time over the creator's", () => {
    const prefs = prefsIn('Asia/Tokyo', { time: '06:15' });
    expect(
      wall(nextOccurrence(weekly('20:00'), prefs, utc('2026-06-05T00:00:00Z')), 'Asia/Tokyo'),
    ).toBe('2026-06-06 06:15');
  });

  it('is null when the reminder is off, no day is chosen or the zone is unknown', () => {
    const after = utc('2026-06-05T00:00:00Z');
    expect(nextOccurrence(weekly('20:00'), { enabled: false, timeZone: 'UTC' }, after)).toBeNull();
    expect(nextOccurrence(weekly('20:00', []), prefsIn('UTC'), after)).toBeNull();
    expect(nextOccurrence(weekly('20:00'), prefsIn('Mars/Olympus'), after)).toBeNull();
  });

  it('checks a formula schedule at its time on its days', () => {
    const schedule: FormulaSchedule = {
      kind: 'formula',
      collectionId: 'plants',
      formula: '{Water} < 3',
      days: [6],
      time: '10:00',
    };
    expect(
      wall(
        nextOccurrence(schedule, prefsIn('Europe/Berlin'), utc('2026-06-01T00:00:00Z')),
        'Europe/Berlin',
      ),
    ).toBe('2026-06-06 10:00');
  });
});

describe('quiet hours across midnight', () => {
  const quietHours = { start: '22:00', end: '07:00' };
  const prefs = prefsIn('Europe/Paris', { quietHours });

  it('hold 23:00 to 07:00 the next morning, and 05:00 to 07:00 the same morning', () => {
    const evening = nextOccurrence(weekly('23:00'), prefs, utc('2026-06-01T12:00:00Z'));
    expect(wall(evening, 'Europe/Paris')).toBe('2026-06-02 07:00');
    const early = nextOccurrence(weekly('05:00'), prefs, utc('2026-06-01T12:00:00Z'));
    expect(wall(early, 'Europe/Paris')).toBe('2026-06-02 07:00');
    expect(
      wall(nextOccurrence(weekly('21:59'), prefs, utc('2026-06-01T12:00:00Z')), 'Europe/Paris'),
    ).toBe('2026-06-01 21:59');
  });

  it("finds yesterday's occurrence still held past afterMs", () => {
    // 02:00 in Paris: yesterday's 23:00 is being held to 07:00 today.
    const night = utc('2026-06-02T00:00:00Z');
    expect(wall(nextOccurrence(weekly('23:00'), prefs, night), 'Europe/Paris')).toBe(
      '2026-06-02 07:00',
    );
  });

  it('start is quiet, end is not', () => {
    expect(isInQuietHours(utc('2026-06-01T20:00:00Z'), quietHours, 'Europe/Paris')).toBe(true);
    expect(isInQuietHours(utc('2026-06-01T19:59:00Z'), quietHours, 'Europe/Paris')).toBe(false);
    expect(isInQuietHours(utc('2026-06-02T05:00:00Z'), quietHours, 'Europe/Paris')).toBe(false);
    expect(isInQuietHours(utc('2026-06-02T04:59:00Z'), quietHours, 'Europe/Paris')).toBe(true);
  });

  it('an end in the spring-forward gap holds to the first minute after it', () => {
    const night = { start: '23:00', end: '02:30' };
    const held = afterQuietHours(utc('2026-03-08T05:00:00Z'), night, 'America/New_York');
    expect(wall(held, 'America/New_York')).toBe('2026-03-08 03:00');
  });
});

describe('occurrenceForDate', () => {
  const dayBefore: RecordDaySchedule = {
    kind: 'recordDay',
    collectionId: 'tasks',
    fieldId: 'due',
    days: -1,
    time: '09:00',
  };
  const hourBefore: RecordTimeSchedule = {
    kind: 'recordTime',
    collectionId: 'tasks',
    fieldId: 'starts',
    minutes: -60,
  };

  it('counts days across the end of a month and a year, leap day included', () => {
    const prefs = prefsIn('America/New_York');
    expect(wall(occurrenceForDate(dayBefore, prefs, '2027-01-01'), 'America/New_York')).toBe(
      '2026-12-31 09:00',
    );
    expect(wall(occurrenceForDate(dayBefore, prefs, '2027-03-01'), 'America/New_York')).toBe(
      '2027-02-28 09:00',
    );
    expect(wall(occurrenceForDate(dayBefore, prefs, '2028-03-01'), 'America/New_York')).toBe(
      '2028-02-29 09:00',
    );
    const dayAfter = { ...dayBefore, days: 1 };
    expect(wall(occurrenceForDate(dayAfter, prefs, '2026-12-31'), 'America/New_York')).toBe(
      '2027-01-01 09:00',
    );
  });

  it("reads a date-and-time's day on the visitor's clock", () => {
    const dayOf = { ...dayBefore, days: 0 };
    // 23:30 UTC on 31 December is already 1 January in Tokyo.
    expect(
      wall(
        occurrenceForDate(dayOf, prefsIn('Asia/Tokyo'), '2026-12-31T23:30:00.000Z'),
        'Asia/Tokyo',
      ),
    ).toBe('2027-01-01 09:00');
    expect(wall(occurrenceForDate(dayOf, prefsIn('UTC'), '2026-12-31T23:30:00.000Z'), 'UTC')).toBe(
      '2026-12-31 09:00',
    );
  });

  it('counts minutes from an instant, and from the start of a date-only day', () => {
    const prefs = prefsIn('Europe/London');
    expect(iso(occurrenceForDate(hourBefore, prefs, '2027-01-01T00:30:00.000Z'))).toBe(
      '2026-12-31T23:30:00.000Z',
    );
    const atTheTime = { ...hourBefore, minutes: 0 };
    expect(iso(occurrenceForDate(atTheTime, prefs, '2026-07-01T12:00:00.000Z'))).toBe(
      '2026-07-01T12:00:00.000Z',
    );
    // A date-only value starts at 00:00 in the visitor's zone (BST, so 23:00 UTC the day before).
    expect(iso(occurrenceForDate(atTheTime, prefs, '2026-07-01'))).toBe('2026-06-30T23:00:00.000Z');
    // An hour before a start after the spring-forward gap is real time, not wall time.
    expect(
      wall(occurrenceForDate(hourBefore, prefs, '2026-03-29T01:30:00.000Z'), 'Europe/London'),
    ).toBe('2026-03-29 00:30');
  });

  it('is held by quiet hours and uses the visitor’s time', () => {
    const prefs = prefsIn('UTC', { time: '06:00', quietHours: { start: '22:00', end: '07:00' } });
    expect(iso(occurrenceForDate(dayBefore, prefs, '2026-05-10'))).toBe('2026-05-09T07:00:00.000Z');
  });

  it('is null for an empty or unreadable value, a reminder that is off, or a day out of range', () => {
    const prefs = prefsIn('UTC');
    expect(occurrenceForDate(dayBefore, prefs, null)).toBeNull();
    expect(occurrenceForDate(dayBefore, prefs, '2026-02-30')).toBeNull();
    expect(occurrenceForDate(dayBefore, prefs, 'soon')).toBeNull();
    expect(
      occurrenceForDate(dayBefore, { enabled: false, timeZone: 'UTC' }, '2026-05-10'),
    ).toBeNull();
    expect(occurrenceForDate(dayBefore, prefs, '0001-01-01')).toBeNull();
  });
});

describe('isTooLate', () => {
  it('allows an hour by default, and what it is given', () => {
    const due = utc('2026-06-01T08:00:00Z');
    expect(LATE_GRACE_MS).toBe(3_600_000);
    expect(isTooLate(due, due + LATE_GRACE_MS)).toBe(false);
    expect(isTooLate(due, due + LATE_GRACE_MS + 1)).toBe(true);
    expect(isTooLate(due, due - 5_000)).toBe(false);
    expect(isTooLate(due, due + 10 * 60_000, 5 * 60_000)).toBe(true);
  });
});

describe('schemas', () => {
  const problems = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);

  it('accepts each kind of schedule', () => {
    for (const schedule of [
      { kind: 'weekly', days: [1, 2, 3, 4, 5], time: '07:30' },
      { kind: 'recordDay', collectionId: 'c', fieldId: 'f', days: -1, time: '09:00' },
      { kind: 'recordTime', collectionId: 'c', fieldId: 'f', minutes: -60 },
      { kind: 'formula', collectionId: 'c', formula: '{Stock} < 3', days: [1], time: '18:00' },
    ])
      expect(reminderScheduleSchema.safeParse(schedule).success).toBe(true);
  });

  it('says what is wrong with a time, the days or an offset', () => {
    expect(
      problems(reminderScheduleSchema.safeParse({ kind: 'weekly', days: [1], time: '24:00' })),
    ).toEqual(['Pick a time between 00:00 and 23:59, written like 07:30.']);
    expect(
      problems(reminderScheduleSchema.safeParse({ kind: 'weekly', days: [], time: '08:00' })),
    ).toEqual(['Choose at least one day.']);
    expect(
      problems(reminderScheduleSchema.safeParse({ kind: 'weekly', days: [1, 1], time: '08:00' })),
    ).toEqual(['Choose each day only once.']);
    expect(
      problems(reminderScheduleSchema.safeParse({ kind: 'weekly', days: [0], time: '08:00' })),
    ).toEqual(['Days are numbered 1 (Monday) to 7 (Sunday).']);
    const tooEarly = {
      kind: 'recordDay',
      collectionId: 'c',
      fieldId: 'f',
      days: -REMINDER_LIMITS.maxDaysOffset - 1,
      time: '09:00',
    };
    expect(problems(reminderScheduleSchema.safeParse(tooEarly))).toEqual([
      `Remind at most ${REMINDER_LIMITS.maxDaysOffset} days before the date.`,
    ]);
    const tooLate = { kind: 'recordTime', collectionId: 'c', fieldId: 'f', minutes: 7 * 1440 + 1 };
    expect(problems(reminderScheduleSchema.safeParse(tooLate))).toEqual([
      'Remind at most 7 days after the time.',
    ]);
  });

  it('refuses an unknown zone with a message, not an exception', () => {
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('+05:30')).toBe(false);
    expect(isTimeZone('x'.repeat(100))).toBe(false);
    expect(isTimeZone('Asia/Kathmandu')).toBe(true);
    expect(
      problems(reminderPreferencesSchema.safeParse({ enabled: true, timeZone: 'Mars/Olympus' })),
    ).toEqual([
      "“Mars/Olympus” isn't a time zone this device knows. Pick one from the list, like Europe/Paris.",
    ]);
  });

  it('takes quiet hours across midnight but not ones that end as they start', () => {
    const prefs = { enabled: true, timeZone: 'Europe/Paris', time: '20:30' };
    expect(
      reminderPreferencesSchema.safeParse({
        ...prefs,
        quietHours: { start: '22:00', end: '07:00' },
      }).success,
    ).toBe(true);
    expect(
      problems(
        reminderPreferencesSchema.safeParse({
          ...prefs,
          quietHours: { start: '22:00', end: '22:00' },
        }),
      ),
    ).toEqual(['Quiet hours must end at a different time than they start.']);
    expect(problems(reminderPreferencesSchema.safeParse({ ...prefs, time: '7:5' }))).toEqual([
      'Pick a time between 00:00 and 23:59, written like 07:30.',
    ]);
  });
});
