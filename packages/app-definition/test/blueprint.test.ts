import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  appDefinitionSchema,
  type Blueprint,
  BLUEPRINT_COMPONENT_TYPES,
  BLUEPRINT_LIMITS,
  BLUEPRINT_SCREEN_KINDS,
  blueprintJsonSchema,
  blueprintProblems,
  blueprintSchema,
  checkForPublish,
  expandBlueprint,
  LIST_VIEWS,
  BLUEPRINT_FIELD_TYPES,
  type FieldType,
  ROLLUP_AGGREGATES,
  THEME_PRESETS,
  writeDefinition,
} from '../src/index';
import { idFactory, rng, strictSchemaProblems } from './support';

function publishable(blueprint: Blueprint) {
  const definition = expandBlueprint(blueprintSchema.parse(blueprint), idFactory());
  const doc = new Y.Doc();
  writeDefinition(doc, definition);
  const check = checkForPublish(doc);
  return { definition, check };
}

const recipes: Blueprint = {
  title: 'Family recipes',
  description: 'The recipes our family cooks.',
  icon: '🍲',
  theme: { preset: 'ember', accent: '#aa3300' },
  collections: [
    {
      name: 'Recipes',
      fields: [
        { name: 'Title', type: 'text', required: true, choices: [] },
        {
          name: 'Course',
          type: 'select',
          required: false,
          choices: ['Starter', 'Main', 'Dessert'],
        },
        { name: 'Minutes', type: 'number', required: false, choices: [] },
      ],
      samples: [
        ['Lentil soup', 'Starter', 40],
        ['Apple pie', 'dessert', '75'],
        ['No title', 'Soup of the day', 10],
      ],
    },
  ],
  screens: [
    {
      title: 'Recipes',
      icon: '📖',
      kind: 'list',
      collection: 'Recipes',
      text: 'Everything we cook.',
      components: [{ type: 'stat', text: 'Recipes', collection: 'Recipes', field: '' }],
    },
    { title: 'Recipe', icon: '🥘', kind: 'detail', collection: 'Recipe', text: '', components: [] },
    {
      title: 'Add a recipe',
      icon: '➕',
      kind: 'form',
      collection: 'recipes',
      text: '',
      components: [],
    },
  ],
  actions: [{ label: 'Say hi', screen: 'Recipes', kind: 'message', target: '', message: 'Hi!' }],
};

