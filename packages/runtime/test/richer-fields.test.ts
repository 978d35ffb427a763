import {
  appMetaSchema,
  fieldSchema,
  type ReadDefinition,
  SCHEMA_VERSION,
  themeSchema,
} from '@pipit/app-definition';
import { createElement, useSyncExternalStore } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  AppRuntime,
  AppScreen,
  createMemoryDataStore,
  formulaComputer,
  indexRecords,
  formatValue,
  initialFormInput,
  type MemoryDataStore,
  validateForm,
} from '../src/index';
import { component } from './support/fixture';
import { createRoot, findAll, type HostNode, type TestRoot, textOf } from './support/render-static';

const fields = [
  fieldSchema.parse({ id: 'title', name: 'Title', type: 'text', required: true }),
  fieldSchema.parse({ id: 'tags', name: 'Tags', type: 'multiChoice', options: ['Red', 'Blue'] }),
  fieldSchema.parse({ id: 'stars', name: 'Stars', type: 'rating', scale: 4 }),
  fieldSchema.parse({ id: 'price', name: 'Price', type: 'currency' }),
  fieldSchema.parse({ id: 'time', name: 'Time', type: 'duration' }),
  fieldSchema.parse({ id: 'starts', name: 'Starts', type: 'dateTime' }),
  fieldSchema.parse({ id: 'calc', name: 'Calc', type: 'formula', formula: '{Price} * 2' }),
];
const field = (id: string) => fields.find((f) => f.id === id)!;

function app(currency = 'EUR'): ReadDefinition {
  return {
    schemaVersion: SCHEMA_VERSION,
    meta: appMetaSchema.parse({ title: 'Things', currency }),
    theme: themeSchema.parse({}),
    screens: [
      {
        id: 'add',
        title: 'Add',
        icon: '➕',
        components: [component('form', 'form', { collectionId: 'things', submitLabel: 'Add' })],
      },
      {
        id: 'list',
        title: 'List',
        icon: '📋',
        components: [
          component('list', 'list', {
            collectionId: 'things',
            titleFieldId: 'title',
            subtitleFieldId: 'price',
            detailScreenId: 'detail',
          }),
        ],
      },
      {
        id: 'detail',
        title: 'Detail',
        icon: '📄',
        components: [
          component('detail', 'detail', { fieldIds: ['title', 'tags', 'stars', 'price', 'time'] }),
        ],
      },
    ],
    collections: [
      {
        id: 'things',
        name: 'Things',
        fields,
        records: [],
        sharing: 'private',
        recordRule: 'anyone',
      },
    ],
    actions: [],
    aiActions: [],
    reminders: [],
  };
}

function Harness({ store, definition }: { store: MemoryDataStore; definition: ReadDefinition }) {
  const data = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return createElement(AppRuntime, { colorMode: 'light', user: { name: 'Ana' }, definition, data });
}

const noop = { preventDefault: () => undefined };
const one = (root: TestRoot, test: (n: HostNode) => boolean, what: string) => {
  const found = findAll(root.tree, test);
  if (found.length !== 1) throw new Error(`Expected one ${what}, found ${found.length}`);
  return found[0] as HostNode;
};
const change = (root: TestRoot, node: HostNode, currentTarget: object) =>
  root.act(() =>
    (node.props.onChange as (e: object) => void)({ currentTarget, target: currentTarget }),
  );
/** The input in the label whose text starts with this (a star's: ends with it, after the star). */
const inputIn = (root: TestRoot, labelText: string) => {
  const label = one(
    root,
    (n) =>
      n.tag === 'label' &&
      (textOf([n]).startsWith(labelText) ||
        textOf([n]).endsWith(`☆${labelText}`) ||
        textOf([n]).endsWith(`★${labelText}`)),
    labelText,
  );
  return findAll([label], (n) => n.tag === 'input')[0] as HostNode;
};

describe('a form with the richer field types', () => {
  it('offers a box per choice, a radio per star, a money sign, and no control for a formula', () => {
    const store = createMemoryDataStore({ records: [] });
    const root = createRoot(createElement(Harness, { store, definition: app() }));
    const legends = findAll(root.tree, (n) => n.tag === 'legend').map((n) => textOf([n]));
    expect(legends).toEqual(['Tags', 'Stars']);
    expect(findAll(root.tree, (n) => n.tag === 'input' && n.props.type === 'radio')).toHaveLength(
      4,
    );
    expect(textOf(findAll(root.tree, (n) => n.props.className === 'rt-affix'))).toBe('€');
    expect(inputIn(root, 'Starts').props.type).toBe('datetime-local');
    expect(textOf(root.tree)).not.toContain('Calc');
  });

  it('saves what was ticked and typed as the fields store it', async () => {
    const store = createMemoryDataStore({ records: [] });
    const root = createRoot(createElement(Harness, { store, definition: app() }));
    await change(root, inputIn(root, 'Title'), { value: 'Lamp' });
    await change(root, inputIn(root, 'Blue'), { checked: true });
    await change(root, inputIn(root, 'Red'), { checked: true });
    await change(root, inputIn(root, '3 stars'), {});
    await change(root, inputIn(root, 'Price'), { value: '1,234.5' });
    await change(root, inputIn(root, 'Time'), { value: '1:30' });
    await change(root, inputIn(root, 'Starts'), { value: '2026-03-01T09:15' });
    await root.act(() =>
      (one(root, (n) => n.tag === 'form', 'form').props.onSubmit as (e: object) => unknown)(noop),
    );
    expect(store.getSnapshot().records.map((r) => r.values)).toEqual([
      {
        title: 'Lamp',
        tags: ['Red', 'Blue'],
        stars: 3,
        price: 1234.5,
        time: 5400,
        starts: new Date(2026, 2, 1, 9, 15).toISOString(),
      },
    ]);
  });

  it('refuses a wrong amount or time with the field’s own message, saving nothing', async () => {
    const store = createMemoryDataStore({ records: [] });
    const root = createRoot(createElement(Harness, { store, definition: app() }));
    await change(root, inputIn(root, 'Title'), { value: 'Lamp' });
    await change(root, inputIn(root, 'Price'), { value: 'a lot' });
    await change(root, inputIn(root, 'Time'), { value: 'soon' });
    await root.act(() =>
      (one(root, (n) => n.tag === 'form', 'form').props.onSubmit as (e: object) => unknown)(noop),
    );
    const errors = findAll(root.tree, (n) => n.props.className === 'rt-field-error').map((n) =>
      textOf([n]),
    );
    expect(errors).toEqual([
      '⚠️ Price must be an amount, like 12.50.',
      '⚠️ Enter Time as a time like 1:30 or 45 min.',
    ]);
    expect(store.getSnapshot().records).toEqual([]);
  });
});

