import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  coerceFieldValue,
  type Field,
  fieldSchema,
  type FieldType,
  type FieldValue,
  TYPED_FIELD_TYPES,
} from '../src/index';
import { parseCsv, planImport, recordsToCsv, suggestMapping } from '../src/csv/index';

/*
 * Export then import gives back the same records, for every field type a record stores: values
 * as forms store them (each generated value is first coerced, as a form would), written by
 * recordsToCsv and read by the importer the creator and visitors use (parseCsv, suggestMapping,
 * planImport). Choices may hold a comma, one also being the start of another ("Salt" and "Salt,
 * pepper").
 */

const RUNS = { seed: 20_261_129, numRuns: 200 };
const ENV = { today: '2026-03-01', now: Date.UTC(2026, 2, 1), timeZone: 'UTC' };
const CHOICES = [
  'Red',
  'Green apple',
  'Blue-ish',
  "O'Neil",
  '=Sum',
  'Ünïcödé',
  'Salt, pepper',
  'Salt',
];

function fieldOf(type: FieldType): Field {
  return fieldSchema.parse({
    id: `f-${type}`,
    // Names a spreadsheet would run and names with quotes are protected and read back too.
    name: type === 'text' ? '=Title "quoted"' : `Field ${type}`,
    type,
    options: type === 'select' || type === 'multiChoice' ? CHOICES : [],
    ...(type === 'rating' ? { scale: 7 } : {}),
  });
}

const FIELDS = TYPED_FIELD_TYPES.map(fieldOf);

/** Any text a person might type, formula starts, quotes and line breaks included. */
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('=1+1', '+SUM(A1)', '-x', '@cmd', "'=quoted", '"', 'a,b;c', 'line\r\nbreak'),
);

/** TYPED_FIELD_TYPES holds no relation, rollup, photo, file or person: CSV carries none of them. */
const RAW: Record<
  Exclude<FieldType, 'relation' | 'rollup' | 'image' | 'file' | 'person'>,
  fc.Arbitrary<unknown>
> = {
  text: anyText,
  longText: fc.oneof(anyText, fc.string({ maxLength: 300, unit: 'grapheme' })),
  number: fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
  ),
  boolean: fc.boolean(),
  date: fc
    .date({ min: new Date('1900-01-01'), max: new Date('2999-12-31'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  select: fc.constantFrom(...CHOICES),
  url: fc.webUrl({ validSchemes: ['https'] }),
  email: fc.constantFrom('a@example.com', 'first.last+tag@example.org', 'x_y@sub.example.co'),
  multiChoice: fc.subarray(CHOICES),
  rating: fc.integer({ min: 0, max: 7 }),
  currency: fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => cents / 100),
  duration: fc.integer({ min: 0, max: 1_000_000_000 }),
  dateTime: fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }),
  formula: fc.constant(null),
};

/** A record as a form would store it: each generated value coerced, refused ones left empty. */
const record = fc
  .record(Object.fromEntries(FIELDS.map((f) => [f.id, fc.option(RAW[f.type as keyof typeof RAW])])))
  .map((raw) => {
    const values: Record<string, FieldValue> = {};
    for (const field of FIELDS) {
      const coerced = coerceFieldValue(field, raw[field.id]);
      values[field.id] = coerced.ok
        ? coerced.value
        : (coerceFieldValue(field, null) as { value: FieldValue }).value;
    }
    return values;
  });

describe('CSV export and import', () => {
  test.prop([fc.array(record, { minLength: 1, maxLength: 8 })], RUNS)(
    'give back the same records for every field type',
    (records) => {
      const text = recordsToCsv(
        FIELDS,
        records.map((values) => ({ values })),
        ENV,
      );
      const parsed = parseCsv(text.replace(/^\uFEFF/, ''), { maxRows: 100 });
      if (!parsed.ok) throw new Error(parsed.message);
      const columns = suggestMapping(parsed.table, FIELDS, { newFields: false });
      expect(columns.every((c) => c.kind === 'field')).toBe(true);
      const plan = planImport(parsed.table, columns, FIELDS);
      expect(plan.problems).toEqual([]);
      expect(plan.rows.flatMap((row) => row.errors)).toEqual([]);
      expect(plan.rows.map((row) => row.values)).toEqual(records);
    },
  );
});
