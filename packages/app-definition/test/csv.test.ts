import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addCollection,
  addField,
  addRecord,
  type Collection,
  createVisitorRecords,
  DefinitionError,
  fieldSchema,
  importRecords,
  LIMITS,
  readDefinition,
  readVisitorData,
} from '../src/index';
import {
  CSV_LIMITS,
  decodeCsv,
  describeCellError,
  detectFieldType,
  parseCsv,
  planImport,
  protectCell,
  readyImport,
  recordsToCsv,
  suggestMapping,
  unprotectCell,
  type CsvTable,
} from '../src/csv/index';
import { idFactory, newDoc } from './support';

type Encoder = new () => { encode(text: string): Uint8Array };
const utf8 = (text: string) =>
  new (globalThis as unknown as { TextEncoder: Encoder }).TextEncoder().encode(text);

function table(text: string, maxRows = 100): CsvTable {
  const parsed = parseCsv(text, { maxRows });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.table;
}

const ENV = { today: '2026-03-01', now: Date.UTC(2026, 2, 1), timeZone: 'UTC' };

describe('decodeCsv', () => {
  it('reads UTF-8 and drops a byte-order mark', () => {
    const decoded = decodeCsv(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('Name\nCafé')]));
    expect(decoded).toEqual({ ok: true, text: 'Name\nCafé' });
  });

  it('refuses bytes that are not UTF-8, and reads them as Windows-1252 when asked', () => {
    const latin = Uint8Array.from([...utf8('Name\nCaf'), 0xe9]);
    const refused = decodeCsv(latin);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.notUtf8).toBe(true);
      expect(refused.message).toContain('isn’t UTF-8');
    }
    expect(decodeCsv(latin, 'windows-1252')).toEqual({ ok: true, text: 'Name\nCafé' });
  });

  it('refuses an empty file, UTF-16, binary files and files over the size limit', () => {
    expect(decodeCsv(new Uint8Array(0))).toMatchObject({ ok: false, message: /empty/ });
    expect(decodeCsv(Uint8Array.from([0xff, 0xfe, 0x41, 0]))).toMatchObject({
      ok: false,
      message: /UTF-16/,
    });
    expect(decodeCsv(Uint8Array.from([0x50, 0x4b, 0, 0]))).toMatchObject({
      ok: false,
      message: /doesn’t look like a CSV/,
    });
    expect(decodeCsv(new Uint8Array(CSV_LIMITS.fileBytes + 1))).toMatchObject({
      ok: false,
      message: /at most 5 MB/,
    });
  });
});

describe('parseCsv', () => {
  it('reads quotes, line breaks in cells, CRLF and a semicolon delimiter', () => {
    const parsed = table('Name;Note\r\n"Smith; J";"Line one\nline ""two"""\r\nAda;x\r\n');
    expect(parsed.header).toEqual(['Name', 'Note']);
    expect(parsed.rows).toEqual([
      { number: 2, cells: ['Smith; J', 'Line one\nline "two"'] },
      { number: 3, cells: ['Ada', 'x'] },
    ]);
  });

  it('reports a row with more or fewer cells than the header by its number', () => {
    const parsed = table('A,B\n1,2\n3\n4,5,6\n');
    expect(parsed.rows[1]).toMatchObject({ number: 3, cells: ['3', ''] });
    expect(parsed.rows[1]?.problem).toContain('1 cell, but the header has 2 columns');
    expect(parsed.rows[2]?.problem).toContain('3 cells');
    expect(parsed.rows[0]?.problem).toBeUndefined();
  });

  it('refuses an empty file, a header without rows, no header, and duplicate names', () => {
    expect(parseCsv('\n\n', { maxRows: 10 })).toMatchObject({ ok: false, message: /empty/ });
    expect(parseCsv('A,B\n', { maxRows: 10 })).toMatchObject({ ok: false, message: /no rows/ });
    expect(parseCsv('12,2026-01-01\n3,4\n', { maxRows: 10 })).toMatchObject({
      ok: false,
      message: /looks like data/,
    });
    expect(parseCsv('Price,price\n1,2\n', { maxRows: 10 })).toMatchObject({
      ok: false,
      message: /Two columns are named “price” \(columns 1 and 2\)/,
    });
  });

  it('names unnamed columns and refuses more columns than a collection has fields', () => {
    expect(table('Name,\nA,B\n').header).toEqual(['Name', 'Column 2']);
    const wide = Array.from({ length: CSV_LIMITS.columns + 1 }, (_, i) => `C${i}`).join(',');
    expect(parseCsv(`${wide}\n${wide}\n`, { maxRows: 10 })).toMatchObject({
      ok: false,
      message: /51 columns; a collection can have at most 50 fields/,
    });
  });

  it('refuses 100,000 rows against the limit, having read no more than the limit', () => {
    const text = `N\n${'1\n'.repeat(100_000)}`;
    const parsed = parseCsv(text, { maxRows: LIMITS.creatorRecords });
    expect(parsed).toMatchObject({ ok: false, message: /more than 2,000 rows/ });
    expect(parseCsv(`N\n${'1\n'.repeat(2_000)}`, { maxRows: 2_000 }).ok).toBe(true);
  });
});

