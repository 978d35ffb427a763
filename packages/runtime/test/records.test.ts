import type { CreatorRecord } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import { aggregateRecords, indexRecords, queryRecords } from '../src/index';
import { chartSeries, matchesFilter } from '../src/records';
import { taskApp } from './support/app-fixture';
import { tasks } from './support/fixture';

const records = tasks.records;
const ids = (list: CreatorRecord[]) => list.map((r) => r.id);

describe('aggregateRecords', () => {
  it.each([
    ['count', 4],
    ['sum', 105],
    ['average', 35],
    ['min', 5],
    ['max', 90],
  ] as const)('%s of minutes is %d (empty values are skipped)', (aggregate, expected) => {
    expect(aggregateRecords(records, aggregate, 'minutes')).toBe(expected);
  });

  it('reads numeric text and ignores other text', () => {
    const mixed = [
      { id: 'a', values: { n: '2.5' } },
      { id: 'b', values: { n: 'abc' } },
      { id: 'c', values: { n: 4 } },
    ];
    expect(aggregateRecords(mixed, 'sum', 'n')).toBe(6.5);
    expect(aggregateRecords(mixed, 'min', 'n')).toBe(2.5);
  });

  it('has nothing to say without numbers or a field', () => {
    expect(aggregateRecords([], 'average', 'minutes')).toBeNull();
    expect(aggregateRecords([], 'max', 'minutes')).toBeNull();
    expect(aggregateRecords([], 'sum', 'minutes')).toBe(0);
    expect(aggregateRecords(records, 'sum', null)).toBeNull();
    expect(aggregateRecords([], 'count', null)).toBe(0);
  });
});

describe('queryRecords', () => {
  it('filters', () => {
    const f = (op: string, fieldId: string, value = '') =>
      ids(queryRecords(records, { filter: { op, fieldId, value } as never }));
    expect(f('equals', 'area', 'home')).toEqual(['r1', 'r3', 'r4']);
    expect(f('notEquals', 'area', 'Home')).toEqual(['r2']);
    expect(f('contains', 'title', 'PL')).toEqual(['r1', 'r4']);
    expect(f('greaterThan', 'minutes', '9')).toEqual(['r1', 'r2']);
    expect(f('lessThan', 'minutes', '10')).toEqual(['r3']);
    expect(f('isTrue', 'done')).toEqual(['r1', 'r4']);
    expect(f('isFalse', 'done')).toEqual(['r2', 'r3']);
    expect(f('isEmpty', 'minutes')).toEqual(['r4']);
    expect(f('isNotEmpty', 'minutes')).toEqual(['r1', 'r2', 'r3']);
  });

  it('sorts numbers as numbers and keeps empty values last', () => {
    const sort = (direction: 'asc' | 'desc') =>
      ids(queryRecords(records, { sort: { fieldId: 'minutes', direction } }));
    expect(sort('asc')).toEqual(['r3', 'r1', 'r2', 'r4']);
    expect(sort('desc')).toEqual(['r2', 'r1', 'r3', 'r4']);
    const titles = ids(queryRecords(records, { sort: { fieldId: 'title', direction: 'asc' } }));
    expect(titles).toEqual(['r3', 'r4', 'r1', 'r2']);
  });

  it('filters then sorts, without changing the input', () => {
    const before = ids(records);
    const result = queryRecords(records, {
      filter: { fieldId: 'area', op: 'equals', value: 'Home' },
      sort: { fieldId: 'title', direction: 'desc' },
    });
    expect(ids(result)).toEqual(['r1', 'r4', 'r3']);
    expect(ids(records)).toEqual(before);
    expect(matchesFilter(records[0]!, { fieldId: 'area', op: 'equals', value: 'Work' })).toBe(
      false,
    );
  });
});

describe('chartSeries', () => {
  it('groups by the label field and reduces each group', () => {
    const props = { labelFieldId: 'area', valueFieldId: 'minutes' } as const;
    expect(chartSeries(tasks, { ...props, aggregate: 'sum' })).toEqual([
      { label: 'Home', value: 15 },
      { label: 'Work', value: 90 },
    ]);
    expect(chartSeries(tasks, { ...props, aggregate: 'average' })).toEqual([
      { label: 'Home', value: 7.5 },
      { label: 'Work', value: 90 },
    ]);
    expect(chartSeries(tasks, { ...props, labelFieldId: null, aggregate: 'count' })).toEqual([
      { label: 'All', value: 4 },
    ]);
  });
});

describe('indexRecords with a shared space’s records', () => {
  it('marks another member’s record of an author-only collection as locked to its author', () => {
    const definition = taskApp();
    const base = { collectionId: 'tasks', createdAt: 1, updatedAt: 1 };
    const index = indexRecords(definition, [
      { ...base, id: 'mine', values: { title: 'Mine' } },
      { ...base, id: 'theirs', values: { title: 'Theirs' }, authorId: 'ben', editable: false },
    ]);
    expect(index.byId('mine')).toMatchObject({ isOwn: true });
    expect(index.byId('mine')).not.toHaveProperty('locked');
    expect(index.byId('theirs')).toMatchObject({ isOwn: false, locked: 'author' });
  });
});
