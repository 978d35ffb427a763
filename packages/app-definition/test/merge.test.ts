import { describe, expect, it } from 'vitest';
import {
  type AppDefinition,
  appDefinitionSchema,
  chooseTheirs,
  type Component,
  DefinitionError,
  LIMITS,
  type MergeConflict,
  mergeDefinitions,
  type PlacedEntity,
  type ReadDefinition,
} from '../src/index';

type Draft = Record<string, unknown>;

/** A valid definition from the parts a test cares about; the schema fills in the rest. */
function app(parts: Draft = {}): AppDefinition {
  return appDefinitionSchema.parse({
    schemaVersion: 1,
    meta: { title: 'Shop', description: 'A shop' },
    theme: {},
    screens: [
      {
        id: 'home',
        title: 'Home',
        components: [
          { id: 'welcome', type: 'heading', props: { text: 'Welcome' } },
          { id: 'intro', type: 'text', props: { markdown: 'Hello' } },
          { id: 'list', type: 'list', props: { collectionId: 'books', titleFieldId: 'title' } },
          { id: 'buy', type: 'button', props: { label: 'Buy', actionId: 'save' } },
        ],
      },
      { id: 'about', title: 'About', components: [{ id: 'line', type: 'divider', props: {} }] },
      { id: 'help', title: 'Help', components: [] },
    ],
    collections: [
      {
        id: 'books',
        name: 'Books',
        fields: [
          { id: 'title', name: 'Title', type: 'text' },
          { id: 'pages', name: 'Pages', type: 'number' },
        ],
        records: [{ id: 'r1', values: { title: 'Dune', pages: 412 } }],
      },
      {
        id: 'notes',
        name: 'Notes',
        fields: [{ id: 'note', name: 'Note', type: 'text' }],
        records: [],
      },
    ],
    actions: [{ id: 'save', name: 'Save', steps: [{ id: 'toast', type: 'toast', props: {} }] }],
    aiActions: [{ id: 'suggest', name: 'Suggest' }],
    ...parts,
  });
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function edit(definition: AppDefinition, change: (draft: AppDefinition) => void): AppDefinition {
  const draft = clone(definition);
  change(draft);
  return appDefinitionSchema.parse(draft);
}

const screen = (d: AppDefinition, id: string) => d.screens.find((s) => s.id === id)!;
const component = (d: AppDefinition, id: string) =>
  d.screens.flatMap((s) => s.components).find((c) => c.id === id);
const propsOf = (d: AppDefinition, id: string) =>
  component(d, id)!.props as unknown as Record<string, unknown>;
const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);
const heading = (id: string, text: string) =>
  ({ id, type: 'heading', props: { text, level: 2 } }) as Component;

/** Merges and checks what every merge must give: a valid definition. */
function merge(base: AppDefinition, theirs: AppDefinition, ours: AppDefinition | ReadDefinition) {
  const result = mergeDefinitions(base, theirs, ours);
  expect(appDefinitionSchema.safeParse(result.definition).success).toBe(true);
  return result;
}

const brief = (conflicts: MergeConflict[]) =>
  conflicts.map((c) => `${c.entity} ${c.id} ${c.property}`);

