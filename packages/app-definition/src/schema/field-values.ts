import { EMAIL_PATTERN, groupedCount } from '@pipit/protocol';
import type { Field } from './definition';
import { COMPUTED_FIELD_TYPES } from './field-types';
import { isSafeUrl } from './safe-url-text';
import { fileReferenceProblem, parseFileReference } from './file-reference';
import { LIMITS } from './limits';
import { isPersonId } from './person';

/**
 * One value of a record, by field id: what creator and visitor records hold. A list of text is a
 * multi-choice field's chosen options.
 */
export type FieldValue = string | number | boolean | null | string[];

/** The longest value a visitor may save per field type (text fields are one line, long text a note). */
export const VALUE_LIMITS = {
  textLength: 1_000,
  longTextLength: LIMITS.textLength,
  emailLength: 254,
  /** Beyond this a number loses integer precision in JSON and in Yjs. */
  maxNumber: Number.MAX_SAFE_INTEGER,
  /** The longest duration: about 31 years, in seconds. */
  maxDurationSeconds: 1_000_000_000,
  /** Currency amounts keep cents (two decimals), the most most currencies use. */
  currencyDecimals: 2,
} as const;

export type CoercedValue = { ok: true; value: FieldValue } | { ok: false; message: string };

type FieldShape = Pick<Field, 'name' | 'type' | 'required' | 'options'> &
  Partial<Pick<Field, 'scale' | 'many'>>;

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);
/**
 * What `zm.email()` accepts, by zod's own pattern rather than its schema: the runtime checks
 * visitors' values on the installed app's page, whose JavaScript is budgeted (docs/performance.md),
 * and a schema would bring zod's ~10 KB core.
 */
const isEmail = (text: string) =>
  text.length <= VALUE_LIMITS.emailLength && EMAIL_PATTERN.test(text);

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

/** A choice as the creator wrote it, matched whatever its case or spacing. */
function matchOption(field: FieldShape, text: string): string | undefined {
  const wanted = text.trim().toLowerCase();
  return field.options.find((o) => o.trim().toLowerCase() === wanted);
}

/**
 * A multi-choice value: a list, or text naming choices separated by commas, semicolons or lines
 * (a choice that itself holds a comma matches whole first). Kept in the field's order of choices,
 * once each; without choices, any short tags are kept as given.
 */
function coerceChoices(field: FieldShape, raw: string | readonly unknown[]): CoercedValue {
  let parts: string[];
  if (typeof raw === 'string') {
    const whole = matchOption(field, raw);
    parts = whole !== undefined ? [whole] : raw.split(/[,;\n]/);
  } else {
    if (!raw.every((p) => typeof p === 'string'))
      return { ok: false, message: `${field.name} can only hold its choices.` };
    parts = raw as string[];
  }
  const chosen = new Set<string>();
  for (const part of parts.map((p) => p.trim()).filter(Boolean)) {
    if (field.options.length === 0) {
      if (part.length > LIMITS.choiceLength) return tooLong(field, LIMITS.choiceLength);
      chosen.add(part);
      continue;
    }
    const option = matchOption(field, part);
    if (option === undefined)
      return {
        ok: false,
        message: `“${part.slice(0, 40)}” isn’t one of the choices for ${field.name}.`,
      };
    chosen.add(option);
  }
  if (chosen.size > LIMITS.choices)
    return { ok: false, message: `Choose at most ${LIMITS.choices} for ${field.name}.` };
  if (chosen.size === 0) return emptyValue(field);
  const order = field.options;
  const list = order.length > 0 ? order.filter((o) => chosen.has(o)) : [...chosen];
  return { ok: true, value: list };
}

/** The longest record id a relation may hold (the definition's id length). */
const RECORD_ID_LENGTH = 64;

/**
 * A relation's value: the ids of the records it links, once each, in the order given; one at most
 * unless the field links many. Whether each still exists is the reader's business: a link to a
 * record deleted since simply shows nothing (and counts for nothing).
 */
function coerceLinks(field: FieldShape, raw: string | readonly unknown[]): CoercedValue {
  const given = typeof raw === 'string' ? [raw] : raw;
  const ids: string[] = [];
  for (const id of given) {
    if (typeof id !== 'string' || id.trim() === '' || id.length > RECORD_ID_LENGTH)
      return { ok: false, message: `${field.name} can only link to records.` };
    if (!ids.includes(id.trim())) ids.push(id.trim());
  }
  const most = field.many ? LIMITS.relationLinks : 1;
  if (ids.length > most)
    return {
      ok: false,
      message: field.many
        ? `Link at most ${LIMITS.relationLinks} records in ${field.name}.`
        : `${field.name} links one record: choose one.`,
    };
  return ids.length === 0 ? emptyValue(field) : { ok: true, value: ids };
}

