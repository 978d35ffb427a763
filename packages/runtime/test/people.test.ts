import {
  appMetaSchema,
  fieldSchema,
  type PersonChoice,
  type ReadDefinition,
  SCHEMA_VERSION,
  themeSchema,
} from '@pipit/app-definition';
import { createElement, useSyncExternalStore } from 'react';
import { describe, expect, it } from 'vitest';
import { AppRuntime, createMemoryDataStore, indexRecords } from '../src/index';
import { fieldText } from '../src/records';
import { matchesSearch, narrowRecords, quickFilterOf } from '../src/list-query';
import { component } from './support/fixture';
import { createRoot, findAll, type HostNode, type TestRoot, textOf } from './support/render-static';

const ANA = 'anaaaaaaaaaaaaaaaaaaaaaaaa';
const BEN = 'benbbbbbbbbbbbbbbbbbbbbbbb';
const CLEO = 'cleocccccccccccccccccccccc';
const GONE = 'goneggggggggggggggggggggggg';
const SPACE: PersonChoice[] = [
  { id: CLEO, name: 'Cleo' },
  { id: ANA, name: 'Ana' },
  { id: BEN, name: 'Ben' },
];

const fields = [
  fieldSchema.parse({ id: 'title', name: 'Title', type: 'text', required: true }),
  fieldSchema.parse({ id: 'who', name: 'Assigned to', type: 'person' }),
];

function app(): ReadDefinition {
  return {
    schemaVersion: SCHEMA_VERSION,
    meta: appMetaSchema.parse({ title: 'Chores' }),
    theme: themeSchema.parse({}),
    screens: [
      {
        id: 'add',
        title: 'Add',
        icon: '➕',
        components: [component('form', 'form', { collectionId: 'chores', submitLabel: 'Add' })],
      },
      {
        id: 'list',
        title: 'List',
        icon: '📋',
        components: [
          component('list', 'list', {
            collectionId: 'chores',
            titleFieldId: 'title',
            subtitleFieldId: 'who',
          }),
        ],
      },
    ],
    collections: [
      {
        id: 'chores',
        name: 'Chores',
        fields,
        records: [],
        sharing: 'space',
        recordRule: 'anyone',
      },
    ],
    actions: [],
    aiActions: [],
    reminders: [],
  };
}

const record = (id: string, title: string, who: string | null) => ({
  id,
  collectionId: 'chores',
  values: { title, who },
  createdAt: 1,
  updatedAt: 1,
});

type People = { people?: PersonChoice[]; me?: string };

function Harness({
  store,
  people,
  screen,
}: {
  store: ReturnType<typeof createMemoryDataStore>;
  people: People;
  screen: string;
}) {
  const data = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return createElement(AppRuntime, {
    colorMode: 'light',
    user: { name: 'Ana' },
    definition: app(),
    data: { ...data, ...people },
    initialScreenId: screen,
  });
}

const render = (people: People, screen = 'add', records = [] as ReturnType<typeof record>[]) => {
  const store = createMemoryDataStore({ records });
  const root = createRoot(createElement(Harness, { store, people, screen }));
  return { store, root };
};

const select = (root: TestRoot) => {
  const found = findAll(root.tree, (n) => n.tag === 'select');
  expect(found).toHaveLength(1);
  return found[0] as HostNode;
};
const optionTexts = (root: TestRoot) =>
  findAll([select(root)], (n) => n.tag === 'option').map((n) => textOf([n]));

describe('a person field in a form', () => {
  it('offers nobody, then the person as “Me”, then the others by name', () => {
    const { root } = render({ people: SPACE, me: ANA });
    expect(optionTexts(root)).toEqual(['Nobody', 'Me (Ana)', 'Ben', 'Cleo']);
  });

  it('saves the chosen person’s account id', async () => {
    const { root, store } = render({ people: SPACE, me: ANA });
    const title = findAll(root.tree, (n) => n.tag === 'input')[0] as HostNode;
    const change = (node: HostNode, value: string) =>
      root.act(() =>
        (node.props.onChange as (e: object) => void)({
          currentTarget: { value },
          target: { value },
        }),
      );
    await change(title, 'Bins');
    await change(select(root), BEN);
    const form = findAll(root.tree, (n) => n.tag === 'form')[0] as HostNode;
    await root.act(() =>
      (form.props.onSubmit as (e: object) => unknown)({ preventDefault: () => undefined }),
    );
    expect(store.getSnapshot().records.map((r) => r.values)).toEqual([{ title: 'Bins', who: BEN }]);
  });

  it('in the person’s own data offers only them', () => {
    const { root } = render({ people: [{ id: ANA, name: 'Ana' }], me: ANA });
    expect(optionTexts(root)).toEqual(['Nobody', 'Me (Ana)']);
  });

  it('signed out, says where it works instead of offering nobody to pick', () => {
    const { root } = render({});
    expect(findAll(root.tree, (n) => n.tag === 'select')).toHaveLength(0);
    expect(textOf(root.tree)).toContain(
      'Sign in and share this in a space to assign it to someone.',
    );
  });
});

describe('a person field as people read it', () => {
  const records = [
    record('r1', 'Bins', BEN),
    record('r2', 'Dishes', GONE),
    record('r3', 'Mop', null),
  ];

  it('shows the name the space knows them by, and a former member once they left', () => {
    const index = indexRecords(app(), records, null, null, { people: SPACE, me: ANA });
    const who = fields[1]!;
    expect(index.of('chores').map((r) => fieldText(r, who))).toEqual([
      'Ben',
      'a former member',
      '',
    ]);
  });

  it('says “someone in the space” while the people aren’t known on this device yet', () => {
    const index = indexRecords(app(), records, null, null, { me: ANA });
    expect(fieldText(index.byId('r1')!, fields[1]!)).toBe('someone in the space');
    expect(fieldText(index.byId('r2')!, fields[1]!)).toBe('someone in the space');
  });

  it('lists each record with its person’s name', () => {
    const { root } = render({ people: SPACE, me: ANA }, 'list', records);
    const text = textOf(root.tree);
    expect(text).toContain('Ben');
    expect(text).toContain('a former member');
    expect(text).not.toContain(BEN);
  });

  it('is found by the person’s name, never by the account id', () => {
    const index = indexRecords(app(), records, null, null, { people: SPACE, me: ANA });
    const bins = index.byId('r1')!;
    expect(matchesSearch(bins, fields, 'ben')).toBe(true);
    expect(matchesSearch(bins, fields, 'bbbb')).toBe(false);
  });

  it('narrows a list to what is assigned to the person viewing', () => {
    const chores = app().collections[0]!;
    const mine = [record('a', 'Bins', ANA), record('b', 'Dishes', BEN)];
    const quick = quickFilterOf(chores, null, ANA);
    expect(quick?.field.id).toBe('who');
    expect(quick?.choices).toEqual([{ value: ANA, label: 'Me' }]);
    expect(narrowRecords(mine, fields, quick, { text: '', choice: ANA }).map((r) => r.id)).toEqual([
      'a',
    ]);
    // Alone (no `me` given), the list offers no such filter.
    expect(quickFilterOf(chores, null)).toBeNull();
  });

  it('offers the “Me” filter in a list only when others share the space', () => {
    const chips = (people: People) =>
      findAll(
        render(people, 'list', records).root.tree,
        (n) => n.tag === 'button' && n.props.className === 'rt-chip',
      ).map((n) => textOf([n]));
    expect(chips({ people: SPACE, me: ANA })).toEqual(['All', 'Me']);
    expect(chips({ people: [{ id: ANA, name: 'Ana' }], me: ANA })).toEqual([]);
  });
});
