import type { FieldType } from '../schema/definition';
import { coerceFieldValue, VALUE_LIMITS } from '../schema/field-values';
import { LIMITS } from '../schema/limits';
import { CSV_LIMITS } from './limits';

/** The field a column would make: its type and, for a choice field, its choices. */
export interface DetectedField {
  type: FieldType;
  options: string[];
}

const CURRENCY_SIGN = /[$€£¥₹¢₩₽]|\b[A-Z]{3}\b/;
const HAS_TIME = /\d[T ]\d{2}:\d{2}/;
const BOOLEAN_WORD = /^(true|false|yes|no|on|off)$/i;
const SEPARATOR = /[,;]/;

/** Whether every value reads as the given type, by the same rules a form uses (coerceFieldValue). */
function allAre(values: readonly string[], type: FieldType, options: string[] = []): boolean {
  const field = { name: 'Column', type, required: false, options };
  return values.every((value) => coerceFieldValue(field, value).ok);
}

function distinct(values: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const value of values) {
    const key = value.toLowerCase();
    if (!seen.has(key)) seen.set(key, value);
  }
  return [...seen.values()];
}

/** A few values repeated over many rows: the column is a choice. */
function fewRepeated(values: readonly string[], choices: readonly string[]): boolean {
  return (
    choices.length >= 1 &&
    choices.length <= CSV_LIMITS.choiceValues &&
    choices.length * 2 <= values.length &&
    choices.every((choice) => choice.length <= LIMITS.choiceLength)
  );
}

/**
 * The field type a column's values suggest: yes/no, a number, an amount (a currency sign), a date,
 * a date with a time, an email address, a web address, a choice (a few values repeated), several
 * choices (a few values, separated by commas), long text (line breaks, or past a line's length),
 * else text. Each is checked with the same rules the import then applies, so a detected column
 * imports without errors.
 */
export function detectFieldType(cells: readonly string[]): DetectedField {
  const values = cells.map((cell) => cell.trim()).filter((cell) => cell !== '');
  const plain = (type: FieldType): DetectedField => ({ type, options: [] });
  if (values.length === 0) return plain('text');
  if (values.every((v) => BOOLEAN_WORD.test(v) || v === '0' || v === '1')) {
    if (values.some((v) => BOOLEAN_WORD.test(v))) return plain('boolean');
  }
  if (allAre(values, 'number')) return plain('number');
  if (values.some((v) => CURRENCY_SIGN.test(v)) && allAre(values, 'currency'))
    return plain('currency');
  if (allAre(values, 'date')) return plain('date');
  if (values.some((v) => HAS_TIME.test(v)) && allAre(values, 'dateTime')) return plain('dateTime');
  if (allAre(values, 'email')) return plain('email');
  if (allAre(values, 'url')) return plain('url');
  if (values.some((v) => v.includes('\n') || v.length > VALUE_LIMITS.textLength)) {
    return plain('longText');
  }
  const whole = distinct(values);
  if (values.some((v) => SEPARATOR.test(v))) {
    const parts = values.flatMap((v) => v.split(SEPARATOR).map((p) => p.trim())).filter(Boolean);
    const tags = distinct(parts);
    if (fewRepeated(parts, tags) && allAre(values, 'multiChoice', tags)) {
      return { type: 'multiChoice', options: tags };
    }
  }
  if (fewRepeated(values, whole)) return { type: 'select', options: whole };
  return plain('text');
}