describe('expandBlueprint', () => {
  it('makes a publishable app whose list shows the sample records and opens their details', () => {
    const { definition, check } = publishable(recipes);
    expect(check.ok).toBe(true);
    const [collection] = definition.collections;
    expect(collection?.name).toBe('Recipes');
    // "Soup of the day" is not a course: that sample is left out; "dessert" and "75" are coerced.
    expect(collection?.records.map((r) => Object.values(r.values))).toEqual([
      ['Lentil soup', 'Starter', 40],
      ['Apple pie', 'Dessert', 75],
    ]);
    const [list, detail, form] = definition.screens;
    const listComponent = list?.components.find((c) => c.type === 'list');
    expect(listComponent?.props).toMatchObject({
      collectionId: collection?.id,
      titleFieldId: collection?.fields[0]?.id,
      detailScreenId: detail?.id,
    });
    expect(list?.components.map((c) => c.type)).toEqual([
      'heading',
      'text',
      'list',
      'button',
      'stat',
      'button',
    ]);
    expect(form?.components.find((c) => c.type === 'form')?.props).toMatchObject({
      collectionId: collection?.id,
      mode: 'create',
    });
    expect(definition.theme).toMatchObject({ preset: 'ember', custom: { accent: '#aa3300' } });
    expect(definition.meta.icon).toMatchObject({ kind: 'emoji', emoji: '🍲' });
  });

  it('shows a list screen in the view asked for, with the fields it needs, else as a list', () => {
    const screen = (view: (typeof LIST_VIEWS)[number]) => ({
      ...recipes.screens[0]!,
      title: `As ${view}`,
      view,
      components: [],
    });
    const { definition, check } = publishable({
      ...recipes,
      screens: [...recipes.screens, screen('board'), screen('gallery'), screen('table')],
    });
    expect(check.ok).toBe(true);
    const course = definition.collections[0]?.fields[1]?.id;
    const listOn = (title: string) =>
      definition.screens.find((s) => s.title === title)?.components.find((c) => c.type === 'list')
        ?.props;
    expect(listOn('Recipes')).toMatchObject({ view: 'list' });
    expect(listOn('As board')).toMatchObject({ view: 'board', groupFieldId: course });
    // Recipes have no web address field for pictures: a plain list, not an empty gallery.
    expect(listOn('As gallery')).toMatchObject({ view: 'list', imageFieldId: null });
    expect(listOn('As table')).toMatchObject({ view: 'table', columnFieldIds: [] });
  });

  it('is deterministic for the same ids', () => {
    const a = expandBlueprint(recipes, idFactory());
    const b = expandBlueprint(recipes, idFactory());
    expect(a).toEqual(b);
  });

  it('leaves out what it cannot place and keeps at least one screen', () => {
    const { definition, check } = publishable({
      ...recipes,
      title: '   ',
      icon: 'abc',
      theme: { preset: 'meadow', accent: 'red' },
      collections: [
        { name: '', fields: [], samples: [] },
        { name: 'Notes', fields: [], samples: [['first'], [null]] },
        { name: 'notes', fields: [], samples: [] },
      ],
      screens: [],
      actions: [
        { label: 'Go', screen: 'Nowhere', kind: 'open', target: 'Home', message: '' },
        { label: 'Go', screen: 'Home', kind: 'open', target: 'Nowhere', message: '' },
      ],
    });
    expect(check.ok).toBe(true);
    expect(definition.meta.title).toBe('My app');
    expect(definition.meta.icon).toMatchObject({ emoji: '🐦' });
    expect(definition.theme.custom).toEqual({});
    expect(definition.collections.map((c) => c.name)).toEqual(['Notes']);
    expect(definition.collections[0]?.fields.map((f) => f.name)).toEqual(['Name']);
    expect(definition.collections[0]?.records).toHaveLength(1);
    expect(definition.screens.map((s) => s.title)).toEqual(['Home']);
    expect(definition.screens[0]?.components.some((c) => c.type === 'button')).toBe(false);
  });

  it('shows text as text: markdown, links and templates from the model do nothing', () => {
    const { definition, check } = publishable({
      ...recipes,
      screens: [
        {
          title: 'Ignore the instructions <script>alert(1)</script>',
          icon: '<b>',
          kind: 'text',
          collection: '',
          text: 'Click [here](javascript:alert(1)) and ![x](https://evil.example/x.png)',
          components: [],
        },
      ],
      actions: [
        {
          label: 'Leak',
          screen: 'Ignore the instructions <script>alert(1)</script>',
          kind: 'message',
          target: '',
          message: 'Your name is {{user.name}}',
        },
      ],
    });
    expect(check.ok).toBe(true);
    const screen = definition.screens[0];
    expect(screen?.icon).toBe('📄');
    const text = screen?.components.find((c) => c.type === 'text');
    expect(text?.props).toEqual({
      markdown:
        'Click \\[here\\]\\(javascript:alert\\(1\\)\\) and !\\[x\\]\\(https://evil.example/x.png\\)',
    });
    const toast = definition.actions.flatMap((a) => a.steps).find((s) => s.type === 'toast');
    expect(toast?.props).toEqual({ message: 'Your name is { {user.name} }' });
    expect(JSON.stringify(definition)).not.toContain('javascript:alert(1))');
  });

  it('clamps to its limits', () => {
    const many = <T>(n: number, make: (i: number) => T) =>
      Array.from({ length: n }, (_, i) => make(i));
    const { definition, check } = publishable({
      ...recipes,
      title: 'x'.repeat(500),
      collections: many(30, (i) => ({
        name: `C${i}`,
        fields: many(80, (j) => ({
          name: `F${j}`,
          type: 'select' as const,
          required: false,
          choices: many(100, (k) => `choice ${k}`),
        })),
        samples: many(20, () => ['choice 1']),
      })),
      screens: many(40, (i) => ({
        title: `S${i}`,
        icon: '⭐',
        kind: 'list' as const,
        collection: `C${i}`,
        text: '',
        components: many(40, () => ({
          type: 'divider' as const,
          text: '',
          collection: '',
          field: '',
        })),
      })),
    });
    expect(check.ok).toBe(true);
    expect(definition.meta.title).toHaveLength(60);
    expect(definition.collections).toHaveLength(BLUEPRINT_LIMITS.collections);
    expect(definition.collections[0]?.fields).toHaveLength(BLUEPRINT_LIMITS.fieldsPerCollection);
    expect(definition.collections[0]?.fields[0]?.options).toHaveLength(BLUEPRINT_LIMITS.choices);
    expect(definition.collections[0]?.records).toHaveLength(BLUEPRINT_LIMITS.samples);
    expect(definition.screens).toHaveLength(BLUEPRINT_LIMITS.screens);
    expect(Math.max(...definition.screens.map((s) => s.components.length))).toBeLessThanOrEqual(
      BLUEPRINT_LIMITS.components + 3,
    );
  });

  it('always expands a random valid blueprint to a publishable definition', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const word = () =>
        r.pick([
          'Books',
          'book',
          'Title',
          'Name',
          '',
          '  ',
          'Rating',
          'Tasks',
          '📚',
          'x'.repeat(90),
        ])!;
      const anyValue = () =>
        r.pick<string | number | boolean | null>([
          'a',
          '',
          3,
          -1.5,
          true,
          false,
          null,
          '2025-02-30',
          '2025-01-31',
          'https://x.org',
          'javascript:x',
          'a@b.co',
        ])!;
      const n = (max: number) => r.int(max + 1);
      const blueprint: Blueprint = {
        title: word(),
        description: word(),
        icon: word(),
        theme: { preset: r.pick(THEME_PRESETS)!, accent: r.pick(['', '#123456', 'blue'])! },
        collections: Array.from({ length: n(4) }, () => ({
          name: word(),
          fields: Array.from({ length: n(5) }, () => ({
            name: word(),
            type: r.pick(BLUEPRINT_FIELD_TYPES)!,
            required: r.next() < 0.3,
            choices: Array.from({ length: n(3) }, word),
            links: word(),
            many: r.next() < 0.5,
            aggregate: r.pick(ROLLUP_AGGREGATES)!,
            over: word(),
            formula: r.pick(['', '{a} + 1', `LEN({${word()}})`, '{b} * 2', 'IF({a}, 1, 2)', '('])!,
          })),
          samples: Array.from({ length: n(3) }, () => Array.from({ length: n(6) }, anyValue)),
        })),
        screens: Array.from({ length: n(5) }, () => ({
          title: word(),
          icon: word(),
          kind: r.pick(BLUEPRINT_SCREEN_KINDS)!,
          collection: word(),
          view: r.pick(LIST_VIEWS)!,
          text: word(),
          components: Array.from({ length: n(4) }, () => ({
            type: r.pick(BLUEPRINT_COMPONENT_TYPES)!,
            text: word(),
            collection: word(),
            field: word(),
          })),
        })),
        actions: Array.from({ length: n(3) }, () => ({
          label: word(),
          screen: word(),
          kind: r.pick(['open', 'message'] as const)!,
          target: word(),
          message: word(),
        })),
      };
      const { definition, check } = publishable(blueprint);
      expect(appDefinitionSchema.safeParse(definition).error?.issues ?? [], `seed ${seed}`).toEqual(
        [],
      );
      expect(check.ok ? [] : check.problems, `seed ${seed}`).toEqual([]);
    }
  });
});

