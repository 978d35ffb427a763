import type { RecordValue, ValuesRecord } from '../records';

/*
 * A calendar's days, in the device's own time zone: a date field holds a day (`YYYY-MM-DD`) with no
 * zone, and the person means that day where they are. Weeks start on Monday, as in most of the
 * world and in ISO 8601 (docs/product/app-definition.md, "Views of a list"). Days are made with
 * `new Date(year, month, day)`, never by adding 24 hours, so a change to or from summer time
 * moves nothing.
 */

export type CalendarMode = 'month' | 'week';

export interface CalendarDay {
  /** `YYYY-MM-DD`: what a date field holds for this day. */
  key: string;
  /** The day's local midnight. */
  date: Date;
  /** In the month shown: a month's first and last weeks reach into the months around it. */
  inMonth: boolean;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function dayKey(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
}

/** The Monday of the week `date` is in, at local midnight. */
export function startOfWeek(date: Date): Date {
  return addDays(date, -((date.getDay() + 6) % 7));
}

const DATE_PART = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
/** A time that says its zone (`…Z`, `…+02:00`) is one instant: its day is the device's. */
const ZONED_TIME = /[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** The day a date, or a date and time, falls on (`YYYY-MM-DD`); null for anything else. */
export function dayOfValue(value: RecordValue): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const match = DATE_PART.exec(text);
  if (!match) return null;
  if (ZONED_TIME.test(text)) {
    const instant = new Date(text);
    return Number.isNaN(instant.getTime()) ? null : dayKey(instant);
  }
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(year, month - 1, day);
  // `2025-02-30` is no day: Date would roll it over to March.
  return date.getMonth() === month - 1 && date.getDate() === day ? match[0].slice(0, 10) : null;
}

/** The seven days of the week `anchor` is in, Monday first. */
export function weekDays(anchor: Date): CalendarDay[] {
  const monday = startOfWeek(anchor);
  return Array.from({ length: 7 }, (_, i) => {
    const date = addDays(monday, i);
    return { key: dayKey(date), date, inMonth: true };
  });
}

/** The weeks (Monday to Sunday) that hold the days of `anchor`'s month: four to six. */
export function monthWeeks(anchor: Date): CalendarDay[][] {
  const month = anchor.getMonth();
  const last = new Date(anchor.getFullYear(), month + 1, 0);
  const weeks: CalendarDay[][] = [];
  for (
    let monday = startOfWeek(new Date(anchor.getFullYear(), month, 1));
    monday <= last;
    monday = addDays(monday, 7)
  ) {
    weeks.push(weekDays(monday).map((day) => ({ ...day, inMonth: day.date.getMonth() === month })));
  }
  return weeks;
}

/**
 * The day to show after going `steps` months or weeks on (negative: back). A month goes to its
 * first day: the 31st plus a month would skip a short month.
 */
export function shiftAnchor(anchor: Date, mode: CalendarMode, steps: number): Date {
  if (mode === 'week') return addDays(anchor, 7 * steps);
  return new Date(anchor.getFullYear(), anchor.getMonth() + steps, 1);
}

/** Whether `day` is in the month or week `anchor` shows. */
export function inPeriod(anchor: Date, mode: CalendarMode, day: Date): boolean {
  if (mode === 'week') return dayKey(startOfWeek(anchor)) === dayKey(startOfWeek(day));
  return anchor.getFullYear() === day.getFullYear() && anchor.getMonth() === day.getMonth();
}

/** Records by the day their date field falls on; records without a date are left out. */
export function recordsByDay<R extends ValuesRecord>(
  records: readonly R[],
  dateFieldId: string,
): Map<string, R[]> {
  const days = new Map<string, R[]>();
  for (const record of records) {
    const key = dayOfValue(record.values[dateFieldId]);
    if (!key) continue;
    const list = days.get(key);
    if (list) list.push(record);
    else days.set(key, [record]);
  }
  return days;
}
