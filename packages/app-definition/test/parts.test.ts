import { describe, expect, it } from 'vitest';
import {
  type AppDefinition,
  appDefinitionSchema,
  changeParts,
  closeParts,
  mergeDefinitions,
} from '../src/index';

/** A reading list: one screen with a list of books, a collection of books. */
const base: AppDefinition = appDefinitionSchema.parse({
  schemaVersion: 1,
  meta: { title: 'Reading list', description: '' },
  theme: {},
  screens: [
    {
      id: 'home',
      title: 'Home',
      components: [
        { id: 'welcome', type: 'heading', props: { text: 'Books' } },
        { id: 'list', type: 'list', props: { collectionId: 'books', titleFieldId: 'title' } },
      ],
    },
  ],
  collections: [
    {
      id: 'books',
      name: 'Books',
      fields: [
        { id: 'title', name: 'Title', type: 'text' },
        { id: 'pages', name: 'Pages', type: 'number' },
      ],
      records: [{ id: 'dune', values: { title: 'Dune', pages: 412 } }],
    },
  ],
  actions: [],
  aiActions: [],
});

const setHeading = (d: AppDefinition, text: string) => {
  (d.screens[0]!.components[0]!.props as { text: string }).text = text;
};

const copy = (d: AppDefinition): AppDefinition => JSON.parse(JSON.stringify(d)) as AppDefinition;

/** What an AI might propose: a rating, a formula reading it, a screen showing it, a new title. */
function proposal(): AppDefinition {
  const d = copy(base);
  const books = d.collections[0]!;
  books.fields.push(
    { id: 'rating', name: 'Rating', type: 'number' } as (typeof books.fields)[number],
    {
      id: 'stars',
      name: 'Stars',
      type: 'formula',
      formula: 'ROUND({Rating}, 0)',
    } as (typeof books.fields)[number],
  );
  d.screens.push({
    id: 'top',
    title: 'Top rated',
    icon: '⭐',
    components: [
      {
        id: 'best',
        type: 'list',
        props: { collectionId: 'books', titleFieldId: 'title', subtitleFieldId: 'rating' },
      },
    ],
  } as (typeof d.screens)[number]);
  setHeading(d, 'My books');
  return appDefinitionSchema.parse(d);
}

const keyed = (d: AppDefinition) =>
  Object.fromEntries(changeParts(base, d).map((part) => [part.key, part]));

describe('a proposed change, part by part', () => {
  it('names each part as History does, with what it cannot be taken without', () => {
    const parts = keyed(proposal());
    expect(Object.keys(parts).sort()).toEqual([
      'component:best',
      'component:welcome',
      'field:rating',
      'field:stars',
      'screen:top',
    ]);
    expect(parts['component:welcome']).toMatchObject({
      change: 'changed',
      name: 'Heading “My books”',
      properties: ['text'],
      needs: [],
    });
    // The list shows the rating, on the new screen; the formula reads the rating by name.
    expect(parts['component:best']!.needs.sort()).toEqual(['field:rating', 'screen:top']);
    expect(parts['field:stars']!.needs).toEqual(['field:rating']);
    expect(parts['field:rating']!.needs).toEqual([]);
  });

  it('takes what a ticked part needs, and leaves out what needs an unticked one', () => {
    const parts = changeParts(base, proposal());
    expect([...closeParts(parts, new Set(['component:best']))].sort()).toEqual([
      'component:best',
      'field:rating',
      'screen:top',
    ]);
    const all = new Set(parts.map((p) => p.key));
    expect([...closeParts(parts, all, { key: 'field:rating', taken: false })].sort()).toEqual([
      'component:welcome',
      'screen:top',
    ]);
  });

  it('merges only the parts taken into the app as collaborators changed it since', () => {
    const now = copy(base);
    now.meta.title = 'Our reading list';
    now.collections[0]!.records.push({ id: 'emma', values: { title: 'Emma', pages: 474 } });
    const theirs = proposal();
    const taken = closeParts(changeParts(base, theirs), new Set(['field:stars']));
    const merged = mergeDefinitions(base, theirs, now, { taken });
    expect(merged.conflicts).toEqual([]);
    const books = merged.definition.collections[0]!;
    expect(books.fields.map((f) => f.id)).toEqual(['title', 'pages', 'rating', 'stars']);
    expect(books.records.map((r) => r.id)).toEqual(['dune', 'emma']);
    expect(merged.definition.meta.title).toBe('Our reading list');
    // Not taken: the new screen, the heading's new text.
    expect(merged.definition.screens.map((s) => s.id)).toEqual(['home']);
    expect(merged.definition.screens[0]!.components[0]!.props).toMatchObject({ text: 'Books' });
  });

  it('lists a conflict where the app changed what the part changes, and keeps the app’s', () => {
    const now = copy(base);
    setHeading(now, 'Ours');
    const merged = mergeDefinitions(base, proposal(), now, {
      taken: new Set(['component:welcome']),
    });
    expect(merged.conflicts).toMatchObject([
      {
        entity: 'component',
        id: 'welcome',
        property: 'props.text',
        ours: 'Ours',
        theirs: 'My books',
      },
    ]);
    expect(merged.definition.screens[0]!.components[0]!.props).toMatchObject({ text: 'Ours' });
  });

  it('knows what a formula names, in any case, and that a rename takes the formulas it rewrote', () => {
    const d = copy(base);
    const books = d.collections[0]!;
    books.fields[1]!.name = 'Page count';
    books.fields.push({
      id: 'long',
      name: 'Long',
      type: 'formula',
      formula: '{ page COUNT } > 400',
    } as (typeof books.fields)[number]);
    const parts = keyed(appDefinitionSchema.parse(d));
    expect(parts['field:long']!.needs).toEqual(['field:pages']);
    // A formula that named the old name, rewritten with the rename, goes with it.
    const was = copy(base);
    was.collections[0]!.fields.push({
      id: 'long',
      name: 'Long',
      type: 'formula',
      formula: '{Pages} > 400',
    } as (typeof books.fields)[number]);
    const renamed = copy(was);
    renamed.collections[0]!.fields[1]!.name = 'Page count';
    (renamed.collections[0]!.fields[2] as { formula: string }).formula = '{Page count} > 400';
    const both = Object.fromEntries(
      changeParts(appDefinitionSchema.parse(was), appDefinitionSchema.parse(renamed)).map((p) => [
        p.key,
        p,
      ]),
    );
    expect(both['field:pages']!.needs).toEqual(['field:long']);
    expect(both['field:long']!.needs).toEqual(['field:pages']);
  });

  it('gives a record’s value of an added field that field, and closes a selection that was not', () => {
    const d = copy(base);
    d.collections[0]!.fields.push({ id: 'rating', name: 'Rating', type: 'number' } as never);
    d.collections[0]!.records[0]!.values = { ...d.collections[0]!.records[0]!.values, rating: 4 };
    const theirs = appDefinitionSchema.parse(d);
    const parts = changeParts(base, theirs);
    expect(parts.find((p) => p.key === 'record:dune')!.needs).toEqual(['field:rating']);
    // Taken alone, the record's value comes with its field (never silently dropped).
    const merged = mergeDefinitions(base, theirs, base, { taken: new Set(['record:dune']) });
    expect(merged.definition.collections[0]!.records[0]!.values).toMatchObject({ rating: 4 });
    // Unticking what a part needs leaves that part out, even from a selection not yet closed.
    expect([
      ...closeParts(parts, new Set(['record:dune']), { key: 'field:rating', taken: false }),
    ]).toEqual([]);
  });
});