describe('values of the richer types, as people read them', () => {
  it('formats money in the app’s currency, durations in words, ratings as stars and lists joined', () => {
    expect(formatValue(12.5, field('price'), 'EUR')).toMatch(/12[.,]50/);
    expect(formatValue(12.5, field('price'), 'EUR')).toContain('€');
    expect(formatValue(12.5, field('price'), 'JPY')).toContain('¥');
    expect(formatValue(5400, field('time'))).toBe('1 h 30 min');
    expect(formatValue(2710, field('time'))).toBe('45 min 10 s');
    expect(formatValue(0, field('time'))).toBe('0 s');
    expect(formatValue(3, field('stars'))).toBe('★★★☆');
    expect(formatValue(['Red', 'Blue'], field('tags'))).toBe('Red, Blue');
    expect(formatValue([], field('tags'))).toBe('');
    expect(formatValue('2026-03-01T09:15:00.000Z', field('starts'))).toContain('2026');
  });

  it('round-trips through a form: the controls start from the stored values', () => {
    const stored = {
      title: 'Lamp',
      tags: ['Red'],
      stars: 2,
      price: 3,
      time: 5400,
      starts: '2026-03-01T09:15:00.000Z',
    };
    const input = initialFormInput(fields, stored);
    expect(input).toMatchObject({ tags: ['Red'], stars: '2', price: '3', time: '1:30' });
    expect(validateForm(fields, input)).toEqual({ values: stored, errors: {} });
  });
});

describe('formula fields in the running app and the preview', () => {
  const env = { today: '2026-03-10', now: Date.UTC(2026, 2, 10, 12), timeZone: 'Europe/Paris' };
  const withFormulas = (formula: string): ReadDefinition => {
    const definition = app();
    const things = definition.collections[0]!;
    const fieldsHere = things.fields.map((f) => (f.id === 'calc' ? { ...f, formula } : f));
    return { ...definition, collections: [{ ...things, fields: fieldsHere }] };
  };
  const visitor = (id: string, price: number | null) => ({
    id,
    collectionId: 'things',
    values: { title: id, price },
    createdAt: 1,
    updatedAt: 1,
  });

  it('works out each record’s formulas once, where every component reads them', async () => {
    const engine = await import('@pipit/app-definition/formula');
    const definition = withFormulas('100 / {Price}');
    const index = indexRecords(
      definition,
      [visitor('a', 4), visitor('b', 0), visitor('c', null)],
      formulaComputer(engine, definition, env),
    );
    const [a, b, c] = index.of('things');
    expect(a?.values.calc).toBe(25);
    expect(a?.formulaErrors).toBeUndefined();
    expect(b?.values.calc).toBeUndefined();
    expect(b?.formulaErrors).toEqual({ calc: 'Divided by zero.' });
    // An empty price makes the division empty, not an error.
    expect(c?.values.calc ?? null).toBeNull();
    expect(index.byId('a')?.values.calc).toBe(25);
  });

  it('says why a formula can’t be worked out at all, for every record', async () => {
    const engine = await import('@pipit/app-definition/formula');
    const definition = withFormulas('{Prise} * 2');
    const [a] = indexRecords(
      definition,
      [visitor('a', 4)],
      formulaComputer(engine, definition, env),
    ).of('things');
    expect(a?.formulaErrors?.calc).toContain('{Prise}');
  });

  it('shows the preview’s creator records with their formulas, once the engine has loaded', async () => {
    const base = withFormulas('{Price} * 2');
    const things = base.collections[0]!;
    const definition: ReadDefinition = {
      ...base,
      collections: [{ ...things, records: [{ id: 'r1', values: { title: 'Lamp', price: 21 } }] }],
      screens: base.screens.map((s) =>
        s.id === 'detail'
          ? { ...s, components: [component('detail', 'detail', { fieldIds: ['title', 'calc'] })] }
          : s,
      ),
    };
    const root = createRoot(
      createElement(AppScreen, { definition, screenId: 'detail', colorMode: 'light' }),
    );
    // The engine is its own chunk: the value appears once it has loaded.
    await vi.waitFor(
      async () => {
        await root.act(() => undefined);
        expect(textOf(root.tree)).toContain('Calc42');
      },
      { timeout: 5_000, interval: 10 },
    );
  });
});