function coerceRating(field: FieldShape, n: number): CoercedValue {
  const scale = field.scale ?? 5;
  if (n === 0) return emptyValue(field);
  return Number.isInteger(n) && n >= 1 && n <= scale
    ? { ok: true, value: n }
    : { ok: false, message: `Rate ${field.name} from 1 to ${scale}.` };
}

/** An amount: digits with an optional sign, decimals, thousands commas and a currency sign or code. */
const AMOUNT =
  /^([+-]?)[^\d+.-]{0,4}\s*([+-]?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)\s*[^\d]{0,4}$/;

function coerceCurrency(field: FieldShape, raw: string | number): CoercedValue {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else {
    const match = AMOUNT.exec(raw);
    if (!match) return { ok: false, message: `${field.name} must be an amount, like 12.50.` };
    const negative = match[1] === '-' || match[2] === '-';
    n = Number(match[3]!.replaceAll(',', '')) * (negative ? -1 : 1);
  }
  if (!Number.isFinite(n) || Math.abs(n) > VALUE_LIMITS.maxNumber / 100)
    return { ok: false, message: `${field.name} must be an amount, like 12.50.` };
  const cents = 10 ** VALUE_LIMITS.currencyDecimals;
  return { ok: true, value: Math.round(n * cents) / cents };
}

const DURATION_UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
};
const CLOCK = /^(\d+):([0-5]\d)(?::([0-5]\d))?$/;
const DURATION_PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/g;

/**
 * Seconds from how people write a length of time: `1:30` (hours and minutes), `1:30:15`,
 * `1h 30m`, `90 min`, `2 hours`, or a bare number of minutes. A stored value is already seconds.
 */
export function parseDuration(text: string): number | null {
  const clock = CLOCK.exec(text);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  if (NUMBER.test(text)) return Math.round(Number(text) * 60);
  const lower = text.toLowerCase().replaceAll(',', ' ');
  let seconds = 0;
  let consumed = '';
  for (const [part, amount, unit] of lower.matchAll(DURATION_PART)) {
    const size = DURATION_UNITS[unit!];
    if (size === undefined) return null;
    seconds += Number(amount) * size;
    consumed += part;
  }
  if (consumed === '' || consumed.replaceAll(/\s/g, '') !== lower.replaceAll(/\s|and/g, ''))
    return null;
  return Math.round(seconds);
}

