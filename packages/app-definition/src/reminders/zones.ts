import {
  DAY_MS,
  civilDate,
  dayNumber,
  zonedTime,
  type CivilDate,
  type ZonedTime,
} from '../formula/dates';

/** A wall-clock time of day: what a clock on the wall shows, in no particular zone. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** IANA names are short (the longest is about 30 characters); anything longer is refused unread. */
const TIME_ZONE_LENGTH = 64;

/**
 * Whether `Intl` knows `name` as a time zone. Offsets such as `+05:30` are refused even where an
 * engine accepts them: a fixed offset has no DST rules, and a visitor's zone must follow them.
 * It builds a throwaway formatter rather than using `zonedTime`'s kept ones, so checking
 * arbitrary text never grows that cache.
 */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > TIME_ZONE_LENGTH || /^[+-]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * How a wall time on a date fits a zone's clock:
 * - `once`: it happens exactly once;
 * - `twice`: the clocks went back over it (fall-back night), so it happens twice;
 * - `gap`: the clocks jumped over it (spring-forward night), so it never happens;
 * - `missing-day`: the whole date was jumped over (Samoa on 2011-12-30).
 */
export type WallTimeFit = 'once' | 'twice' | 'gap' | 'missing-day';

export interface ResolvedWallTime {
  /** The instant, UTC ms: the first of two for `twice`, the first minute after the gap otherwise. */
  ms: number;
  fit: WallTimeFit;
}

/** A wall clock as if it were UTC: ms since 1970 on the zone's own calendar and clock. */
function wallMs(wall: ZonedTime): number {
  return wall.day * DAY_MS + wall.hour * HOUR_MS + wall.minute * MINUTE_MS;
}

/**
 * The zone's offset (wall clock minus UTC) at an instant. `zonedTime` reads whole minutes, so the
 * instant is taken at its minute: every offset since 1972 is whole minutes, and for older ones with
 * seconds (local mean time) this is the offset that minute shows.
 */
function offsetAt(ms: number, zone: string): number | null {
  const minute = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
  const wall = zonedTime(minute, zone);
  return wall ? wallMs(wall) - minute : null;
}

function isRealTime(time: TimeOfDay): boolean {
  return (
    Number.isInteger(time.hour) &&
    Number.isInteger(time.minute) &&
    time.hour >= 0 &&
    time.hour <= 23 &&
    time.minute >= 0 &&
    time.minute <= 59
  );
}

function isRealDate(date: CivilDate): boolean {
  if (![date.year, date.month, date.day].every(Number.isInteger)) return false;
  if (date.year < 1 || date.year > 9999 || date.month < 1 || date.month > 12) return false;
  const back = civilDate(dayNumber(date.year, date.month, date.day));
  return back.month === date.month && back.day === date.day;
}

/**
 * The instant a wall time on a date happens in `zone`, and how it fits the zone's clock; null for
 * an unknown zone, a date that isn't real (`2026-02-30`, outside years 1 to 9999) or a time outside
 * 00:00–23:59.
 *
 * The guess: read the zone's offset a day before and a day after the wall time (no two changes of
 * offset have come closer than a week since 1990, so these are the offsets on either side of any
 * change near it), and try the wall time with each. A candidate is right when the zone, asked
 * back with `zonedTime`, shows exactly that wall time. Both right: the clocks went back over it,
 * and the earlier is kept so the reminder fires once, at the first. Neither right: the wall time
 * fell into a gap, and the instant the gap ends, the first minute after it, is found by halving
 * the span between the two candidates.
 */
export function resolveWallTime(
  date: CivilDate,
  time: TimeOfDay,
  zone: string,
): ResolvedWallTime | null {
  if (!isRealDate(date) || !isRealTime(time)) return null;
  const day = dayNumber(date.year, date.month, date.day);
  const local = day * DAY_MS + time.hour * HOUR_MS + time.minute * MINUTE_MS;
  const before = offsetAt(local - DAY_MS, zone);
  const after = offsetAt(local + DAY_MS, zone);
  if (before === null || after === null) return null;

  const candidates = [...new Set([local - before, local - after])].sort((a, b) => a - b);
  const fitting = candidates.filter((ms) => offsetAt(ms, zone) === local - ms);
  if (fitting.length > 0)
    return { ms: fitting[0] as number, fit: fitting.length > 1 ? 'twice' : 'once' };

  // A gap needs the clock to have gone forward; the offsets agreeing (or the clock going back)
  // with no candidate fitting would take two changes within two days, which the zones don't have.
  if (after <= before) return null;
  // Before the change the wall clock is short of `local`, from it on past it: the change is the
  // first minute whose wall clock is past `local`.
  let shown = local - after; // before the change: the zone shows local - after + before < local
  let past = local - before; // after it: the zone shows local - before + after > local
  while (past - shown > MINUTE_MS) {
    // At least a minute a step, so the halving ends whatever the span.
    const middle = shown + Math.max(1, Math.floor((past - shown) / MINUTE_MS / 2)) * MINUTE_MS;
    const wall = zonedTime(middle, zone);
    if (wall && wallMs(wall) > local) past = middle;
    else shown = middle;
  }
  const lastBefore = zonedTime(past - MINUTE_MS, zone);
  const firstAfter = zonedTime(past, zone);
  const missingDay =
    lastBefore !== null && firstAfter !== null && lastBefore.day < day && firstAfter.day > day;
  return { ms: past, fit: missingDay ? 'missing-day' : 'gap' };
}

/**
 * The UTC ms at which `zone`'s clocks show `time` on `date`, or null (see `resolveWallTime`). A
 * time the clocks jump over is the first minute after the jump (02:30 on a spring-forward night is
 * 03:00); a time they show twice is the first of the two. The inverse of `zonedTime`.
 */
export function wallTimeToInstant(date: CivilDate, time: TimeOfDay, zone: string): number | null {
  return resolveWallTime(date, time, zone)?.ms ?? null;
}