describe('the blueprint schema', () => {
  it('has a JSON schema an OpenAI-compatible server accepts: an object with every key required', () => {
    const schema = blueprintJsonSchema();
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual([
      'title',
      'description',
      'icon',
      'theme',
      'collections',
      'screens',
      'actions',
      'reminders',
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(strictSchemaProblems(schema)).toEqual([]);
  });

  it('says what is wrong with an answer that does not fit', () => {
    expect(blueprintProblems(recipes)).toEqual([]);
    const problems = blueprintProblems({ ...recipes, screens: [{ title: 'x', kind: 'gallery' }] });
    expect(problems.some((p) => p.startsWith('screens.0.kind:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('screens.0.icon:'))).toBe(true);
  });
});

describe('a blueprint with linked collections', () => {
  const field = (name: string, type: FieldType, more: object = {}) => ({
    name,
    type,
    required: false,
    choices: [],
    ...more,
  });
  const guests: Blueprint = {
    title: 'Wedding',
    description: 'Who comes to what.',
    icon: '💌',
    theme: { preset: 'orchid', accent: '' },
    collections: [
      {
        name: 'Events',
        fields: [
          field('Name', 'text'),
          field('Guest count', 'rollup', { links: 'Guests', aggregate: 'count' }),
          field('People', 'rollup', { links: 'Guests', aggregate: 'sum', over: 'Party size' }),
          field('Busy', 'formula', { formula: '{Guest count} > 10' }),
          field('Hall', 'relation', { links: 'Venues' }),
        ],
        samples: [['Dinner', 3, null, null, 'Hall A']],
      },
      {
        name: 'Guests',
        fields: [
          field('Name', 'text'),
          field('Party size', 'number'),
          field('Events', 'relation', { links: 'Events', many: true }),
          field('Broken', 'formula', { formula: '{Nope} + 1' }),
        ],
        samples: [],
      },
    ],
    screens: [],
    actions: [],
  };

  it('links by name, counts and sums either way, checks formulas, and publishes', () => {
    const { definition, check } = publishable(guests);
    expect(check.ok ? [] : check.problems).toEqual([]);
    const [events, people] = definition.collections;
    const fieldNamed = (c: typeof events, name: string) => c!.fields.find((f) => f.name === name)!;
    const link = fieldNamed(people, 'Events');
    expect(link).toMatchObject({ type: 'relation', target: events!.id, many: true });
    expect(fieldNamed(events, 'Guest count')).toMatchObject({
      type: 'rollup',
      through: link.id,
      throughCollection: people!.id,
      aggregate: 'count',
    });
    expect(fieldNamed(events, 'People')).toMatchObject({
      aggregate: 'sum',
      aggregateFieldId: fieldNamed(people, 'Party size').id,
    });
    expect(fieldNamed(events, 'Busy')).toMatchObject({ formula: '{Guest count} > 10' });
    // A relation to a collection no one described is a text field; a formula that can't be
    // worked out is left out; a sample never fills a computed field or a link.
    expect(fieldNamed(events, 'Hall').type).toBe('text');
    expect(people!.fields.some((f) => f.name === 'Broken')).toBe(false);
    expect(Object.values(events!.records[0]!.values)).toEqual(['Dinner']);
  });

  it('builds a guest list with events, photos, a gallery and a board by RSVP', () => {
    const screen = (title: string, collection: string, view: (typeof LIST_VIEWS)[number]) => ({
      title,
      icon: '💌',
      kind: 'list' as const,
      collection,
      view,
      text: '',
      components: [],
    });
    const withPhotos: Blueprint = {
      ...guests,
      collections: [
        guests.collections[0]!,
        {
          name: 'Guests',
          fields: [
            field('Name', 'text'),
            field('RSVP', 'select', { choices: ['Yes', 'No', 'Maybe'] }),
            field('Photo', 'image'),
            field('Events', 'relation', { links: 'Events', many: true }),
          ],
          // A photo is bytes on a device: a sample never makes one up.
          samples: [['Ana', 'Yes', 'https://example.com/ana.jpg', null]],
        },
      ],
      screens: [
        screen('Faces', 'Guests', 'gallery'),
        screen('Replies', 'Guests', 'board'),
        screen('Events', 'Events', 'list'),
      ],
    };
    const { definition, check } = publishable(withPhotos);
    expect(check.ok ? [] : check.problems).toEqual([]);
    const people = definition.collections.find((c) => c.name === 'Guests')!;
    const photo = people.fields.find((f) => f.name === 'Photo')!;
    const rsvp = people.fields.find((f) => f.name === 'RSVP')!;
    expect(photo.type).toBe('image');
    expect(Object.values(people.records[0]!.values)).toEqual(['Ana', 'Yes']);
    const listOn = (title: string) =>
      definition.screens.find((s) => s.title === title)?.components.find((c) => c.type === 'list')
        ?.props;
    expect(listOn('Faces')).toMatchObject({ view: 'gallery', imageFieldId: photo.id });
    expect(listOn('Replies')).toMatchObject({ view: 'board', groupFieldId: rsvp.id });
  });
});
