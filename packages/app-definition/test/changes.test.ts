import { describe, expect, it } from 'vitest';
import {
  type AppDefinition,
  appDefinitionSchema,
  diffDefinitions,
  type ReadDefinition,
  summarizeChanges,
} from '../src/index';

type Draft = Record<string, unknown>;

/** A valid definition from the parts a test cares about; the schema fills in the rest. */
function app(parts: Draft = {}): AppDefinition {
  return appDefinitionSchema.parse({
    schemaVersion: 1,
    meta: { title: 'Shop' },
    theme: {},
    screens: [
      {
        id: 'home',
        title: 'Home',
        components: [
          { id: 'welcome', type: 'heading', props: { text: 'Welcome' } },
          { id: 'intro', type: 'text', props: { markdown: 'Hello there' } },
          { id: 'list', type: 'list', props: { collectionId: 'books', titleFieldId: 'title' } },
        ],
      },
      { id: 'about', title: 'About', components: [] },
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

const home = (d: AppDefinition) => d.screens[0]!;

describe('diffDefinitions', () => {
  it('finds nothing between equal definitions', () => {
    const changes = diffDefinitions(app(), app());
    expect(changes.changes).toEqual([]);
    expect(changes.counts).toEqual({
      app: 0,
      theme: 0,
      screens: 0,
      components: 0,
      collections: 0,
      actions: 0,
      reminders: 0,
    });
    expect(summarizeChanges(changes)).toBe('No changes');
  });

  it('names a changed screen by its new title and its changed properties', () => {
    const after = edit(app(), (d) => {
      home(d).title = 'Start';
      home(d).icon = '🏁';
    });
    expect(diffDefinitions(app(), after).changes).toEqual([
      {
        group: 'screens',
        entity: 'screen',
        id: 'home',
        name: 'Start',
        where: null,
        change: 'changed',
        properties: ['title', 'icon'],
      },
    ]);
  });

  it('names components by type and text, where they are by their screen', () => {
    const after = edit(app(), (d) => {
      home(d).components[0] = { id: 'welcome', type: 'heading', props: { text: 'Hi', level: 2 } };
      home(d).components.splice(1, 1);
      d.screens[1]!.components.push({
        id: 'buy',
        type: 'button',
        props: { label: 'Buy now', actionId: null, style: 'primary' },
      });
    });
    const { changes, counts } = diffDefinitions(app(), after);
    expect(changes.map((c) => [c.name, c.where, c.change, c.properties])).toEqual([
      ['Heading “Hi”', 'Home', 'changed', ['text']],
      ['Button “Buy now”', 'About', 'added', []],
      ['Text “Hello there”', 'Home', 'removed', []],
    ]);
    expect(counts.components).toBe(3);
  });

  it('names a list by its collection when it has no text of its own', () => {
    const after = edit(app(), (d) => {
      home(d).components[2] = {
        id: 'list',
        type: 'list',
        props: { ...(home(d).components[2]!.props as object), emptyText: 'No books' },
      } as AppDefinition['screens'][number]['components'][number];
    });
    expect(diffDefinitions(app(), after).changes).toMatchObject([
      { name: 'List “Books”', properties: ['empty text'] },
    ]);
  });

  it('names a component known only by its type once, as a sentence says it', () => {
    const after = edit(app(), (d) => {
      // The schema fills in the rest of each component's props.
      (d.screens[1]!.components as unknown[]).push(
        { id: 'timer', type: 'timer', props: { label: 'Timer' } },
        { id: 'again', type: 'heading', props: { text: ' heading ' } },
        { id: 'line', type: 'divider', props: {} },
        { id: 'photo', type: 'image', props: { alt: '' } },
        { id: 'tea', type: 'timer', props: { label: 'Tea' } },
      );
    });
    expect(diffDefinitions(app(), after).changes.map((c) => c.name)).toEqual([
      'a timer',
      'a heading',
      'a divider',
      'an image',
      'Timer “Tea”',
    ]);
  });

  it('counts a component moved to another screen as moved, not removed and added', () => {
    const after = edit(app(), (d) => {
      d.screens[1]!.components.push(home(d).components.shift()!);
    });
    expect(diffDefinitions(app(), after).changes).toEqual([
      {
        group: 'components',
        entity: 'component',
        id: 'welcome',
        name: 'Heading “Welcome”',
        where: 'About',
        change: 'moved',
        properties: [],
      },
    ]);
  });

  it('counts only the screen that was moved when screens are reordered', () => {
    const after = edit(app(), (d) => {
      d.screens.unshift(d.screens.pop()!);
    });
    const changes = diffDefinitions(app(), after).changes;
    expect(changes.map((c) => [c.id, c.change])).toEqual([['help', 'moved']]);
  });

  it('says a changed component also moved among its siblings', () => {
    const after = edit(app(), (d) => {
      const [welcome] = home(d).components.splice(0, 1);
      home(d).components.push({ ...welcome!, props: { text: 'Bye', level: 2 } } as never);
    });
    expect(diffDefinitions(app(), after).changes).toMatchObject([
      { id: 'welcome', change: 'changed', properties: ['text', 'position'] },
    ]);
  });

  it('counts fields and records under collections, named after their collection', () => {
    const after = edit(app(), (d) => {
      const books = d.collections[0]!;
      books.fields[1]!.name = 'Page count';
      books.fields[1]!.required = true;
      books.records[0]!.values.pages = 500;
      books.records.push({ id: 'r2', values: { title: 'Emma' } });
    });
    const { changes, counts } = diffDefinitions(app(), after);
    expect(changes.map((c) => [c.entity, c.name, c.where, c.change, c.properties])).toEqual([
      ['field', 'Page count', 'Books', 'changed', ['name', 'required']],
      ['record', '“Dune”', 'Books', 'changed', ['Page count']],
      ['record', '“Emma”', 'Books', 'added', []],
    ]);
    expect(counts).toMatchObject({ collections: 3, components: 0 });
  });

  it('counts steps and AI actions under actions', () => {
    const after = edit(app(), (d) => {
      d.actions[0]!.steps[0] = { id: 'toast', type: 'toast', props: { message: 'Saved!' } };
      d.actions[0]!.steps.push({ id: 'back', type: 'back', props: {} });
      d.aiActions[0]!.prompt = 'Suggest a book';
    });
    const { changes, counts } = diffDefinitions(app(), after);
    expect(changes.map((c) => [c.entity, c.name, c.where, c.change, c.properties])).toEqual([
      ['step', 'Show “Saved!”', 'Save', 'changed', ['message']],
      ['step', 'Go back', 'Save', 'added', []],
      ['aiAction', 'Suggest', null, 'changed', ['prompt']],
    ]);
    expect(counts.actions).toBe(3);
  });

  it('names meta and theme changes per key, custom colours by token', () => {
    const after = edit(app(), (d) => {
      d.meta.title = 'Book shop';
      d.meta.tags = ['books'];
      d.theme.custom = { primary: '#112233' };
      d.theme.radius = 'large';
    });
    expect(diffDefinitions(app(), after).changes).toEqual([
      {
        group: 'app',
        entity: 'app',
        id: 'app',
        name: 'Book shop',
        where: null,
        change: 'changed',
        properties: ['title', 'tags'],
      },
      {
        group: 'theme',
        entity: 'theme',
        id: 'theme',
        name: 'Theme',
        where: null,
        change: 'changed',
        properties: ['corners', 'primary colour'],
      },
    ]);
  });

  it('orders by group, then after’s order, then what was removed in before’s order', () => {
    const after = edit(app(), (d) => {
      d.screens.splice(1, 2);
      d.screens.push({ id: 'new2', title: 'New 2', icon: '📄', components: [] });
      d.screens.unshift({ id: 'new1', title: 'New 1', icon: '📄', components: [] });
      d.aiActions = [];
      d.theme.mode = 'dark';
    });
    const changes = diffDefinitions(app(), after).changes;
    expect(changes.map((c) => `${c.id} ${c.change}`)).toEqual([
      'theme changed',
      'new1 added',
      'new2 added',
      'about removed',
      'help removed',
      'suggest removed',
    ]);
  });

  it('shows a component the reader could not use as an unknown component', () => {
    const before = app() as ReadDefinition;
    const after: ReadDefinition = clone(before);
    after.screens[1]!.components.push({
      id: 'holo',
      type: 'invalid',
      originalType: 'hologram',
      problem: 'This kind of component is not known.',
    });
    expect(diffDefinitions(before, after).changes).toMatchObject([
      { id: 'holo', name: 'an unknown component', where: 'About', change: 'added' },
    ]);
  });

  it('diffs a 1,000-component app quickly, and counts a reversed list as all but one moved', () => {
    const screens = Array.from({ length: 5 }, (_, s) => ({
      id: `s${s}`,
      title: `Screen ${s}`,
      components: Array.from({ length: 200 }, (_, c) => ({
        id: `c${s}-${c}`,
        type: 'heading',
        props: { text: `Heading ${c}` },
      })),
    }));
    const before = app({ screens });
    const after = edit(before, (d) => {
      d.screens[0]!.components.reverse();
      for (const c of d.screens[1]!.components) (c.props as { text: string }).text += '!';
    });
    const started = Date.now();
    const { counts } = diffDefinitions(before, after);
    expect(Date.now() - started).toBeLessThan(500);
    expect(counts.components).toBe(199 + 200);
  });
});

describe('summarizeChanges', () => {
  it('counts each kind in words, then the app’s details and the theme', () => {
    const after = edit(app(), (d) => {
      d.meta.description = 'Books and more';
      d.theme.font = 'serif';
      home(d).title = 'Start';
      d.screens[1]!.title = 'Us';
      home(d).components.pop();
      d.collections[0]!.fields[0]!.name = 'Name';
    });
    expect(summarizeChanges(diffDefinitions(app(), after))).toBe(
      '2 screens, 1 component, 1 field, the app’s details, the theme',
    );
  });
});
