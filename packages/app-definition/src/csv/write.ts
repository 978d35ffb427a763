import Papa from 'papaparse';
import type { Field } from '../schema/definition';
import { durationInputText, type FieldValue } from '../schema/field-values';
import { compileCollectionFormulas } from '../formula/compile';
import { evaluateFormulas } from '../formula/evaluate';
import type { FormulaEnv } from '../formula/types';

/*
 * Writing records as CSV that spreadsheets open and this package's import reads back unchanged
 * (csv-roundtrip.property.test.ts): one column per field, named after it; formula fields as their
 * worked-out values; every value written the way the import reads it.
 */

/**
 * Text a spreadsheet would run as a formula when the cell starts with one of these (CSV or formula
 * injection, OWASP): such cells get a leading `'`, which spreadsheets show as text. Cells that
 * already start with `'` before one of them get one more, so the import can take exactly one off.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** A cell of text made safe to open in a spreadsheet (OWASP's CSV injection advice). */
export function protectCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The text a protected cell held (what `protectCell` wrote, read back). */
export function unprotectCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/** A stored value as its CSV cell: what the import reads back as the same value. */
export function cellText(field: Pick<Field, 'type'>, value: FieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return protectCell(value.join(', '));
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    // A duration is kept in seconds and read back from a clock (a bare number is minutes).
    if (field.type === 'duration') return durationInputText(value);
    // Numbers are written by Pipit, never typed text: a spreadsheet should read -5 as a number.
    return Object.is(value, -0) ? '-0' : String(value);
  }
  return protectCell(value);
}

/** Column names for the fields, each once (a second "Name" is "Name (2)"), made safe. */
function headerOf(fields: readonly Pick<Field, 'name'>[]): string[] {
  const seen = new Set<string>();
  return fields.map((field) => {
    let name = field.name;
    for (let n = 2; seen.has(name.toLowerCase()); n += 1) name = `${field.name} (${n})`;
    seen.add(name.toLowerCase());
    return protectCell(name);
  });
}

export type CsvField = Pick<Field, 'id' | 'name' | 'type'> & Partial<Pick<Field, 'formula'>>;

/**
 * Records as a CSV file's text (UTF-8 with a byte-order mark, so spreadsheets read its letters
 * right; lines end with CRLF as RFC 4180 says). Formula fields are worked out for each record at
 * `env` (the device's today and time zone); one that can't be is an empty cell.
 */
export function recordsToCsv(
  allFields: readonly CsvField[],
  records: readonly { values: Readonly<Record<string, FieldValue>> }[],
  env: FormulaEnv,
): string {
  // Links between records, what is worked out over them, photos and files, and people (a name
  // can't say which account it is, and an id means nothing in a spreadsheet): no text a file could
  // carry back.
  const fields = allFields.filter(
    (field) => !['relation', 'rollup', 'image', 'file', 'person'].includes(field.type),
  );
  const hasFormulas = fields.some((field) => field.type === 'formula');
  const compiled = hasFormulas ? compileCollectionFormulas(allFields) : null;
  // A formula's column holds what it works out, never a value stored under it (which no form
  // writes, but a device that skips the checks can): an answer it has no answer for is empty.
  const formulaIds = fields.filter((field) => field.type === 'formula').map((field) => field.id);
  const data = records.map((record) => {
    let values: Readonly<Record<string, FieldValue>> = record.values;
    if (formulaIds.some((id) => Object.hasOwn(values, id))) {
      values = Object.fromEntries(
        Object.entries(values).filter(([id]) => !formulaIds.includes(id)),
      );
    }
    if (compiled) {
      const computed: Record<string, FieldValue> = {};
      for (const [fieldId, result] of Object.entries(
        evaluateFormulas(compiled, record.values, env),
      )) {
        if (!('error' in result)) computed[fieldId] = result.value;
      }
      values = { ...values, ...computed };
    }
    return fields.map((field) => cellText(field, values[field.id]));
  });
  return `\uFEFF${Papa.unparse({ fields: headerOf(fields), data }, { newline: '\r\n' })}\r\n`;
}

/** A file name for a collection's CSV: its name without characters file systems refuse. */
export function csvFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what file systems refuse
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'records';
  return `${safe.slice(0, 80)}.csv`;
}
