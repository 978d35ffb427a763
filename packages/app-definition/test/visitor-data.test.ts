import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  type Collection,
  createVisitorRecord,
  DefinitionError,
  fieldSchema,
  LOCAL_EDIT,
  mergeVisitorData,
  readVisitorData,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
  VISITOR_RECORD_LIMIT,
} from '../src/index';
import { newDoc } from './support';

const habits: Collection = {
  id: 'habits',
  name: 'Habits',
  fields: [
    fieldSchema.parse({ id: 'name', name: 'Habit', type: 'text', required: true }),
    fieldSchema.parse({
      id: 'when',
      name: 'Time of day',
      type: 'select',
      options: ['Morning', 'Evening'],
      default: 'Morning',
    }),
    fieldSchema.parse({ id: 'done', name: 'Done', type: 'boolean' }),
    fieldSchema.parse({ id: 'streak', name: 'Streak', type: 'number', default: 0 }),
  ],
  records: [],
  sharing: 'private',
  recordRule: 'anyone',
};

describe('visitor records', () => {
  it('creates records with coerced values and defaults, read back in creation order', () => {
    const doc = newDoc();
    createVisitorRecord(doc, habits, { name: 'Walk', done: 'true' }, { id: 'b', now: 20 });
    createVisitorRecord(doc, habits, { name: 'Read', streak: '4' }, { id: 'a', now: 10 });
    createVisitorRecord(doc, habits, { name: 'Stretch' }, { id: 'c', now: 20 });
    const data = readVisitorData(doc);
    expect(data.records.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(data.records[1]).toEqual({
      id: 'b',
      collectionId: 'habits',
      values: { name: 'Walk', when: 'Morning', done: true, streak: 0 },
      createdAt: 20,
      updatedAt: 20,
    });
    expect(data.records[0]?.values.streak).toBe(4);
  });

  it('makes a random id when none is given', () => {
    const doc = newDoc();
    const id = createVisitorRecord(doc, habits, { name: 'Walk' });
    expect(id).toMatch(/^[a-z2-7]{26}$/);
    expect(readVisitorData(doc).records[0]?.id).toBe(id);
  });

  it('refuses invalid values with a clear error and changes nothing', () => {
    const doc = newDoc();
    const before = Y.encodeStateAsUpdate(doc);
    expect(() => createVisitorRecord(doc, habits, { when: 'Morning' })).toThrow(
      new DefinitionError('Fill in Habit.'),
    );
    expect(() => createVisitorRecord(doc, habits, { name: 'x', when: 'Noon' })).toThrow(
      'Choose one of the options for Time of day.',
    );
    expect(() => createVisitorRecord(doc, habits, { name: 'x', streak: 'lots' })).toThrow(
      DefinitionError,
    );
    expect(Y.encodeStateAsUpdate(doc)).toEqual(before);
  });

  it('updates only the given fields, checked, and refuses a wrong collection or a gone record', () => {
    const doc = newDoc();
    const id = createVisitorRecord(doc, habits, { name: 'Walk' }, { now: 1 });
    updateVisitorRecord(doc, habits, id, { done: true, streak: '2', bogus: 'x' }, { now: 5 });
    expect(readVisitorData(doc).records[0]).toMatchObject({
      values: { name: 'Walk', when: 'Morning', done: true, streak: 2 },
      createdAt: 1,
      updatedAt: 5,
    });
    expect(() => updateVisitorRecord(doc, habits, id, { name: ' ' })).toThrow('Fill in Habit.');
    expect(() => updateVisitorRecord(doc, { ...habits, id: 'other' }, id, {})).toThrow(
      'That item belongs to another collection.',
    );
    expect(() => updateVisitorRecord(doc, habits, 'gone', { done: true })).toThrow(
      /no longer exists/,
    );
  });

  it('removes records, and says false for one already gone', () => {
    const doc = newDoc();
    const id = createVisitorRecord(doc, habits, { name: 'Walk' });
    expect(removeVisitorRecord(doc, id)).toBe(true);
    expect(removeVisitorRecord(doc, id)).toBe(false);
    expect(readVisitorData(doc).records).toEqual([]);
  });

  it(`stops at ${VISITOR_RECORD_LIMIT} records with a clear error`, () => {
    const doc = newDoc();
    doc.transact(() => {
      for (let i = 0; i < VISITOR_RECORD_LIMIT; i += 1)
        createVisitorRecord(doc, habits, { name: `h${i}` }, { id: `r${i}`, now: i });
    });
    expect(() => createVisitorRecord(doc, habits, { name: 'one more' })).toThrow(
      'You can keep at most 5,000 items in one app. Delete some to add more.',
    );
    removeVisitorRecord(doc, 'r0');
    expect(() => createVisitorRecord(doc, habits, { name: 'one more' })).not.toThrow();
  });

  it('runs every edit with the LOCAL_EDIT origin, so an UndoManager can undo them', () => {
    const doc = newDoc();
    const origins: unknown[] = [];
    doc.on('afterTransaction', (tr: Y.Transaction) => origins.push(tr.origin));
    const undo = new Y.UndoManager([doc.getMap('records'), doc.getMap('counters')], {
      trackedOrigins: new Set([LOCAL_EDIT]),
    });
    const id = createVisitorRecord(doc, habits, { name: 'Walk' });
    undo.stopCapturing();
    updateVisitorRecord(doc, habits, id, { done: true });
    undo.stopCapturing();
    setCounter(doc, 'c1', 3);
    expect(origins).toEqual([LOCAL_EDIT, LOCAL_EDIT, LOCAL_EDIT]);
    undo.undo();
    undo.undo();
    expect(readVisitorData(doc)).toMatchObject({
      counters: {},
      records: [{ values: { done: false } }],
    });
  });

  it('reads a damaged document tolerantly', () => {
    const doc = newDoc();
    const records = doc.getMap<unknown>('records');
    records.set('plain', 'not a record');
    const noCollection = new Y.Map<unknown>();
    records.set('orphan', noCollection);
    const odd = new Y.Map<unknown>();
    odd.set('collectionId', 'habits');
    const values = new Y.Map<unknown>();
    values.set('name', 'Ok');
    values.set('nested', { x: 1 });
    values.set('nan', Number.NaN);
    odd.set('values', values);
    records.set('odd', odd);
    doc.getMap('counters').set('bad', 'x');
    expect(readVisitorData(doc)).toEqual({
      records: [
        { id: 'odd', collectionId: 'habits', values: { name: 'Ok' }, createdAt: 0, updatedAt: 0 },
      ],
      counters: {},
    });
  });
});

describe('reading the same document again', () => {
  it('gives the same object for a record nothing changed, and a new one for each that changed', () => {
    const doc = newDoc();
    for (const [id, name] of [
      ['a', 'Read'],
      ['b', 'Walk'],
      ['c', 'Stretch'],
      ['d', 'Sleep'],
    ])
      createVisitorRecord(doc, habits, { name }, { id, now: 10 });
    const before = readVisitorData(doc).records;
    expect(readVisitorData(doc).records).toEqual(before);
    updateVisitorRecord(doc, habits, 'b', { streak: 3 }, { now: 20 });
    removeVisitorRecord(doc, 'c');
    // A change made on another device, arriving as an update.
    const other = newDoc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
    updateVisitorRecord(other, habits, 'd', { done: true }, { now: 30 });
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(other, Y.encodeStateVector(doc)));
    const after = readVisitorData(doc).records;
    expect(after.map((r) => r.id)).toEqual(['a', 'b', 'd']);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]?.values.streak).toBe(3);
    expect(after[2]).not.toBe(before[3]);
    expect(after[2]?.values.done).toBe(true);
  });

  it('reads anew a record whose entity was put back under its id, or changed in place', () => {
    const doc = newDoc();
    createVisitorRecord(doc, habits, { name: 'Read' }, { id: 'a', now: 10 });
    const first = readVisitorData(doc).records[0];
    const records = doc.getMap<Y.Map<unknown>>('records');
    // A device that skips the forms writes into the entity itself.
    records.get('a')?.set('authorId', 'someone');
    const second = readVisitorData(doc).records[0];
    expect(second).not.toBe(first);
    expect(second?.authorId).toBe('someone');
    doc.transact(() => {
      const entity = new Y.Map<unknown>();
      entity.set('collectionId', 'habits');
      entity.set('values', new Y.Map<unknown>([['name', 'Walk']]));
      records.set('a', entity);
    });
    expect(readVisitorData(doc).records[0]?.values).toEqual({ name: 'Walk' });
  });
});