describe('mergeDefinitions: properties', () => {
  it('takes a change made on one side only, from either side', () => {
    const base = app();
    const theirs = edit(base, (d) => (screen(d, 'home').title = 'Start'));
    const ours = edit(base, (d) => (d.meta.description = 'Our shop'));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(screen(definition, 'home').title).toBe('Start');
    expect(definition.meta.description).toBe('Our shop');
    expect(conflicts).toEqual([]);
  });

  it('takes a change both made to the same value without a conflict', () => {
    const base = app();
    const both = (d: AppDefinition) => (screen(d, 'home').title = 'Start');
    const { definition, conflicts } = merge(base, edit(base, both), edit(base, both));
    expect(screen(definition, 'home').title).toBe('Start');
    expect(conflicts).toEqual([]);
  });

  it('keeps the remix’s value where both changed a property differently, as a conflict', () => {
    const base = app();
    const theirs = edit(base, (d) => (propsOf(d, 'welcome').text = 'Hello world'));
    const ours = edit(base, (d) => (propsOf(d, 'welcome').text = 'Hi all'));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(propsOf(definition, 'welcome').text).toBe('Hi all');
    expect(conflicts).toEqual([
      {
        entity: 'component',
        id: 'welcome',
        name: 'Heading “Hi all”',
        where: 'Home',
        property: 'props.text',
        label: 'text',
        ours: 'Hi all',
        theirs: 'Hello world',
      },
    ]);
  });

  it('merges each prop, each record value, each meta and theme key, each field property alone', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      propsOf(d, 'welcome').level = 1;
      d.collections[0]!.records[0]!.values.pages = 500;
      d.meta.title = 'Book shop';
      d.theme.custom = { accent: '#aa0000' };
      d.collections[0]!.fields[0]!.required = true;
    });
    const ours = edit(base, (d) => {
      propsOf(d, 'welcome').text = 'Hi';
      d.collections[0]!.records[0]!.values.title = 'Dune II';
      d.meta.description = 'Books';
      d.theme.custom = { primary: '#00aa00' };
      d.theme.mode = 'dark';
      d.collections[0]!.fields[0]!.name = 'Name';
    });
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(propsOf(definition, 'welcome')).toMatchObject({ text: 'Hi', level: 1 });
    expect(definition.collections[0]!.records[0]!.values).toEqual({ title: 'Dune II', pages: 500 });
    expect(definition.meta).toMatchObject({ title: 'Book shop', description: 'Books' });
    expect(definition.theme).toMatchObject({
      mode: 'dark',
      custom: { primary: '#00aa00', accent: '#aa0000' },
    });
    expect(definition.collections[0]!.fields[0]).toMatchObject({ name: 'Name', required: true });
    expect(conflicts).toEqual([]);
  });

  it('names conflicts on theme tokens, record values and meta in words', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      d.theme.custom = { primary: '#111111' };
      d.collections[0]!.records[0]!.values.pages = 1;
      d.meta.title = 'Theirs';
    });
    const ours = edit(base, (d) => {
      d.theme.custom = { primary: '#222222' };
      d.collections[0]!.records[0]!.values.pages = 2;
      d.meta.title = 'Ours';
    });
    const { conflicts } = merge(base, theirs, ours);
    expect(conflicts.map((c) => [c.entity, c.property, c.label, c.name, c.where])).toEqual([
      ['app', 'title', 'title', 'Ours', null],
      ['theme', 'primary', 'primary colour', 'Theme', null],
      ['record', 'values.pages', 'Pages', '“Dune”', 'Books'],
    ]);
  });
});

