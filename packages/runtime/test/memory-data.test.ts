import { DefinitionError, VISITOR_RECORD_LIMIT } from '@pipit/app-definition';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryDataStore } from '../src/index';
import { tasks } from './support/fixture';

describe('createMemoryDataStore', () => {
  it('creates, updates and removes checked records, with a new snapshot each time', () => {
    let now = 1;
    const store = createMemoryDataStore({}, { now: () => now++ });
    const listener = vi.fn();
    store.subscribe(listener);
    const first = store.getSnapshot();
    const id = first.create(tasks, { title: 'Walk', minutes: '5' });
    const second = store.getSnapshot();
    expect(second).not.toBe(first);
    expect(second.records).toEqual([
      {
        id,
        collectionId: 'tasks',
        values: {
          title: 'Walk',
          minutes: 5,
          done: false,
          area: null,
          due: null,
          notes: null,
          site: null,
          mail: null,
        },
        createdAt: 1,
        updatedAt: 1,
      },
    ]);
    // Methods act on the latest data whichever snapshot they are called on.
    first.update(tasks, id, { done: 'yes' });
    expect(store.getSnapshot().records[0]).toMatchObject({ values: { done: true }, updatedAt: 2 });
    second.remove(id);
    expect(store.getSnapshot().records).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('refuses bad values, unknown records and other collections, changing nothing', () => {
    const store = createMemoryDataStore();
    const data = store.getSnapshot();
    expect(() => data.create(tasks, { minutes: 3 })).toThrow(new DefinitionError('Fill in Title.'));
    const id = data.create(tasks, { title: 'A' });
    const before = store.getSnapshot();
    expect(() => before.update(tasks, id, { mail: 'x' })).toThrow(DefinitionError);
    expect(() => before.update(tasks, 'gone', { title: 'B' })).toThrow(
      'That item no longer exists.',
    );
    expect(() => before.update({ ...tasks, id: 'other' }, id, { title: 'B' })).toThrow(
      'That item belongs to another collection.',
    );
    expect(store.getSnapshot()).toBe(before);
  });

  it('keeps counters and stops at the record limit', () => {
    const records = Array.from({ length: VISITOR_RECORD_LIMIT }, (_, i) => ({
      id: `r${i}`,
      collectionId: 'tasks',
      values: { title: `t${i}` },
      createdAt: i,
      updatedAt: i,
    }));
    const store = createMemoryDataStore({ records });
    store.getSnapshot().setCounter('c', 2.4);
    expect(store.getSnapshot().counters).toEqual({ c: 2 });
    expect(() => store.getSnapshot().create(tasks, { title: 'one more' })).toThrow(
      /at most 5,000 items/,
    );
  });

  it('adds many records at once, or none when one is refused', () => {
    const writes: unknown[] = [];
    const store = createMemoryDataStore({}, { now: () => 10, onWrite: (w) => writes.push(w) });
    const ids = store.getSnapshot().createMany!(tasks, [{ title: 'Walk' }, { title: 'Read' }]);
    expect(store.getSnapshot().records.map((r) => [r.id, r.values.title, r.createdAt])).toEqual([
      [ids[0], 'Walk', 10],
      [ids[1], 'Read', 11],
    ]);
    expect(writes).toHaveLength(2);
    expect(() => store.getSnapshot().createMany!(tasks, [{ title: 'Run' }, { title: '' }])).toThrow(
      /^Item 2 of the import: /,
    );
    expect(store.getSnapshot().records).toHaveLength(2);
    expect(writes).toHaveLength(2);
  });
});
