import {
  appMetaSchema,
  type Field,
  FIELD_TYPES,
  type FieldValue,
  fieldSchema,
  LIMITS,
  parseFileReference,
  type ReadDefinition,
  readVisitorData,
  ROLLUP_AGGREGATES,
  rollupValue,
  SCHEMA_VERSION,
  themeSchema,
} from '@pipit/app-definition';
import { recordsToCsv } from '@pipit/app-definition/csv';
import * as engine from '@pipit/app-definition/formula';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { formulaComputer, indexRecords } from '../src/index';
import { fieldText } from '../src/records';
import * as relations from '../src/relations';

/**
 * Whatever a record holds, every reader reads it without throwing and as its field's type allows:
 * a person's own document, or a space's, takes any value under a record's `values` (the server
 * judges who changes a record, never what a value is: docs/product/records.md), so a buggy or
 * hostile device can write a value no form would — a relation of thousands of links or of numbers,
 * a photo that is not a reference, a choice that is not one, a rating of "abc", a value under a
 * formula or a rollup. These are read: by readVisitorData (only plain values, typed), by the
 * runtime's index (relations, rollups, formulas), by fieldText for each field, and by the CSV
 * export. Values written under a computed field change nothing any of them shows.
 */

const field = (id: string, type: (typeof FIELD_TYPES)[number], extra: object = {}): Field =>
  fieldSchema.parse({ id, name: id.toUpperCase(), type, ...extra });

/** One field of every type, and a collection the relation links. */
const ITEMS: Field[] = [
  field('text', 'text'),
  field('longText', 'longText'),
  field('number', 'number'),
  field('boolean', 'boolean'),
  field('date', 'date'),
  field('select', 'select', { options: ['A', 'B'] }),
  field('url', 'url'),
  field('email', 'email'),
  field('multiChoice', 'multiChoice', { options: ['x', 'y'] }),
  field('rating', 'rating', { scale: 5 }),
  field('currency', 'currency'),
  field('duration', 'duration'),
  field('dateTime', 'dateTime'),
  field('formula', 'formula', {
    formula: '{NUMBER} + {RATING} + {CURRENCY} + {DURATION} + {ROLLUP}',
  }),
  field('label', 'formula', { formula: '{TEXT} & {SELECT} & {DATE}' }),
  field('relation', 'relation', { target: 'others', many: true }),
  field('rollup', 'rollup', { through: 'relation', aggregate: 'sum', aggregateFieldId: 'amount' }),
  field('latest', 'rollup', { through: 'relation', aggregate: 'max', aggregateFieldId: 'when' }),
  field('broken', 'rollup', { through: 'gone', aggregate: 'count' }),
  field('image', 'image'),
  field('file', 'file'),
  field('person', 'person'),
];
const OTHERS: Field[] = [
  field('name', 'text'),
  field('amount', 'currency'),
  field('when', 'dateTime'),
  field('one', 'relation', { target: 'items' }),
];
/** Each collection's formula and rollup fields. */
const COMPUTED: Record<string, string[]> = {
  items: ITEMS.filter((f) => ['formula', 'rollup'].includes(f.type)).map((f) => f.id),
  others: OTHERS.filter((f) => ['formula', 'rollup'].includes(f.type)).map((f) => f.id),
};

const definition: ReadDefinition = {
  schemaVersion: SCHEMA_VERSION,
  meta: appMetaSchema.parse({ title: 'Everything', currency: 'EUR' }),
  theme: themeSchema.parse({}),
  screens: [],
  collections: [
    { id: 'items', name: 'Items', fields: ITEMS, records: [] },
    { id: 'others', name: 'Others', fields: OTHERS, records: [] },
  ],
} as unknown as ReadDefinition;

const ENV = { today: '2026-11-29', now: Date.UTC(2026, 10, 29, 12), timeZone: 'Europe/Paris' };

it('has a field of every type', () => {
  expect(new Set(ITEMS.map((f) => f.type))).toEqual(new Set(FIELD_TYPES));
});