describe('mergeDefinitions: entities', () => {
  it('keeps what either side added', () => {
    const base = app();
    const theirs = edit(base, (d) => screen(d, 'help').components.push(heading('faq', 'FAQ')));
    const ours = edit(base, (d) =>
      d.collections.push({
        id: 'loans',
        name: 'Loans',
        fields: [],
        records: [],
        sharing: 'private',
        recordRule: 'anyone',
      }),
    );
    const { definition } = merge(base, theirs, ours);
    expect(ids(screen(definition, 'help').components)).toEqual(['faq']);
    expect(ids(definition.collections)).toEqual(['books', 'notes', 'loans']);
  });

  it('deletes what one side deleted and the other left alone, from either side', () => {
    const base = app();
    const theirs = edit(base, (d) => d.screens.splice(2, 1));
    const ours = edit(base, (d) => (d.aiActions = []));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(definition.screens)).toEqual(['home', 'about']);
    expect(definition.aiActions).toEqual([]);
    expect(conflicts).toEqual([]);
  });

  it('keeps what the original deleted but the remix edited, as a conflict', () => {
    const base = app();
    const theirs = edit(base, (d) => screen(d, 'home').components.splice(0, 1));
    const ours = edit(base, (d) => (propsOf(d, 'welcome').text = 'Ours'));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(propsOf(definition, 'welcome').text).toBe('Ours');
    expect(conflicts).toMatchObject([
      { entity: 'component', id: 'welcome', property: 'exists', theirs: undefined },
    ]);
    expect((conflicts[0]!.ours as PlacedEntity).value).toMatchObject({ id: 'welcome' });
  });

  it('leaves deleted what the remix deleted but the original edited, as a conflict', () => {
    const base = app();
    const theirs = edit(base, (d) => (propsOf(d, 'welcome').text = 'Theirs'));
    const ours = edit(base, (d) => screen(d, 'home').components.splice(0, 1));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(component(definition, 'welcome')).toBeUndefined();
    expect(conflicts).toEqual([
      {
        entity: 'component',
        id: 'welcome',
        name: 'Heading “Theirs”',
        where: 'Home',
        property: 'exists',
        label: 'deleted or kept',
        ours: undefined,
        theirs: {
          value: { id: 'welcome', type: 'heading', props: { text: 'Theirs', level: 2 } },
          parentId: 'home',
          afterId: null,
          parent: expect.objectContaining({ value: expect.objectContaining({ id: 'home' }) }),
        },
      },
    ]);
  });

  it('drops what the original added to a screen the remix deleted, as a conflict', () => {
    const base = app();
    const theirs = edit(base, (d) => screen(d, 'help').components.push(heading('faq', 'FAQ')));
    const ours = edit(base, (d) => d.screens.splice(2, 1));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(definition.screens)).toEqual(['home', 'about']);
    expect(component(definition, 'faq')).toBeUndefined();
    expect(brief(conflicts)).toEqual(['screen help exists', 'component faq exists']);
  });

  it('keeps a screen the original deleted when the remix added to it, with all it holds', () => {
    const base = app();
    const theirs = edit(base, (d) => d.screens.splice(1, 1));
    const ours = edit(base, (d) => screen(d, 'about').components.push(heading('team', 'Team')));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(screen(definition, 'about').components)).toEqual(['line', 'team']);
    expect(brief(conflicts)).toEqual(['screen about exists']);
  });

  it('keeps a collection the original deleted when the remix newly points at it', () => {
    const base = app();
    const theirs = edit(base, (d) => d.collections.splice(1, 1));
    const ours = edit(base, (d) => {
      propsOf(d, 'list').collectionId = 'notes';
      propsOf(d, 'list').titleFieldId = 'note';
    });
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(definition.collections)).toEqual(['books', 'notes']);
    expect(propsOf(definition, 'list')).toMatchObject({
      collectionId: 'notes',
      titleFieldId: 'note',
    });
    expect(brief(conflicts)).toEqual(['collection notes exists']);
  });

  it('repairs a reference of the original’s into something the remix deleted', () => {
    const base = app();
    const theirs = edit(base, (d) =>
      screen(d, 'help').components.push({
        id: 'go',
        type: 'button',
        props: { label: 'Go', actionId: 'save', style: 'primary' },
      }),
    );
    const ours = edit(base, (d) => {
      d.actions = [];
      propsOf(d, 'buy').actionId = null;
    });
    const { definition } = merge(base, theirs, ours);
    expect(definition.actions).toEqual([]);
    expect(propsOf(definition, 'go').actionId).toBeNull();
  });

  it('keeps the remix’s first screen when the two sides deleted every screen between them', () => {
    const base = app({
      screens: [
        { id: 'a', title: 'A', components: [] },
        { id: 'b', title: 'B', components: [heading('h', 'H')] },
      ],
    });
    const theirs = edit(base, (d) => d.screens.splice(1, 1));
    const ours = edit(base, (d) => d.screens.splice(0, 1));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(definition.screens)).toEqual(['b']);
    expect(ids(definition.screens[0]!.components)).toEqual(['h']);
    expect(brief(conflicts)).toEqual(['screen b exists']);
  });

  it('leaves the remix’s invalid components out of the result', () => {
    const base = app();
    const ours = clone(base) as ReadDefinition;
    ours.screens[2]!.components.push({
      id: 'holo',
      type: 'invalid',
      originalType: 'hologram',
      problem: 'This kind of component is not known.',
    });
    const { definition, conflicts } = merge(base, base, ours);
    expect(definition).toEqual(base);
    expect(conflicts).toEqual([]);
  });
});

