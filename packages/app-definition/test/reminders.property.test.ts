import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, test as plainTest } from 'vitest';
import {
  nextOccurrence,
  resolveWallTime,
  zonedTime,
  type QuietHours,
  type ReminderPreferences,
  type WeeklySchedule,
  type ZonedTime,
} from '../src/index';
import { civilDate, DAY_MS, weekday } from '../src/formula/dates';

/*
 * Seeded property tests of when a reminder is due, over every zone `Intl` knows and instants from
 * 2000 to 2037. The expected occurrence is found by walking the zone's clock with `zonedTime`
 * alone, not by the code under test. A failure prints the seed and the shrunk counter-example.
 */

const RUNS = { seed: 20_261_130, numRuns: 150 };

const MINUTE = 60_000;
const STEP = 15 * MINUTE;
const ZONES = Intl.supportedValuesOf('timeZone');
const FIRST = Date.UTC(2000, 0, 1);
const LAST = Date.UTC(2037, 0, 1);

const zone = fc.constantFrom(...ZONES);
const instant = fc.integer({ min: FIRST, max: LAST });
const hour = fc.integer({ min: 0, max: 23 });
const minute = fc.integer({ min: 0, max: 59 });
const days = fc
  .subarray([1, 2, 3, 4, 5, 6, 7] as const, { minLength: 1 })
  .map((chosen) => [...chosen]);
