import * as zm from 'zod/mini';
import { groupedCount } from '@pipit/protocol';
import type { Field } from './definition';
import { safeUrlSchema } from './safe-url';
import { LIMITS } from './limits';

/** One value of a record, by field id: what creator and visitor records hold. */
export type FieldValue = string | number | boolean | null;

/** The longest value a visitor may save per field type (text fields are one line, long text a note). */
export const VALUE_LIMITS = {
  textLength: 1_000,
  longTextLength: LIMITS.textLength,
  emailLength: 254,
  /** Beyond this a number loses integer precision in JSON and in Yjs. */
  maxNumber: Number.MAX_SAFE_INTEGER,
} as const;

export type CoercedValue = { ok: true; value: FieldValue } | { ok: false; message: string };

type FieldShape = Pick<Field, 'name' | 'type' | 'required' | 'options'>;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);
const emailSchema = zm.email().check(zm.maxLength(VALUE_LIMITS.emailLength));

/** A real calendar day written `YYYY-MM-DD` (so `2025-02-30` is refused). */
export function isIsoDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

function tooLong(field: FieldShape, max: number): CoercedValue {
  return {
    ok: false,
    message: `${field.name} is too long: use at most ${groupedCount(max)} characters.`,
  };
}

function notANumber(field: FieldShape): CoercedValue {
  return { ok: false, message: `${field.name} must be a number, like 12 or 3.5.` };
}

function coerceText(field: FieldShape, text: string): CoercedValue {
  switch (field.type) {
    case 'text':
      return text.length > VALUE_LIMITS.textLength
        ? tooLong(field, VALUE_LIMITS.textLength)
        : { ok: true, value: text };
    case 'longText':
      return text.length > VALUE_LIMITS.longTextLength
        ? tooLong(field, VALUE_LIMITS.longTextLength)
        : { ok: true, value: text };
    case 'number': {
      const n = Number(text);
      return NUMBER.test(text) && Number.isFinite(n) && Math.abs(n) <= VALUE_LIMITS.maxNumber
        ? { ok: true, value: n }
        : notANumber(field);
    }
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return { ok: false, message: `${field.name} must be yes or no.` };
    }
    case 'date':
      return isIsoDate(text)
        ? { ok: true, value: text }
        : { ok: false, message: `Enter ${field.name} as a date (YYYY-MM-DD).` };
    case 'select': {
      // A choice matches whatever its case or spacing, and is stored as the creator wrote it.
      const wanted = text.toLowerCase();
      const option = field.options.find((o) => o.trim().toLowerCase() === wanted);
      if (option !== undefined) return { ok: true, value: option };
      if (field.options.length === 0 && text.length <= VALUE_LIMITS.textLength)
        return { ok: true, value: text };
      return { ok: false, message: `Choose one of the options for ${field.name}.` };
    }
    case 'url':
      return safeUrlSchema.safeParse(text).success
        ? { ok: true, value: text }
        : {
            ok: false,
            message: `Use a web address starting with https:// for ${field.name}.`,
          };
    case 'email':
      return emailSchema.safeParse(text).success
        ? { ok: true, value: text }
        : { ok: false, message: `Enter an email address like name@example.com for ${field.name}.` };
  }
}

/**
 * A value as its field's type stores it, or why it cannot be: numbers from numeric text, yes/no from
 * `true`/`false` (and yes/no, on/off, 1/0), dates as `YYYY-MM-DD`, a select's own option, safe URLs
 * only, well-formed email, and length limits. Text is trimmed. An empty value is null (false for a
 * yes/no field, which always has an answer), or an error when the field is required.
 */
export function coerceFieldValue(field: FieldShape, raw: unknown): CoercedValue {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
    if (field.type === 'boolean') return { ok: true, value: false };
    return field.required
      ? { ok: false, message: `Fill in ${field.name}.` }
      : { ok: true, value: null };
  }
  if (typeof raw === 'boolean') {
    return field.type === 'boolean' ? { ok: true, value: raw } : coerceText(field, String(raw));
  }
  if (typeof raw === 'number') {
    if (field.type === 'number') {
      return Number.isFinite(raw) && Math.abs(raw) <= VALUE_LIMITS.maxNumber
        ? { ok: true, value: raw }
        : notANumber(field);
    }
    if (Number.isFinite(raw)) return coerceText(field, String(raw));
  }
  if (typeof raw === 'string') return coerceText(field, raw.trim());
  return { ok: false, message: `${field.name} can’t hold this kind of value.` };
}

export interface CheckedValues {
  /** The values that passed, by field id, as their fields store them. */
  values: Record<string, FieldValue>;
  /** Why each other value was refused, by field id. */
  errors: Record<string, string>;
}

/**
 * Checks values (by field id) against fields. Keys that are not one of `fields` are dropped. With
 * `complete`, every field gets a value: missing ones take the field's default, so a required field
 * without a value or default is an error; without it (an update), only the given keys are checked.
 */
export function checkFieldValues(
  fields: readonly Field[],
  values: Readonly<Record<string, unknown>>,
  { complete }: { complete: boolean },
): CheckedValues {
  const out: CheckedValues = { values: {}, errors: {} };
  for (const field of fields) {
    const given = Object.hasOwn(values, field.id);
    if (!given && !complete) continue;
    let coerced = coerceFieldValue(field, given ? values[field.id] : field.default);
    // A default that no longer fits its field (an option since renamed) counts as no value.
    if (!given && !coerced.ok) coerced = coerceFieldValue(field, null);
    if (coerced.ok) out.values[field.id] = coerced.value;
    else out.errors[field.id] = coerced.message;
  }
  return out;
}