describe('detectFieldType', () => {
  it.each([
    [['yes', 'no', 'yes'], 'boolean'],
    [['1', '0', '1'], 'number'],
    [['12', '3.5', '-4'], 'number'],
    [['$12.50', '$3', '$1,200'], 'currency'],
    [['2026-01-02', '2025-12-31'], 'date'],
    [['2026-01-02 08:30', '2026-01-03T09:00'], 'dateTime'],
    [['a@example.com', 'b@example.org'], 'email'],
    [['https://example.com', 'https://pipit.app/x'], 'url'],
    [['one\ntwo', 'three'], 'longText'],
    [['Ada', 'Grace', 'Linus'], 'text'],
  ])('%j is %s', (values, type) => {
    expect(detectFieldType(values).type).toBe(type);
  });

  it('makes a choice of a few repeated values, and several choices of comma lists', () => {
    expect(detectFieldType(['High', 'Low', 'High', 'low', 'High'])).toEqual({
      type: 'select',
      options: ['High', 'Low'],
    });
    expect(detectFieldType(['red, blue', 'blue', 'red', 'green, red'])).toEqual({
      type: 'multiChoice',
      options: ['red', 'blue', 'green'],
    });
  });
});

const products: Collection = {
  id: 'products',
  name: 'Products',
  fields: [
    fieldSchema.parse({ id: 'name', name: 'Name', type: 'text', required: true }),
    fieldSchema.parse({ id: 'price', name: 'Price', type: 'number' }),
    fieldSchema.parse({ id: 'inStock', name: 'In stock', type: 'boolean' }),
    fieldSchema.parse({ id: 'total', name: 'Total', type: 'formula', formula: '{Price} * 2' }),
  ],
  records: [],
  sharing: 'private',
  recordRule: 'anyone',
};