const hhmm = (h: number, m: number) =>
  `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
const time = fc.tuple(hour, minute).map(([h, m]) => hhmm(h, m));

/** A wall clock as minutes on the zone's own count (day × 1440 + minute of the day). */
const wallMinutes = (wall: ZonedTime) => wall.day * 1440 + wall.hour * 60 + wall.minute;

function shown(ms: number, zoneName: string): ZonedTime {
  const wall = zonedTime(ms, zoneName);
  if (!wall) throw new Error(`no wall clock for ${zoneName}`);
  return wall;
}

function parseHhmm(text: string): { hour: number; minute: number } {
  const [h, m] = text.split(':').map(Number);
  return { hour: h as number, minute: m as number };
}

/**
 * What the next occurrence must be, found by walking the clock: every offset since 2000 is a
 * multiple of 15 minutes, so stepping by 15 minutes on the chosen minute's phase meets every instant
 * the wall shows the chosen time. A step that lands on it is the occurrence unless the wall already
 * showed that time within the last three hours (the second of two on a fall-back night). A step
 * over which the wall jumps past it holds the occurrence too, at the first minute the wall shows
 * past it (the gap rule). Only days the wall shows are looked at, so a day the zone skipped whole
 * has none.
 */
function expectedNext(
  schedule: WeeklySchedule,
  zoneName: string,
  afterMs: number,
): { at: number; wanted: number; gap: boolean } {
  const { hour: h, minute: m } = parseHhmm(schedule.time);
  const phase = (((m - Math.floor(afterMs / MINUTE)) % 15) + 15) % 15;
  let x = (Math.floor(afterMs / MINUTE) + phase) * MINUTE;
  if (x <= afterMs) x += STEP;
  let previous = shown(x - STEP, zoneName);
  for (; x <= afterMs + 9 * DAY_MS; x += STEP) {
    const wall = shown(x, zoneName);
    for (const day of new Set([previous.day, wall.day])) {
      if (!schedule.days.includes(weekday(day) as never)) continue;
      const wanted = day * 1440 + h * 60 + m;
      if (wallMinutes(wall) === wanted) {
        let secondPass = false;
        for (let back = STEP; back <= 3 * 3_600_000; back += STEP)
          if (wallMinutes(shown(x - back, zoneName)) === wanted) secondPass = true;
        if (!secondPass) return { at: x, wanted, gap: false };
      } else if (wallMinutes(previous) < wanted && wanted < wallMinutes(wall)) {
        let at = x - STEP + MINUTE;
        while (wallMinutes(shown(at, zoneName)) < wanted) at += MINUTE;
        if (at > afterMs) return { at, wanted, gap: true };
      }
    }
    previous = wall;
  }
  throw new Error('no occurrence within nine days');
}

function quietMinute(wall: ZonedTime, quiet: QuietHours): boolean {
  const at = wall.hour * 60 + wall.minute;
  const start = parseHhmm(quiet.start);
  const end = parseHhmm(quiet.end);
  const [s, e] = [start.hour * 60 + start.minute, end.hour * 60 + end.minute];
  return s < e ? at >= s && at < e : at >= s || at < e;
}

const changeCache = new Map<string, number[]>();

/** The instants (to the minute) a zone's offset changes in a year, found by walking its clock. */
function changesIn(zoneName: string, year: number): number[] {
  const key = `${zoneName} ${year}`;
  const known = changeCache.get(key);
  if (known) return known;
  const offset = (ms: number) => wallMinutes(shown(ms, zoneName)) * MINUTE - ms;
  const found: number[] = [];
  const start = Date.UTC(year, 0, 1);
  for (let t = start; t < Date.UTC(year + 1, 0, 1); t += 3 * DAY_MS) {
    if (offset(t) === offset(t + 3 * DAY_MS)) continue;
    let [lo, hi] = [t, t + 3 * DAY_MS];
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / MINUTE / 2) * MINUTE;
      if (offset(mid) === offset(lo)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  changeCache.set(key, found);
  return found;
}

/** Zones that change their clocks, with a year they do: where gaps and repeats come from. */
const changing = fc
  .tuple(zone, fc.integer({ min: 2000, max: 2036 }))
  .map(([zoneName, year]) => ({ zoneName, changes: changesIn(zoneName, year) }))
  .filter(({ changes }) => changes.length > 0);
/** A wall time within three hours of a clock change's: in its gap or repeat about a third of the time. */
const nearChange = fc
  .tuple(changing, fc.nat(), fc.integer({ min: -180, max: 180 }))
  .map(([{ zoneName, changes }, pick, minutes]) => {
    const change = changes[pick % changes.length] as number;
    return { zoneName, asked: wallMinutes(shown(change - MINUTE, zoneName)) + minutes };
  });

/** Checks the next occurrence of `schedule` after `afterMs` against the walked clock. */
function checkWeekly(zoneName: string, afterMs: number, at: string, chosen: number[]): void {
  const schedule = { kind: 'weekly', days: chosen, time: at } as WeeklySchedule;
  const prefs: ReminderPreferences = { enabled: true, timeZone: zoneName };
  const next = nextOccurrence(schedule, prefs, afterMs);
  expect(next).not.toBeNull();
  const due = next as number;
  expect(due).toBeGreaterThan(afterMs);
  expect(due - afterMs).toBeLessThanOrEqual(8 * DAY_MS);
  // Strictly after: asked again from the occurrence itself, the answer is a later one.
  expect(nextOccurrence(schedule, prefs, due)).toBeGreaterThan(due);

  const expected = expectedNext(schedule, zoneName, afterMs);
  expect(due).toBe(expected.at);
  expect(chosen).toContain(weekday(Math.floor(expected.wanted / 1440)));
  const wall = shown(due, zoneName);
  if (expected.gap) {
    // The first minute after the gap: the minute before still showed a time short of it.
    expect(wallMinutes(shown(due - MINUTE, zoneName))).toBeLessThan(expected.wanted);
    expect(wallMinutes(wall)).toBeGreaterThan(expected.wanted);
  } else {
    expect(hhmm(wall.hour, wall.minute)).toBe(at);
    expect(chosen).toContain(weekday(wall.day));
  }
}

/**
 * Where quiet hours hold an occurrence, found by walking the clock: the first minute from it whose
 * wall time is outside them. By the minute up to the end's phase, then in steps of 15 minutes on
 * that phase (so a step lands on the end however short the loud part of the day), and by the
 * minute again across a clock change.
 */
function heldByWalking(ms: number, zoneName: string, quiet: QuietHours): number {
  const isQuiet = (t: number) => quietMinute(shown(t, zoneName), quiet);
  const endMinute = parseHhmm(quiet.end).minute;
  let x = ms;
  while (isQuiet(x)) {
    const onPhase = (((shown(x, zoneName).minute - endMinute) % 15) + 15) % 15 === 0;
    const steady =
      onPhase && wallMinutes(shown(x + STEP, zoneName)) - wallMinutes(shown(x, zoneName)) === 15;
    x += steady ? STEP : MINUTE;
  }
  return x;
}

describe('nextOccurrence of a weekly reminder, any zone', () => {
  test.prop([zone, instant, time, days], RUNS)(
    'is the wall time on the next chosen weekday (or the minute after its gap), within 8 days',
    (zoneName, afterMs, at, chosen) => checkWeekly(zoneName, afterMs, at, chosen),
  );

  const aroundChange = fc
    .tuple(
      changing,
      fc.nat(),
      fc.integer({ min: 0, max: 8 * 1440 }),
      fc.integer({ min: -180, max: 180 }),
      days,
    )
    .map(([{ zoneName, changes }, pick, before, shift, chosen]) => {
      const change = changes[pick % changes.length] as number;
      const wall = wallMinutes(shown(change - MINUTE, zoneName)) + shift;
      const at = hhmm(Math.floor((((wall % 1440) + 1440) % 1440) / 60), ((wall % 60) + 60) % 60);
      return { zoneName, afterMs: change - before * MINUTE, at, chosen };
    });

  test.prop([aroundChange], RUNS)(
    'is so across clock changes too, at times near the change',
    ({ zoneName, afterMs, at, chosen }) => checkWeekly(zoneName, afterMs, at, chosen),
  );

  const quiet = fc
    .tuple(time, time)
    .filter(([start, end]) => start !== end)
    .map(([start, end]): QuietHours => ({ start, end }));

  test.prop([zone, instant, time, days, quiet], RUNS)(
    'never falls in the quiet hours, and is the first occurrence they hold past afterMs',
    (zoneName, afterMs, at, chosen, quietHours) => {
      const schedule: WeeklySchedule = { kind: 'weekly', days: chosen, time: at };
      const loud: ReminderPreferences = { enabled: true, timeZone: zoneName };
      const due = nextOccurrence(schedule, { ...loud, quietHours }, afterMs);
      expect(due).not.toBeNull();
      const held = due as number;
      expect(held).toBeGreaterThan(afterMs);
      expect(held - afterMs).toBeLessThanOrEqual(8 * DAY_MS);
      expect(quietMinute(shown(held, zoneName), quietHours)).toBe(false);

      // The loud occurrences from two days back (one held since yesterday may come out after
      // afterMs), each held by walking the clock: the earliest past afterMs is the one.
      let expected = Infinity;
      let occurrence = nextOccurrence(schedule, loud, afterMs - 2 * DAY_MS);
      while (occurrence !== null && occurrence <= afterMs + 8 * DAY_MS) {
        const out = heldByWalking(occurrence, zoneName, quietHours);
        if (out > afterMs) expected = Math.min(expected, out);
        const following = nextOccurrence(schedule, loud, occurrence);
        expect(following).toBeGreaterThan(occurrence);
        occurrence = following;
      }
      expect(held).toBe(expected);
    },
  );
});

describe('wallTimeToInstant, any zone', () => {
  test.prop([zone, instant], RUNS)('round-trips with zonedTime', (zoneName, ms) => {
    const at = Math.floor(ms / MINUTE) * MINUTE;
    const wall = shown(at, zoneName);
    const resolved = resolveWallTime(civilDate(wall.day), wall, zoneName);
    expect(resolved).not.toBeNull();
    const { ms: back, fit } = resolved as NonNullable<typeof resolved>;
    // A wall time an instant shows exists: it is the instant itself, or the first of two.
    expect(['once', 'twice']).toContain(fit);
    if (fit === 'once') expect(back).toBe(at);
    else expect(back).toBeLessThanOrEqual(at);
    expect(shown(back, zoneName)).toEqual(wall);
  });

  test.prop([nearChange], { ...RUNS, numRuns: 200 })(
    'near a clock change: exact once, the first of two, or the first minute after a gap',
    ({ zoneName, asked }) => {
      const day = Math.floor(asked / 1440);
      const time = { hour: Math.floor((asked % 1440) / 60), minute: asked % 60 };
      const resolved = resolveWallTime(civilDate(day), time, zoneName);
      expect(resolved).not.toBeNull();
      const { ms, fit } = resolved as NonNullable<typeof resolved>;
      const showsAsked = (k: number) => wallMinutes(shown(ms + k * MINUTE, zoneName)) === asked;
      const earlier = [...Array(180).keys()].some((k) => showsAsked(-(k + 1)));
      const later = [...Array(180).keys()].some((k) => showsAsked(k + 1));
      // Nothing earlier shows it: a repeat or a gap is under three hours in these years.
      expect(earlier).toBe(false);
      if (fit === 'once' || fit === 'twice') {
        expect(showsAsked(0)).toBe(true);
        expect(later).toBe(fit === 'twice');
      } else {
        expect(showsAsked(0) || later).toBe(false);
        expect(wallMinutes(shown(ms - MINUTE, zoneName))).toBeLessThan(asked);
        expect(wallMinutes(shown(ms, zoneName))).toBeGreaterThan(asked);
      }
    },
  );

  plainTest('the generated cases reach gaps and repeats', () => {
    const fits = new Set(
      fc.sample(nearChange, { seed: RUNS.seed, numRuns: 200 }).map(({ zoneName, asked }) => {
        const time = { hour: Math.floor((asked % 1440) / 60), minute: asked % 60 };
        return resolveWallTime(civilDate(Math.floor(asked / 1440)), time, zoneName)?.fit;
      }),
    );
    expect([...fits].sort()).toEqual(['gap', 'once', 'twice']);
  });
});
