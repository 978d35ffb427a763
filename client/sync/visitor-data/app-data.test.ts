import {
  createVisitorRecord,
  createVisitorRecords,
  APP_TEMPLATES,
  readVisitorData,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
  type ReadDefinition,
} from '@pipit/app-definition';
import type { SpaceRole } from '@pipit/protocol';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { combineAppData, combineSync } from './app-data';
import type { VisitorDataView } from './view';

/*
 * What the running app sees with a space shown (docs/product/spaces.md): the shared collections'
 * records from the space's document, the rest from the visitor's own; every change goes to the
 * document its collection lives in, and the space's record rules hold before anything is sent.
 */

const template = APP_TEMPLATES.find((t) => t.id === 'household-shopping-list');
if (!template) throw new Error('the household shopping list template is missing');
const definition = template.build() as unknown as ReadDefinition;
const [items, chores] = definition.collections;
if (!items || !chores) throw new Error('the template has two collections');
const itemName = items.fields[0]!.id;
const choreName = chores.fields[0]!.id;

/** A document as the data store shows it: a fresh view read after every change. */
function viewOf(doc: Y.Doc, authorId?: string): () => VisitorDataView {
  return () => ({
    phase: 'ready',
    sync: { kind: 'saved' },
    presence: [],
    data: {
      ...readVisitorData(doc),
      create: (collection, values) =>
        createVisitorRecord(doc, collection, values, authorId ? { authorId } : {}),
      createMany: (collection, rows) =>
        createVisitorRecords(doc, collection, rows, authorId ? { authorId } : {}),
      update: (collection, recordId, values) =>
        updateVisitorRecord(doc, collection, recordId, values),
      remove: (recordId) => void removeVisitorRecord(doc, recordId),
      setCounter: (counterId, value) => setCounter(doc, counterId, value),
    },
  });
}

function setUp(role: SpaceRole = 'member') {
  const own = new Y.Doc();
  const space = new Y.Doc();
  const ownView = viewOf(own);
  const spaceView = viewOf(space, 'ada');
  const app = () =>
    combineAppData(ownView(), spaceView(), definition, { role, people: { ada: 'Ada' } }, 'ada');
  return { own, space, app };
}

describe('an app with a space shown', () => {
  it('keeps shared collections in the space, as the person’s, and the rest private', () => {
    const { own, space, app } = setUp();
    // A private item from before the space: hidden while the space shows, offered to move.
    createVisitorRecord(own, items, { [itemName]: 'Milk' });
    expect(app().data.records).toEqual([]);
    expect(app().privateShared).toBe(1);

    const id = app().data.create(items, { [itemName]: 'Eggs' });
    expect(readVisitorData(space).records.map((r) => [r.id, r.authorId])).toEqual([[id, 'ada']]);
    app().data.setCounter('counter', 3);
    expect(readVisitorData(own).counters).toEqual({ counter: 3 });

    expect(app().moveIntoSpace()).toBe(1);
    expect(readVisitorData(own).records).toEqual([]);
    expect(
      app()
        .data.records.map((r) => r.values[itemName])
        .sort(),
    ).toEqual(['Eggs', 'Milk']);
    expect(app().privateShared).toBe(0);
  });

  it('lets anyone change an item of an “anyone” collection, only its author one of an “author” one', () => {
    const { space, app } = setUp();
    const bens = createVisitorRecord(space, items, { [itemName]: 'Tea' }, { authorId: 'ben' });
    const bensChore = createVisitorRecord(
      space,
      chores,
      { [choreName]: 'Bins' },
      { authorId: 'ben' },
    );
    const records = new Map(app().data.records.map((r) => [r.id, r]));
    expect(records.get(bens)?.editable).toBe(true);
    expect(records.get(bensChore)?.editable).toBe(false);
    // Ben is not among the space's members any more: what he added says so.
    expect(records.get(bens)?.authorName).toBe('a former member');

    app().data.update(items, bens, { [itemName]: 'Green tea' });
    expect(readVisitorData(space).records.find((r) => r.id === bens)?.values[itemName]).toBe(
      'Green tea',
    );
    expect(() => app().data.update(chores, bensChore, { [choreName]: 'Not mine' })).toThrow(
      'Only the person who added this item can change it.',
    );
    expect(() => app().data.remove(bensChore)).toThrow('Only the person who added');
    expect(readVisitorData(space).records).toHaveLength(2);

    const mine = app().data.create(chores, { [choreName]: 'Dishes' });
    expect(app().data.records.find((r) => r.id === mine)?.authorName).toBe('Ada');
    app().data.remove(mine);
    expect(
      readVisitorData(space)
        .records.map((r) => r.id)
        .sort(),
    ).toEqual([bens, bensChore].sort());
  });

  it('shows a space record nothing changed as the same object, until it or how it is seen changes', () => {
    const own = new Y.Doc();
    const space = new Y.Doc();
    const people = { ada: 'Ada', ben: 'Ben' };
    const show = (role: SpaceRole) =>
      combineAppData(viewOf(own)(), viewOf(space, 'ada')(), definition, { role, people }, 'ada')
        .data.records;
    const tea = createVisitorRecord(space, items, { [itemName]: 'Tea' }, { authorId: 'ben' });
    const milk = createVisitorRecord(space, items, { [itemName]: 'Milk' }, { authorId: 'ada' });
    const before = show('member');
    updateVisitorRecord(space, items, milk, { [itemName]: 'Oat milk' });
    const after = show('member');
    const byId = (list: typeof before, id: string) => list.find((r) => r.id === id);
    expect(byId(after, tea)).toBe(byId(before, tea));
    expect(byId(after, milk)).not.toBe(byId(before, milk));
    expect(byId(after, milk)?.values[itemName]).toBe('Oat milk');
    const asReader = byId(show('reader'), tea);
    expect(asReader).not.toBe(byId(after, tea));
    expect(asReader?.editable).toBe(false);
    expect(asReader?.authorName).toBe('Ben');
  });

  it('refuses every change in a space the person can only view', () => {
    const { own, space, app } = setUp('reader');
    const bens = createVisitorRecord(space, items, { [itemName]: 'Tea' }, { authorId: 'ben' });
    createVisitorRecord(own, items, { [itemName]: 'Milk' });
    expect(app().data.records.map((r) => [r.id, r.editable])).toEqual([[bens, false]]);
    expect(() => app().data.create(items, { [itemName]: 'Eggs' })).toThrow(/only view this space/);
    expect(() => app().data.update(items, bens, { [itemName]: 'x' })).toThrow(/only view/);
    expect(() => app().moveIntoSpace()).toThrow(/only view/);
    expect(readVisitorData(space).records).toHaveLength(1);
    expect(readVisitorData(own).records).toHaveLength(1);
  });
});