function coerceDuration(field: FieldShape, raw: string | number): CoercedValue {
  const seconds = typeof raw === 'number' ? raw : parseDuration(raw);
  return seconds !== null &&
    Number.isInteger(seconds) &&
    seconds >= 0 &&
    seconds <= VALUE_LIMITS.maxDurationSeconds
    ? { ok: true, value: seconds }
    : { ok: false, message: `Enter ${field.name} as a time like 1:30 or 45 min.` };
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const ZONED_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** Instants Pipit keeps: the years 1000 to 9999. */
const FIRST_INSTANT = Date.UTC(1000, 0, 1);
const LAST_INSTANT = Date.UTC(10_000, 0, 1) - 1;

/**
 * An instant as ISO text in UTC. Text with a zone (`Z`, `+02:00`) is that moment; text without one
 * (`2026-03-29 08:30`, what a datetime-local input and most spreadsheets give) is read in this
 * device's time zone, the one the person sees; a number is milliseconds since 1970.
 */
export function parseDateTime(raw: string | number): string | null {
  let ms: number;
  if (typeof raw === 'number') ms = raw;
  else if (ZONED_DATE_TIME.test(raw)) ms = Date.parse(raw);
  else {
    const match = LOCAL_DATE_TIME.exec(raw);
    if (!match || !isIsoDate(raw.slice(0, 10))) return null;
    const [year, month, day, hour, minute, second] = match.slice(1).map((p) => Number(p ?? 0));
    if (hour! > 23) return null;
    ms = new Date(year!, month! - 1, day!, hour, minute, second).getTime();
  }
  return Number.isFinite(ms) && ms >= FIRST_INSTANT && ms <= LAST_INSTANT
    ? new Date(ms).toISOString()
    : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A stored instant as a datetime-local input shows it and coercion reads it back:
 * `YYYY-MM-DDTHH:mm` in this device's time zone ('' for anything that isn't an instant).
 */
export function dateTimeInputText(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${day}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Seconds as a duration input shows them and parseDuration reads them back: `1:30`, `1:30:15`. */
export function durationInputText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const clock = `${Math.floor(whole / 3600)}:${pad(Math.floor((whole % 3600) / 60))}`;
  return whole % 60 ? `${clock}:${pad(whole % 60)}` : clock;
}

function emptyValue(field: FieldShape): CoercedValue {
  if (field.type === 'boolean') return { ok: true, value: false };
  return field.required
    ? { ok: false, message: `Fill in ${field.name}.` }
    : { ok: true, value: null };
}

function coerceText(field: FieldShape, text: string): CoercedValue {
  switch (field.type) {
    case 'multiChoice':
      return coerceChoices(field, text);
    case 'rating': {
      const stars = /^★+$/.test(text) ? text.length : NUMBER.test(text) ? Number(text) : NaN;
      return coerceRating(field, stars);
    }
    case 'currency':
      return coerceCurrency(field, text);
    case 'duration':
      return coerceDuration(field, text);
    case 'dateTime': {
      const instant = parseDateTime(text);
      return instant !== null
        ? { ok: true, value: instant }
        : { ok: false, message: `Enter ${field.name} as a date and time.` };
    }
    case 'formula':
      return { ok: false, message: `${field.name} is worked out by its formula.` };
    case 'rollup':
      return { ok: false, message: `${field.name} is worked out from its linked records.` };
    case 'relation':
      return coerceLinks(field, text);
    case 'person':
      // Whether they are in the space is the reader's business, as a relation's records are: someone
      // who left shows as a former member.
      return isPersonId(text)
        ? { ok: true, value: text }
        : { ok: false, message: `Choose someone for ${field.name}.` };
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
      const option = matchOption(field, text);
      if (option !== undefined) return { ok: true, value: option };
      if (field.options.length === 0 && text.length <= VALUE_LIMITS.textLength)
        return { ok: true, value: text };
      return { ok: false, message: `Choose one of the options for ${field.name}.` };
    }
    case 'url':
      return isSafeUrl(text)
        ? { ok: true, value: text }
        : {
            ok: false,
            message: `Use a web address starting with https:// for ${field.name}.`,
          };
    case 'image':
    case 'file': {
      const ref = parseFileReference(text);
      if (!ref) {
        return {
          ok: false,
          message: `Choose a ${field.type === 'image' ? 'photo' : 'file'} for ${field.name}.`,
        };
      }
      const problem = fileReferenceProblem(field.type, field.name, ref);
      return problem ? { ok: false, message: problem } : { ok: true, value: text };
    }
    case 'email':
      return isEmail(text)
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
    return emptyValue(field);
  }
  if (Array.isArray(raw)) {
    if (field.type === 'relation') return coerceLinks(field, raw);
    return field.type === 'multiChoice'
      ? coerceChoices(field, raw)
      : { ok: false, message: `${field.name} holds one value, not a list.` };
  }
  // An account id is text: a number or yes/no written as text would never name anyone.
  if (field.type === 'person' && typeof raw !== 'string')
    return { ok: false, message: `Choose someone for ${field.name}.` };
  if (typeof raw === 'boolean') {
    return field.type === 'boolean' ? { ok: true, value: raw } : coerceText(field, String(raw));
  }
  if (typeof raw === 'number') return coerceNumber(field, raw);
  if (typeof raw === 'string') return coerceText(field, raw.trim());
  return { ok: false, message: `${field.name} can’t hold this kind of value.` };
}

/** A number as a number-like field stores it (a duration's is seconds, a moment's milliseconds). */
function coerceNumber(field: FieldShape, raw: number): CoercedValue {
  switch (field.type) {
    case 'number':
      return Number.isFinite(raw) && Math.abs(raw) <= VALUE_LIMITS.maxNumber
        ? { ok: true, value: raw }
        : notANumber(field);
    case 'rating':
      return coerceRating(field, raw);
    case 'currency':
    case 'duration':
      return field.type === 'currency' ? coerceCurrency(field, raw) : coerceDuration(field, raw);
    case 'dateTime':
      return coerceText(field, String(parseDateTime(raw) ?? ''));
    default:
      return Number.isFinite(raw) ? coerceText(field, String(raw)) : notANumber(field);
  }
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
    // A computed field's value is worked out where it is shown, never kept.
    if (COMPUTED_FIELD_TYPES.includes(field.type)) continue;
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