describe('planImport', () => {
  const csv = table('Name,Price,Total,Colour\nTea,3.5,7,red\nCake,abc,1,blue\nJam,2,4,red\n');

  it('maps columns by name, skips formula columns, and makes new fields where allowed', () => {
    expect(suggestMapping(csv, products.fields, { newFields: true })).toEqual([
      { kind: 'field', fieldId: 'name' },
      { kind: 'field', fieldId: 'price' },
      { kind: 'skip' },
      { kind: 'new', name: 'Colour', type: 'text', options: [] },
    ]);
    expect(suggestMapping(csv, products.fields, { newFields: false })[3]).toEqual({
      kind: 'skip',
    });
  });

  it('stores values as forms do and gives each bad cell its row’s error', () => {
    const columns = suggestMapping(csv, products.fields, { newFields: true });
    const plan = planImport(csv, columns, products.fields);
    expect(plan.problems).toEqual([]);
    expect(plan.newFields).toEqual([{ key: 'new:3', name: 'Colour', type: 'text', options: [] }]);
    expect(plan.rows[0]).toEqual({
      number: 2,
      values: { name: 'Tea', price: 3.5, inStock: false, 'new:3': 'red' },
      errors: [],
    });
    expect(plan.rows[1]!.errors.map(describeCellError)).toEqual([
      'Row 3: “abc” — Price must be a number, like 12 or 3.5.',
    ]);
    expect(
      readyImport(plan, { skipRowsWithErrors: false, room: 100, limitMessage: 'full' }),
    ).toEqual({
      ok: false,
      message: '1 row has an error. Fix it in the preview, or choose to skip it.',
    });
    const skipped = readyImport(plan, { skipRowsWithErrors: true, room: 100, limitMessage: '' });
    expect(skipped).toMatchObject({ ok: true, skipped: 1 });
    expect(readyImport(plan, { skipRowsWithErrors: true, room: 1, limitMessage: 'full' })).toEqual({
      ok: false,
      message: 'full',
    });
    const fixed = planImport(csv, columns, products.fields, { 3: { 1: '4' } });
    expect(fixed.rows[1]).toMatchObject({ errors: [], values: { price: 4 } });
  });

  it('blocks a mapping into a formula, into one field twice, or without a required field', () => {
    const plan = planImport(
      csv,
      [
        { kind: 'skip' },
        { kind: 'field', fieldId: 'price' },
        { kind: 'field', fieldId: 'total' },
        { kind: 'field', fieldId: 'price' },
      ],
      products.fields,
    );
    expect(plan.problems).toEqual([
      'Total is worked out by its formula, so “Total” can’t be imported into it. Skip that column.',
      'Columns “Price” and “Colour” both go into Price. Choose another field for one of them, or skip it.',
      'Name must be filled in: choose the column that goes into it.',
    ]);
  });

  it('makes a row with the wrong number of cells that row’s error, skipped only when chosen', () => {
    const short = table('Name,Price\nTea,3\nCake\n');
    const plan = planImport(
      short,
      suggestMapping(short, products.fields, { newFields: false }),
      products.fields,
    );
    expect(plan.rows[1]!.errors.map(describeCellError)).toEqual([
      'Row 3: It has 1 cell, but the header has 2 columns. Fix it in the file, or skip the row.',
    ]);
    const room = { room: 10, limitMessage: '' };
    expect(readyImport(plan, { skipRowsWithErrors: false, ...room }).ok).toBe(false);
    const ready = readyImport(plan, { skipRowsWithErrors: true, ...room });
    expect(ready.ok && ready.rows.map((row) => row.values.name)).toEqual(['Tea']);
  });

  it('makes a huge cell its row’s error, saying the field’s limit', () => {
    const notes = [fieldSchema.parse({ id: 'notes', name: 'Notes', type: 'longText' })];
    const huge = table(`Notes\n"${'x'.repeat(20_000)}"\nshort\n`);
    expect(detectFieldType(huge.rows.map((row) => row.cells[0]!)).type).toBe('longText');
    const plan = planImport(huge, [{ kind: 'field', fieldId: 'notes' }], notes);
    expect(plan.rows[0]!.errors.map((e) => e.message)).toEqual([
      'Notes is too long: use at most 10,000 characters.',
    ]);
    expect(describeCellError(plan.rows[0]!.errors[0]!)).toMatch(
      /^Row 2: “x{40}…” — Notes is too long/,
    );
    expect(plan.rows[1]!.values).toEqual({ notes: 'short' });
  });

  it('reads a choice that holds a comma as that choice, among others', () => {
    const spice = [
      fieldSchema.parse({
        id: 'spice',
        name: 'Spice',
        type: 'multiChoice',
        options: ['Salt', 'Salt, pepper', 'Chili'],
      }),
    ];
    const cells = table('Spice\n"Salt, pepper, Chili"\n"salt; chili"\n');
    const plan = planImport(cells, [{ kind: 'field', fieldId: 'spice' }], spice);
    expect(plan.rows.map((row) => row.values.spice)).toEqual([
      ['Salt, pepper', 'Chili'],
      ['Salt', 'Chili'],
    ]);
  });

  it('reads a cell protected against formula injection as its text', () => {
    const plan = planImport(
      table("Name\n'=SUM(A1)\n"),
      [{ kind: 'field', fieldId: 'name' }],
      products.fields,
    );
    expect(plan.rows[0]!.values.name).toBe('=SUM(A1)');
  });
});

describe('protectCell', () => {
  it('prefixes text a spreadsheet would run, and is undone by unprotectCell', () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "'=x", "''+y"]) {
      expect(protectCell(text)).toBe(`'${text}`);
      expect(unprotectCell(protectCell(text))).toBe(text);
    }
    for (const text of ['plain', "'quoted", '1+1', '']) {
      expect(protectCell(text)).toBe(text);
      expect(unprotectCell(text)).toBe(text);
    }
  });

  it('is applied to exported text cells and headers, never to numbers Pipit wrote', () => {
    const csv = recordsToCsv(
      [
        { id: 'a', name: '=Name', type: 'text' },
        { id: 'b', name: 'N', type: 'number' },
      ],
      [{ values: { a: '=HYPERLINK("x")', b: -5 } }],
      ENV,
    );
    expect(csv).toBe('\uFEFF\'=Name,N\r\n"\'=HYPERLINK(""x"")",-5\r\n');
  });
});

