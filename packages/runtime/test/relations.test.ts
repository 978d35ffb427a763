import {
  appMetaSchema,
  fieldSchema,
  type ReadDefinition,
  SCHEMA_VERSION,
  themeSchema,
} from '@pipit/app-definition';
import * as engine from '@pipit/app-definition/formula';
import { createElement, useSyncExternalStore } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  AppRuntime,
  createMemoryDataStore,
  deviceFormulaEnv,
  formulaComputer,
  indexRecords,
  type MemoryDataStore,
} from '../src/index';
import * as relations from '../src/relations';
import { component } from './support/fixture';
import { createRoot, findAll, type HostNode, type TestRoot, textOf } from './support/render-static';

/** A guest list: events, and guests who each pick the events they come to. */
function app(): ReadDefinition {
  return {
    schemaVersion: SCHEMA_VERSION,
    meta: appMetaSchema.parse({ title: 'Guests', currency: 'EUR' }),
    theme: themeSchema.parse({}),
    screens: [
      {
        id: 'add',
        title: 'Add a guest',
        icon: '➕',
        components: [component('form', 'form', { collectionId: 'guests' })],
      },
      {
        id: 'events',
        title: 'Events',
        icon: '📅',
        components: [
          component('list', 'list', { collectionId: 'events', detailScreenId: 'event' }),
        ],
      },
      {
        id: 'event',
        title: 'Event',
        icon: '📄',
        components: [component('detail', 'detail', { fieldIds: ['name', 'count', 'paid'] })],
      },
      {
        id: 'guest',
        title: 'Guest',
        icon: '🙂',
        components: [component('detail', 'detail', { fieldIds: ['who', 'goes', 'plusOne'] })],
      },
    ],
    collections: [
      {
        id: 'events',
        name: 'Events',
        fields: [
          fieldSchema.parse({ id: 'name', name: 'Name', type: 'text' }),
          fieldSchema.parse({ id: 'day', name: 'Day', type: 'date' }),
          fieldSchema.parse({
            id: 'count',
            name: 'Guests',
            type: 'rollup',
            through: 'goes',
            throughCollection: 'guests',
            aggregate: 'count',
          }),
          fieldSchema.parse({
            id: 'paid',
            name: 'Paid',
            type: 'rollup',
            through: 'goes',
            throughCollection: 'guests',
            aggregate: 'sum',
            aggregateFieldId: 'fee',
          }),
          fieldSchema.parse({
            id: 'full',
            name: 'Full',
            type: 'formula',
            formula: '{Guests} >= 2',
          }),
        ],
        records: [
          { id: 'e1', values: { name: 'Picnic', day: '2026-06-01' } },
          { id: 'e2', values: { name: 'Dinner', day: '2026-06-03' } },
        ],
        sharing: 'private',
        recordRule: 'anyone',
      },
      {
        id: 'guests',
        name: 'Guests',
        fields: [
          fieldSchema.parse({ id: 'who', name: 'Who', type: 'text', required: true }),
          fieldSchema.parse({
            id: 'goes',
            name: 'Goes to',
            type: 'relation',
            target: 'events',
            many: true,
          }),
          fieldSchema.parse({ id: 'fee', name: 'Fee', type: 'currency' }),
          fieldSchema.parse({
            id: 'plusOne',
            name: 'Latest event',
            type: 'rollup',
            through: 'goes',
            aggregate: 'latest',
            aggregateFieldId: 'day',
          }),
        ],
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

const visitor = (id: string, values: Record<string, unknown>, createdAt = 1) => ({
  id,
  collectionId: 'guests',
  values: values as never,
  createdAt,
  updatedAt: createdAt,
});

describe('relations and rollups in the running app', () => {
  const definition = app();
  const compute = formulaComputer(engine, definition, deviceFormulaEnv(Date.UTC(2026, 0, 1)));

  it('counts and sums the records linking each event, and formulas read the rollups', () => {
    const index = indexRecords(
      definition,
      [
        visitor('g1', { who: 'Ana', goes: ['e1', 'e2'], fee: 10.5 }),
        visitor('g2', { who: 'Ben', goes: ['e1'], fee: 4.25 }),
        visitor('g3', { who: 'Cy', goes: [], fee: 99 }),
      ],
      compute,
      relations,
    );
    const picnic = index.byId('e1')!;
    const dinner = index.byId('e2')!;
    expect(picnic.values).toMatchObject({ count: 2, paid: 14.75, full: true });
    expect(dinner.values).toMatchObject({ count: 1, paid: 10.5, full: false });
    // The guest's forward relation reads as the events' names; its rollup takes the latest day.
    const ana = index.byId('g1')!;
    expect(ana.shown?.goes).toBe('Picnic, Dinner');
    expect(ana.values.plusOne).toBe('2026-06-03');
  });

  it('leaves out links to records that no longer exist: shown, counted and summed as absent', () => {
    const index = indexRecords(
      definition,
      [visitor('g1', { who: 'Ana', goes: ['gone', 'e2', 'g2'], fee: 3 })],
      compute,
      relations,
    );
    const ana = index.byId('g1')!;
    // 'g2' is a record, but not an event: a link into another collection is no link either.
    expect(ana.values.goes).toEqual(['e2']);
    expect(ana.shown?.goes).toBe('Dinner');
    expect(index.byId('e2')!.values).toMatchObject({ count: 1, paid: 3 });
    expect(index.byId('e1')!.values).toMatchObject({ count: 0, paid: 0 });
    expect(index.byId('e1')!.formulaErrors).toBeUndefined();
  });

  it('says why a rollup can’t be worked out, and a formula using it says so too', () => {
    const broken = app();
    broken.collections[0]!.fields[2] = fieldSchema.parse({
      id: 'count',
      name: 'Guests',
      type: 'rollup',
      through: 'deleted-relation',
      throughCollection: 'guests',
    });
    const index = indexRecords(
      broken,
      [],
      formulaComputer(engine, broken, deviceFormulaEnv(Date.UTC(2026, 0, 1))),
      relations,
    );
    const picnic = index.byId('e1')!;
    expect(picnic.formulaErrors?.count).toBe('Choose the relation Guests works out over.');
    expect(picnic.formulaErrors?.full).toMatch(/Guests.*fix its settings first/);
  });
});

function Harness({ store, definition }: { store: MemoryDataStore; definition: ReadDefinition }) {
  const data = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return createElement(AppRuntime, { colorMode: 'light', user: null, definition, data });
}

const change = (root: TestRoot, node: HostNode, currentTarget: object) =>
  root.act(() =>
    (node.props.onChange as (e: object) => void)({ currentTarget, target: currentTarget }),
  );
const inputLabelled = (root: TestRoot, text: string) => {
  const labels = findAll(root.tree, (n) => n.tag === 'label' && textOf([n]) === text);
  if (labels.length !== 1) throw new Error(`Expected one label ${text}, found ${labels.length}`);
  return findAll(labels, (n) => n.tag === 'input')[0] as HostNode;
};

describe('a form with a relation', () => {
  it('lists the linked collection’s records by name and saves the ticked ones’ ids', async () => {
    const store = createMemoryDataStore({ records: [] });
    const root = createRoot(createElement(Harness, { store, definition: app() }));
    // Relations come in their own chunk: the picker shows once it is here.
    await vi.waitFor(async () => {
      await root.act(() => undefined);
      expect(textOf(root.tree)).toContain('Picnic');
    });
    const legends = findAll(root.tree, (n) => n.tag === 'legend').map((n) => textOf([n]));
    expect(legends).toContain('Goes to');
    await change(root, inputLabelled(root, 'Who (required)'), { value: 'Ana' });
    await change(root, inputLabelled(root, 'Dinner'), { checked: true });
    await change(root, inputLabelled(root, 'Picnic'), { checked: true });
    const form = findAll(root.tree, (n) => n.tag === 'form')[0] as HostNode;
    await root.act(() =>
      (form.props.onSubmit as (e: object) => unknown)({ preventDefault: () => undefined }),
    );
    expect(store.getSnapshot().records.map((r) => r.values)).toEqual([
      { who: 'Ana', goes: ['e2', 'e1'], fee: null },
    ]);
  });

  it('says there is nothing to link when the collection is empty', async () => {
    const definition = app();
    definition.collections[0]!.records = [];
    const store = createMemoryDataStore({ records: [] });
    const root = createRoot(createElement(Harness, { store, definition }));
    await vi.waitFor(async () => {
      await root.act(() => undefined);
      expect(textOf(root.tree)).toContain('No Events to link yet.');
    });
  });
});

describe('a detail with linked records', () => {
  it('shows a record’s links both ways: the records linking it, each opening where lists do', async () => {
    const store = createMemoryDataStore({
      records: [
        visitor('g1', { who: 'Ana', goes: ['e1'], fee: 2 }),
        visitor('g2', { who: 'Ben', goes: ['e1', 'e2'], fee: 3 }),
      ],
    });
    const root = createRoot(
      createElement(AppRuntime, {
        colorMode: 'light',
        user: null,
        definition: app(),
        data: store.getSnapshot(),
        initialScreenId: 'events',
      }),
    );
    const picnic = findAll(
      root.tree,
      (n) => typeof n.props.onClick === 'function' && textOf([n]).includes('Picnic'),
    )[0] as HostNode;
    await root.act(() => (picnic.props.onClick as () => void)());
    await vi.waitFor(async () => {
      await root.act(() => undefined);
      const rows = findAll(root.tree, (n) => n.props.className === 'rt-detail-row').map((n) =>
        textOf([n]),
      );
      expect(rows).toEqual(['NamePicnic', 'Guests2', 'Paid€5.00', 'GuestsAnaBen']);
    });
  });
});