describe('mergeDefinitions: moves and order', () => {
  it('keeps the remix’s order and takes a reorder only the original made', () => {
    const base = app();
    const theirs = edit(base, (d) => screen(d, 'home').components.reverse());
    const ours = edit(base, (d) => d.screens.reverse());
    const { definition, conflicts, incoming } = merge(base, theirs, ours);
    expect(ids(definition.screens)).toEqual(['help', 'about', 'home']);
    expect(ids(screen(definition, 'home').components)).toEqual(['buy', 'list', 'intro', 'welcome']);
    expect(conflicts).toEqual([]);
    expect(incoming.counts.components).toBe(3);
  });

  it('puts the original’s new items after their nearest preceding sibling, else first', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      const home = screen(d, 'home').components;
      home.splice(2, 0, heading('n1', 'N1'), heading('n2', 'N2'));
      home.unshift(heading('n0', 'N0'));
    });
    const ours = edit(base, (d) => {
      const home = screen(d, 'home').components;
      home.splice(1, 1); // intro, which n1 followed
      home.push(home.shift()!); // welcome to the end
    });
    const { definition } = merge(base, theirs, ours);
    expect(ids(screen(definition, 'home').components)).toEqual([
      'n0',
      'list',
      'buy',
      'welcome',
      'n1',
      'n2',
    ]);
  });

  it('keeps the remix’s place where both moved the same item, as an order conflict', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      const home = screen(d, 'home').components;
      home.push(home.shift()!);
    });
    const ours = edit(base, (d) => {
      const home = screen(d, 'home').components;
      home.splice(2, 0, home.shift()!);
    });
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(screen(definition, 'home').components)).toEqual(['intro', 'list', 'welcome', 'buy']);
    expect(conflicts).toMatchObject([
      { id: 'welcome', property: 'order', label: 'position', ours: 'list', theirs: 'buy' },
    ]);
  });

  it('moves a component to the screen the original moved it to', () => {
    const base = app();
    const theirs = edit(base, (d) =>
      screen(d, 'help').components.push(screen(d, 'home').components.shift()!),
    );
    const { definition, incoming } = merge(base, theirs, base);
    expect(ids(screen(definition, 'help').components)).toEqual(['welcome']);
    expect(incoming.changes).toMatchObject([{ id: 'welcome', change: 'moved', where: 'Help' }]);
  });

  it('keeps the remix’s screen for a component both moved elsewhere, as a conflict', () => {
    const base = app();
    const theirs = edit(base, (d) =>
      screen(d, 'help').components.push(screen(d, 'home').components.shift()!),
    );
    const ours = edit(base, (d) =>
      screen(d, 'about').components.push(screen(d, 'home').components.shift()!),
    );
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(screen(definition, 'about').components)).toEqual(['line', 'welcome']);
    expect(conflicts).toMatchObject([
      { id: 'welcome', property: 'screenId', label: 'screen', ours: 'about', theirs: 'help' },
    ]);
  });

  it('leaves a component where the remix has it when the original moved it to a deleted screen', () => {
    const base = app();
    const theirs = edit(base, (d) =>
      screen(d, 'help').components.push(screen(d, 'home').components.shift()!),
    );
    const ours = edit(base, (d) => d.screens.splice(2, 1));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(screen(definition, 'home').components)[0]).toBe('welcome');
    expect(brief(conflicts)).toEqual(['screen help exists', 'component welcome screenId']);
  });
});