const ids = ['item0000000000000000000000', 'item1', 'other000000000000000000000', 'other1'];
const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
/** Text that looks like a photo or file reference, right or wrong in any part. */
const reference = fc
  .record({
    hash: fc.oneof(hex, fc.constantFrom('', 'abc', 'Z'.repeat(64))),
    size: fc.oneof(fc.nat(), fc.constantFrom(-1, 0, 1e13, 12 * 1024 * 1024 + 1)),
    type: fc.constantFrom('image/png', 'text/plain', '', 'image/svg+xml', '%E0%A4%A', 'a;b'),
    name: fc.oneof(fc.string(), fc.constant('n'.repeat(5_000)), fc.constant('%ZZ')),
  })
  .map(({ hash, size, type, name }) => `sha256:${hash};${size};${type};${name}`);

/** Any value a device could put under a record's field: plain, nested, typed or not. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -0, -1, 3, 5.5, 99, 1e308, -1e308, NaN, Infinity),
    fc.double(),
    fc.integer(),
    fc.string(),
    fc.constantFrom(
      '',
      'A',
      'x',
      'abc',
      '2026-02-30',
      '2026-11-29',
      '2026-11-29T10:00:00.000Z',
      '9999-99-99T99:99',
      'javascript:alert(1)',
      '★★★',
      '=HYPERLINK("x")',
      '1:30',
    ),
    reference,
    fc.array(fc.constantFrom(...ids, 'x', 'y', 'z', ''), { maxLength: 8 }),
    fc.constantFrom(
      Array.from({ length: 5_000 }, (_, i) => ids[i % ids.length]!),
      Array.from({ length: 300 }, (_, i) => `id${i}`),
    ),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', '__proto__', 'then'), tie('v'), {
      maxKeys: 2,
      noNullPrototype: true,
    }),
  ),
})).v;

const fieldIds = [...new Set([...ITEMS, ...OTHERS].map((f) => f.id)), 'unknown', '__proto__'];
const record = fc.record({
  id: fc.constantFrom(...ids),
  collectionId: fc.constantFrom('items', 'items', 'others', 'nowhere', ''),
  values: fc.dictionary(fc.constantFrom(...fieldIds), value, {
    maxKeys: 12,
    noNullPrototype: true,
  }),
  createdAt: fc.oneof(fc.integer(), fc.constant(NaN), fc.constant('yesterday')),
});

/** The records written straight into a data document, as a device that skips every check would. */
function documentOf(
  records: readonly { id: string; values: Record<string, unknown>; [key: string]: unknown }[],
): Y.Doc {
  const doc = new Y.Doc();
  // eslint-disable-next-line no-restricted-syntax -- writes what visitor-data's operations refuse to
  const map = doc.getMap<Y.Map<unknown>>('records');
  doc.transact(() => {
    for (const r of records) {
      const entity = new Y.Map<unknown>();
      for (const [key, v] of Object.entries(r)) {
        if (key !== 'values') entity.set(key, v);
      }
      const values = new Y.Map<unknown>();
      for (const [key, v] of Object.entries(r.values)) values.set(key, v);
      entity.set('values', values);
      map.set(r.id, entity);
    }
  });
  return doc;
}

const isFieldValue = (v: unknown): v is FieldValue =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  (Array.isArray(v) && v.every((item) => typeof item === 'string'));

/** Everything the running app and the export show of a document. */
function everythingShown(doc: Y.Doc) {
  const data = readVisitorData(doc);
  const compute = formulaComputer(engine, definition, ENV);
  // Person fields name someone the space knows, someone who left, or anything else.
  const people = { people: [{ id: 'item1', name: 'Ada' }], me: 'item1' };
  const index = indexRecords(definition, data.records, compute, relations, people);
  const shown = definition.collections.map((collection) =>
    index.of(collection.id).map((r) => ({
      id: r.id,
      values: r.values,
      errors: r.formulaErrors ?? {},
      text: collection.fields.map((f) => fieldText(r, f, 'EUR')),
    })),
  );
  const csv = definition.collections.map((collection) =>
    recordsToCsv(
      collection.fields,
      data.records.filter((r) => r.collectionId === collection.id),
      ENV,
    ),
  );
  return { data, index, shown, csv };
}

