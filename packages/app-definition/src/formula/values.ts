import {
  formatDate,
  formatDateTime,
  isInstantInRange,
  parseDate,
  parseDateTime,
  zonedTime,
} from './dates';
import type { FormulaType, FormulaValue } from './types';

/**
 * A value while a formula is computed; its type is known from the check, so it needs no tag: a
 * number, a non-empty text, a yes/no value, a date as its day number, a date and time as its
 * milliseconds, a list as its non-empty texts, or null for empty. Empty text and an empty list are
 * null too, so "empty" has one form.
 */
export type Internal = number | string | boolean | readonly string[] | null;

/**
 * Why a value cannot be computed (divided by zero, …). Thrown inside the evaluation, which stops
 * that formula, and caught for each formula field: the caller gets it as `{ error }`, a value.
 */
export class Fault extends Error {}

export function fault(message: string): never {
  throw new Fault(message);
}

/** Numbers a formula may hold: beyond this, integers are no longer exact (as in field-values). */
const MAX_NUMBER = Number.MAX_SAFE_INTEGER;

/** A computed number, or the reason it cannot be one. `-0` is `0`: it would print as 0 anyway. */
export function checkedNumber(n: number): number {
  if (Number.isNaN(n)) fault('The result isn’t a number.');
  if (!Number.isFinite(n) || Math.abs(n) > MAX_NUMBER) fault('The result is too large.');
  return n === 0 ? 0 : n;
}

/**
 * A number at the 15 significant digits people see of it, as spreadsheets do, so 0.1 + 0.2 shows,
 * rounds and compares as 0.3. Integers and numbers of 1e15 or more stay as they are: they have
 * no digits after the point to spare.
 */
export function visibleNumber(n: number): number {
  if (Number.isInteger(n) || Math.abs(n) >= 1e15) return n;
  return Number(n.toPrecision(15));
}

export function emptyText(text: string): string | null {
  return text === '' ? null : text;
}

function numberOrEmpty(raw: unknown): number | null {
  return typeof raw === 'number' && Number.isFinite(raw) && Math.abs(raw) <= MAX_NUMBER
    ? raw
    : null;
}

/**
 * A stored value as a formula reads it. A value of another kind than its field's type (text left
 * in a number field after its type changed, a malformed date) reads as empty, rather than as a
 * guess at what it meant.
 */
export function readStored(raw: unknown, type: FormulaType): Internal {
  switch (type) {
    case 'number':
      return numberOrEmpty(raw);
    case 'text':
      return typeof raw === 'string' ? emptyText(raw) : null;
    case 'boolean':
      return typeof raw === 'boolean' ? raw : null;
    case 'date':
      return typeof raw === 'string' ? parseDate(raw) : null;
    case 'dateTime': {
      const ms = typeof raw === 'string' ? parseDateTime(raw) : null;
      return ms !== null && isInstantInRange(ms) ? ms : null;
    }
    case 'list':
      return Array.isArray(raw) && raw.length > 0 && raw.every((item) => typeof item === 'string')
        ? [...(raw as string[])]
        : null;
  }
}

/** A computed value as the caller gets it: dates as ISO text, lists copied. */
export function outputValue(value: Internal, type: FormulaType): FormulaValue {
  if (value === null) return null;
  if (type === 'date') return formatDate(value as number);
  if (type === 'dateTime') return formatDateTime(value as number);
  if (Array.isArray(value)) return [...(value as string[])];
  return value as number | string | boolean;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** The day of an instant in `timeZone`, or why there is none. */
export function dayInZone(ms: number, timeZone: string): number {
  const zoned = zonedTime(ms, timeZone);
  return zoned ? zoned.day : fault(`Unknown time zone “${timeZone}”.`);
}

/**
 * A value as text, for `&`, CONCAT and TEXT: numbers without grouping or rounding beyond their 15
 * visible digits, yes/no as Yes and No (as a record shows them), dates as `YYYY-MM-DD`, a date and
 * time as `YYYY-MM-DD HH:MM` in the evaluation's time zone, a list as its choices joined with
 * ", ", empty as "". Formatting for display (a currency, a locale's digits) is not done here.
 */
export function textOf(value: Internal, type: FormulaType, timeZone: string): string {
  if (value === null) return '';
  switch (type) {
    case 'number':
      return String(visibleNumber(value as number));
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'date':
      return formatDate(value as number);
    case 'dateTime': {
      const zoned = zonedTime(value as number, timeZone);
      if (!zoned) return fault(`Unknown time zone “${timeZone}”.`);
      return `${formatDate(zoned.day)} ${pad2(zoned.hour)}:${pad2(zoned.minute)}`;
    }
    case 'list':
      return (value as readonly string[]).join(', ');
    case 'text':
      return value as string;
  }
}