describe('whom a person field can name with a space shown', () => {
  it('is the space’s people as last listed, and the person is “me”', () => {
    const own = viewOf(new Y.Doc())();
    const space = viewOf(new Y.Doc(), 'ada')();
    const people = { ada: 'Ada', ben: 'Ben Okafor' };
    const { data } = combineAppData(own, space, definition, { role: 'member', people }, 'ada');
    expect(data.people).toEqual([
      { id: 'ada', name: 'Ada' },
      { id: 'ben', name: 'Ben Okafor' },
    ]);
    expect(data.me).toBe('ada');
  });

  it('is nobody known while the device hasn’t heard who is in the space, but still “me”', () => {
    const own = viewOf(new Y.Doc())();
    const space = viewOf(new Y.Doc(), 'ada')();
    const { data } = combineAppData(
      own,
      space,
      definition,
      { role: 'member', people: null },
      'ada',
    );
    expect(data.people).toBeUndefined();
    expect(data.me).toBe('ada');
  });
});

describe('a CSV import with a space shown', () => {
  it('puts a shared collection’s rows in the space as the person’s, all or none', () => {
    const { own, space, app } = setUp();
    const ids = app().data.createMany!(items, [{ [itemName]: 'Tea' }, { [itemName]: 'Jam' }]);
    expect(readVisitorData(space).records.map((r) => [r.id, r.authorId])).toEqual([
      [ids[0], 'ada'],
      [ids[1], 'ada'],
    ]);
    expect(() => app().data.createMany!(items, [{ [itemName]: 'Bread' }, {}])).toThrow(
      /Item 2 of the import/,
    );
    expect(readVisitorData(space).records).toHaveLength(2);
    app().data.createMany!(chores, [{ [choreName]: 'Dishes' }]);
    expect(readVisitorData(space).records).toHaveLength(3);
    expect(readVisitorData(own).records).toHaveLength(0);
  });

  it('refuses an import into a space the person can only view', () => {
    const { space, app } = setUp('reader');
    expect(() => app().data.createMany!(items, [{ [itemName]: 'Tea' }])).toThrow(/only view/);
    expect(readVisitorData(space).records).toHaveLength(0);
  });
});

describe('one sync badge for two documents', () => {
  it('says the worse of the two, adding up what waits', () => {
    expect(combineSync({ kind: 'saved' }, { kind: 'saved' })).toEqual({ kind: 'saved' });
    expect(combineSync({ kind: 'syncing', pending: 2 }, { kind: 'offline', pending: 3 })).toEqual({
      kind: 'offline',
      pending: 5,
    });
    expect(combineSync({ kind: 'saved' }, { kind: 'error', why: 'forbidden' })).toEqual({
      kind: 'error',
      why: 'forbidden',
    });
    expect(combineSync({ kind: 'saved' }, { kind: 'read-only' })).toEqual({ kind: 'saved' });
    expect(combineSync({ kind: 'saved' }, { kind: 'connecting', pending: 0 })).toEqual({
      kind: 'connecting',
      pending: 0,
    });
  });
});