describe('record values of any shape', () => {
  it('are read by every reader without throwing, each as a value its field may show', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), (records) => {
        const { data, index, shown, csv } = everythingShown(documentOf(records));
        for (const r of data.records) {
          for (const [key, v] of Object.entries(r.values)) {
            expect(isFieldValue(v), `${key}: ${JSON.stringify(v)}`).toBe(true);
          }
        }
        for (const r of index.of('items')) {
          // A relation keeps only records of its collection that exist, each once, within the limit.
          const links = r.values.relation;
          if (links !== null && links !== undefined) {
            expect(Array.isArray(links)).toBe(true);
            const list = links as string[];
            expect(list.length).toBeLessThanOrEqual(LIMITS.relationLinks);
            expect(new Set(list).size).toBe(list.length);
            for (const id of list) expect(index.byId(id)?.collectionId).toBe('others');
          }
          // A photo or file that is not a reference reads as nothing.
          for (const id of ['image', 'file']) {
            const text = fieldText(
              r,
              ITEMS.find((f) => f.id === id)!,
              'EUR',
            );
            if (!parseFileReference(r.values[id])) expect(text).toBe('');
          }
          for (const f of ITEMS) {
            if (f.type === 'rollup' || f.type === 'formula') {
              const v = r.values[f.id];
              if (v !== undefined) expect(isFieldValue(v)).toBe(true);
            }
          }
        }
        for (const group of shown)
          for (const r of group) for (const text of r.text) expect(typeof text).toBe('string');
        for (const file of csv) expect(file.startsWith('\uFEFF')).toBe(true);
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });

  it('show nothing different for values written under a formula or a rollup', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), (records) => {
        const withComputed = everythingShown(documentOf(records));
        const without = everythingShown(
          documentOf(
            records.map((r) => ({
              ...r,
              values: Object.fromEntries(
                Object.entries(r.values).filter(([k]) => !COMPUTED[r.collectionId]?.includes(k)),
              ),
            })),
          ),
        );
        expect(withComputed.shown).toEqual(without.shown);
        expect(withComputed.csv).toEqual(without.csv);
      }),
      { numRuns: 150, seed: 20261129 },
    );
  });

  it('roll up to a value of their type, whatever the linked records hold', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROLLUP_AGGREGATES),
        fc.constantFrom('number', 'currency', 'rating', 'duration', 'date', 'dateTime', 'text'),
        fc.array(value, { maxLength: 8 }),
        (aggregate, valueType, values) => {
          const plain = values.filter(isFieldValue);
          const result = rollupValue(aggregate, plain, valueType);
          expect(isFieldValue(result), JSON.stringify(result)).toBe(true);
          if (aggregate === 'count') expect(result).toBe(plain.length);
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });
});

describe('a relation holding more links than a form keeps', () => {
  it('links its first ones only, within the limit, in the index and the reverse rollups', () => {
    const others = Array.from({ length: 300 }, (_, i) => ({
      id: `other${String(i).padStart(4, '0')}`,
      collectionId: 'others',
      values: { name: `Other ${i}`, amount: 1 },
    }));
    // Every record, twenty times over: what no form writes, but a value may hold.
    const links = Array.from({ length: 20 }, () => others.map((r) => r.id)).flat();
    const doc = documentOf([
      ...others,
      { id: 'item', collectionId: 'items', values: { relation: links } },
    ]);
    const { index } = everythingShown(doc);
    const item = index.byId('item')!;
    expect(item.values.relation).toEqual(others.slice(0, LIMITS.relationLinks).map((r) => r.id));
    expect(item.values.rollup).toBe(LIMITS.relationLinks);
  });
});