describe('recordsToCsv', () => {
  it('writes formula fields as their worked-out values', () => {
    const csv = recordsToCsv(
      products.fields,
      [{ values: { name: 'Tea', price: 3, inStock: true } }],
      ENV,
    );
    expect(csv).toBe('\uFEFFName,Price,In stock,Total\r\nTea,3,yes,6\r\n');
  });
});

describe('importRecords', () => {
  function app() {
    const doc = newDoc();
    const ids = idFactory();
    const collectionId = addCollection(doc, ids, 'Products');
    addField(doc, ids, collectionId, { name: 'Name', type: 'text', required: true });
    return { doc, ids, collectionId };
  }

  it('adds the new fields and every record in one transaction', () => {
    const { doc, ids, collectionId } = app();
    const name = readDefinition(doc).collections[0]!.fields[0]!.id;
    let transactions = 0;
    doc.on('afterTransaction', () => (transactions += 1));
    const result = importRecords(doc, ids, collectionId, {
      fields: [{ key: 'new:1', name: 'Price', type: 'number', options: [] }],
      records: [
        { [name]: 'Tea', 'new:1': 3 },
        { [name]: 'Cake', 'new:1': 4 },
      ],
    });
    expect(transactions).toBe(1);
    const collection = readDefinition(doc).collections[0]!;
    expect(collection.fields.map((f) => [f.name, f.type])).toEqual([
      ['Name', 'text'],
      ['Price', 'number'],
    ]);
    const price = result.fieldIds['new:1']!;
    expect(collection.records.map((r) => r.values)).toEqual([
      { [name]: 'Tea', [price]: 3 },
      { [name]: 'Cake', [price]: 4 },
    ]);
  });

  it('changes nothing when one value is wrong or the records would pass the limit', () => {
    const { doc, ids, collectionId } = app();
    const name = readDefinition(doc).collections[0]!.fields[0]!.id;
    const before = Y.encodeStateAsUpdate(doc);
    expect(() =>
      importRecords(doc, ids, collectionId, {
        fields: [{ key: 'new:1', name: 'Price', type: 'number', options: [] }],
        records: [
          { [name]: 'Tea', 'new:1': 3 },
          { [name]: '', 'new:1': 4 },
        ],
      }),
    ).toThrow(new DefinitionError('Record 2 of the import: Fill in Name.'));
    for (let i = 0; i < 3; i += 1) addRecord(doc, ids, collectionId, { [name]: `r${i}` });
    const full = Array.from({ length: LIMITS.creatorRecords - 2 }, () => ({ [name]: 'x' }));
    expect(() => importRecords(doc, ids, collectionId, { fields: [], records: full })).toThrow(
      /at most 2000 creator records; it has 3, so at most 1997 more/,
    );
    expect(readDefinition(doc).collections[0]!.records).toHaveLength(3);
    expect(readDefinition(doc).collections[0]!.fields).toHaveLength(1);
    expect(before.byteLength).toBeGreaterThan(0);
  });

  it('never makes a formula field, nor one named like an existing field', () => {
    const { doc, ids, collectionId } = app();
    expect(() =>
      importRecords(doc, ids, collectionId, {
        fields: [{ key: 'k', name: 'T', type: 'formula', options: [] }],
        records: [{}],
      }),
    ).toThrow(/can’t be a field an import fills in/);
    expect(() =>
      importRecords(doc, ids, collectionId, {
        fields: [{ key: 'k', name: 'name', type: 'text', options: [] }],
        records: [{}],
      }),
    ).toThrow(/already a field named name/);
  });
});

describe('createVisitorRecords', () => {
  it('keeps every record in the file’s order, or none', () => {
    const doc = newDoc();
    const ids = createVisitorRecords(
      doc,
      products,
      [{ name: 'Tea', price: '3' }, { name: 'Jam' }],
      {
        now: 1_000,
      },
    );
    expect(readVisitorData(doc).records.map((r) => [r.id, r.values])).toEqual([
      [ids[0], { name: 'Tea', price: 3, inStock: false }],
      [ids[1], { name: 'Jam', price: null, inStock: false }],
    ]);
    expect(() => createVisitorRecords(doc, products, [{ name: 'A' }, { price: 'x' }])).toThrow(
      'Item 2 of the import: Fill in Name.',
    );
    expect(() =>
      createVisitorRecords(doc, products, [{ name: 'A' }], { limit: 2, limitMessage: 'Full.' }),
    ).toThrow('Full.');
    expect(readVisitorData(doc).records).toHaveLength(2);
  });
});