describe('mergeDefinitions: limits', () => {
  it('drops the original’s additions past a screen’s component limit, each as a conflict', () => {
    const full = Array.from({ length: LIMITS.componentsPerScreen - 2 }, (_, i) =>
      heading(`c${i}`, `C${i}`),
    );
    const base = app({ screens: [{ id: 'home', title: 'Home', components: full }] });
    const theirs = edit(base, (d) =>
      d.screens[0]!.components.push(heading('t1', 'T1'), heading('t2', 'T2')),
    );
    const ours = edit(base, (d) => d.screens[0]!.components.push(heading('o1', 'O1')));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(definition.screens[0]!.components).toHaveLength(LIMITS.componentsPerScreen);
    expect(ids(definition.screens[0]!.components).slice(-2)).toEqual(['t1', 'o1']);
    expect(brief(conflicts)).toEqual(['component t2 exists']);
    expect(() => chooseTheirs(definition, conflicts[0]!)).toThrow(DefinitionError);
  });

  it('leaves a component where the remix has it when the original’s move would pass a limit', () => {
    const full = Array.from({ length: LIMITS.componentsPerScreen - 1 }, (_, i) =>
      heading(`c${i}`, `C${i}`),
    );
    const base = app({
      screens: [
        { id: 'full', title: 'Full', components: full },
        { id: 'home', title: 'Home', components: [heading('mover', 'Mover')] },
      ],
    });
    const theirs = edit(base, (d) =>
      d.screens[0]!.components.push(d.screens[1]!.components.pop()!),
    );
    const ours = edit(base, (d) => d.screens[0]!.components.push(heading('o1', 'O1')));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(ids(screen(definition, 'home').components)).toEqual(['mover']);
    expect(screen(definition, 'full').components).toHaveLength(LIMITS.componentsPerScreen);
    expect(conflicts).toMatchObject([
      { id: 'mover', property: 'screenId', ours: 'home', theirs: 'full' },
    ]);
  });

  it('drops the original’s screens past the screen limit, with what they hold', () => {
    const base = app({
      screens: Array.from({ length: LIMITS.screens - 1 }, (_, i) => ({
        id: `s${i}`,
        title: `S${i}`,
        components: [],
      })),
    });
    const theirs = edit(base, (d) =>
      d.screens.push({ id: 'ts', title: 'T', icon: '📄', components: [heading('th', 'TH')] }),
    );
    const ours = edit(base, (d) =>
      d.screens.push({ id: 'os', title: 'O', icon: '📄', components: [] }),
    );
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(definition.screens).toHaveLength(LIMITS.screens);
    expect(component(definition, 'th')).toBeUndefined();
    expect(brief(conflicts)).toEqual(['screen ts exists']);
  });
});

describe('mergeDefinitions: result', () => {
  it('lists as incoming only the original’s changes that arrived', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      screen(d, 'home').title = 'Start';
      propsOf(d, 'welcome').text = 'Theirs';
      propsOf(d, 'welcome').level = 1;
      d.screens.splice(2, 1);
    });
    const ours = edit(base, (d) => (propsOf(d, 'welcome').text = 'Ours'));
    const { incoming } = merge(base, theirs, ours);
    expect(incoming.changes.map((c) => [c.id, c.change, c.properties])).toEqual([
      ['home', 'changed', ['title']],
      ['help', 'removed', []],
      ['welcome', 'changed', ['level']],
    ]);
    expect(incoming.counts).toMatchObject({ screens: 2, components: 1 });
  });

  it('gives the remix back when the original did not change, and the original when the remix did not', () => {
    const base = app();
    const changed = edit(base, (d) => {
      screen(d, 'home').components.reverse();
      d.collections[0]!.records.push({ id: 'r2', values: { title: 'Emma' } });
      d.meta.tags = ['books'];
    });
    expect(merge(base, base, changed)).toMatchObject({ definition: changed, conflicts: [] });
    expect(merge(base, base, changed).incoming.changes).toEqual([]);
    expect(merge(base, changed, base)).toMatchObject({ definition: changed, conflicts: [] });
  });

  it('never changes its inputs', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      d.theme.custom = { primary: '#111111' };
      screen(d, 'help').components.push(heading('faq', 'FAQ'));
    });
    const ours = edit(base, (d) => {
      d.screens.splice(2, 1);
      d.meta.tags = ['mine'];
    });
    const before = clone([base, theirs, ours]);
    const { definition, conflicts } = merge(base, theirs, ours);
    definition.meta.tags.push('changed');
    definition.theme.custom.primary = '#000000';
    (conflicts[1]!.theirs as { value: { props: { text: string } } }).value.props.text = 'x';
    expect([base, theirs, ours]).toEqual(before);
  });

  it('merges a 1,000-component app quickly', () => {
    const screens = Array.from({ length: 5 }, (_, s) => ({
      id: `s${s}`,
      title: `Screen ${s}`,
      components: Array.from({ length: 200 }, (_, c) => heading(`c${s}-${c}`, `H${c}`)),
    }));
    const base = app({ screens });
    const theirs = edit(base, (d) => {
      d.screens[0]!.components.reverse();
      for (const c of d.screens[1]!.components) (c.props as { text: string }).text += '!';
    });
    const ours = edit(base, (d) => {
      for (const c of d.screens[2]!.components) (c.props as { text: string }).text += '?';
      d.screens[3]!.components.splice(0, 100);
    });
    const started = Date.now();
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(conflicts).toEqual([]);
    expect(ids(definition.screens[0]!.components)).toEqual(ids(theirs.screens[0]!.components));
    expect(definition.screens[3]!.components).toHaveLength(100);
  });
});