describe('counters', () => {
  it('keeps whole numbers within bounds', () => {
    const doc = newDoc();
    setCounter(doc, 'water', 2.6);
    setCounter(doc, 'steps', 5e12);
    expect(readVisitorData(doc).counters).toEqual({ water: 3, steps: 1_000_000_000 });
    expect(() => setCounter(doc, 'x', Number.NaN)).toThrow(DefinitionError);
    expect(() => setCounter(doc, '', 1)).toThrow(DefinitionError);
  });
});

describe('merging an anonymous visitor’s data into their account', () => {
  it('keeps both sides’ records and edits', () => {
    const account = newDoc(1);
    const anonymous = newDoc(2);
    createVisitorRecord(account, habits, { name: 'Synced habit' }, { id: 'acc', now: 1 });
    createVisitorRecord(anonymous, habits, { name: 'Local habit' }, { id: 'loc', now: 2 });
    setCounter(anonymous, 'water', 4);
    // The same document on another device of the account, edited offline meanwhile.
    const otherDevice = newDoc(3);
    Y.applyUpdate(otherDevice, Y.encodeStateAsUpdate(account));
    updateVisitorRecord(otherDevice, habits, 'acc', { done: true });

    mergeVisitorData(account, anonymous);
    Y.applyUpdate(account, Y.encodeStateAsUpdate(otherDevice));
    const merged = readVisitorData(account);
    expect(merged.records.map((r) => [r.id, r.values.name, r.values.done])).toEqual([
      ['acc', 'Synced habit', true],
      ['loc', 'Local habit', false],
    ]);
    expect(merged.counters).toEqual({ water: 4 });

    // Merging again (a retry after a lost connection) changes nothing.
    mergeVisitorData(account, anonymous);
    expect(readVisitorData(account)).toEqual(merged);
  });

  it('converges whichever way the update travels', () => {
    const a = newDoc(1);
    const b = newDoc(2);
    createVisitorRecord(a, habits, { name: 'A' }, { id: 'a', now: 1 });
    createVisitorRecord(b, habits, { name: 'B' }, { id: 'b', now: 1 });
    updateVisitorRecord(a, habits, 'a', { streak: 1 });
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    expect(readVisitorData(a)).toEqual(readVisitorData(b));
    expect(readVisitorData(a).records).toHaveLength(2);
  });
});