describe('chooseTheirs', () => {
  function conflicted() {
    const base = app();
    const theirs = edit(base, (d) => {
      propsOf(d, 'welcome').text = 'Theirs';
      d.theme.custom = { primary: '#111111' };
      d.collections[0]!.records[0]!.values.pages = 1;
      screen(d, 'help').components.push(heading('faq', 'FAQ'));
      screen(d, 'home').title = 'Start';
    });
    const ours = edit(base, (d) => {
      propsOf(d, 'welcome').text = 'Ours';
      d.theme.custom = { primary: '#222222' };
      d.collections[0]!.records[0]!.values.pages = 2;
      d.screens.splice(2, 1);
      screen(d, 'home').title = 'Main';
    });
    return merge(base, theirs, ours);
  }

  const find = (conflicts: MergeConflict[], id: string, property: string) =>
    conflicts.find((c) => c.id === id && c.property === property)!;

  it('takes the original’s value of a property, a record value or a theme token', () => {
    const { definition, conflicts } = conflicted();
    let chosen = chooseTheirs(definition, find(conflicts, 'welcome', 'props.text'));
    chosen = chooseTheirs(chosen, find(conflicts, 'theme', 'primary'));
    chosen = chooseTheirs(chosen, find(conflicts, 'r1', 'values.pages'));
    chosen = chooseTheirs(chosen, find(conflicts, 'home', 'title'));
    expect(propsOf(chosen, 'welcome').text).toBe('Theirs');
    expect(chosen.theme.custom.primary).toBe('#111111');
    expect(chosen.collections[0]!.records[0]!.values.pages).toBe(1);
    expect(screen(chosen, 'home').title).toBe('Start');
    expect(propsOf(definition, 'welcome').text).toBe('Ours');
  });

  it('brings back what the remix deleted, with its parent, where the original has it', () => {
    const { definition, conflicts } = conflicted();
    expect(brief(conflicts)).toContain('component faq exists');
    const chosen = chooseTheirs(definition, find(conflicts, 'faq', 'exists'));
    expect(ids(chosen.screens)).toEqual(['home', 'about', 'help']);
    expect(ids(screen(chosen, 'help').components)).toEqual(['faq']);
  });

  it('moves an item to the original’s parent, if it still exists', () => {
    const base = app();
    const move = (to: string) => (d: AppDefinition) =>
      screen(d, to).components.push(screen(d, 'home').components.shift()!);
    const { definition, conflicts } = merge(
      base,
      edit(base, move('help')),
      edit(base, move('about')),
    );
    expect(conflicts).toMatchObject([{ id: 'welcome', property: 'screenId', theirs: 'help' }]);
    const chosen = chooseTheirs(definition, conflicts[0]!);
    expect(ids(screen(chosen, 'help').components)).toEqual(['welcome']);
    const withoutHelp = edit(definition, (d) => d.screens.splice(2, 1));
    expect(() => chooseTheirs(withoutHelp, conflicts[0]!)).toThrow(DefinitionError);
  });

  it('deletes what the remix kept against the original’s deletion', () => {
    const base = app();
    const theirs = edit(base, (d) => screen(d, 'home').components.splice(0, 1));
    const ours = edit(base, (d) => (propsOf(d, 'welcome').text = 'Ours'));
    const { definition, conflicts } = merge(base, theirs, ours);
    const chosen = chooseTheirs(definition, conflicts[0]!);
    expect(component(chosen, 'welcome')).toBeUndefined();
    expect(appDefinitionSchema.safeParse(chosen).success).toBe(true);
  });

  it('puts an item back in the original’s order', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      const home = screen(d, 'home').components;
      home.push(home.shift()!);
    });
    const ours = edit(base, (d) => {
      const home = screen(d, 'home').components;
      home.splice(2, 0, home.shift()!);
    });
    const { definition, conflicts } = merge(base, theirs, ours);
    const chosen = chooseTheirs(definition, conflicts[0]!);
    expect(ids(screen(chosen, 'home').components)).toEqual(['intro', 'list', 'buy', 'welcome']);
  });
});
