import { type Collection, fieldSchema } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import { matchesSearch, narrowRecords, quickFilterOf } from '../src/list-query';
import { boardColumns } from '../src/list-views/board-columns';
import {
  dayKey,
  dayOfValue,
  inPeriod,
  monthWeeks,
  recordsByDay,
  shiftAnchor,
  startOfWeek,
  weekDays,
} from '../src/list-views/calendar-grid';
import { ariaSort, nextSort, tableColumns } from '../src/list-views/table-sort';
import { sortRecords } from '../src/records';
import { tasks } from './support/fixture';

const area = tasks.fields.find((f) => f.id === 'area')!;
const ids = (records: ReadonlyArray<{ id: string }>) => records.map((r) => r.id);
const keys = (days: ReadonlyArray<{ key: string }>) => days.map((d) => d.key);

describe('board columns', () => {
  const records = [
    { id: 'a', values: { area: 'Work' } },
    { id: 'b', values: { area: 'Home' } },
    { id: 'c', values: { area: null } },
    { id: 'd', values: { area: 'Garden' } },
    { id: 'e', values: { area: 'Work' } },
  ];

  it('has a column per choice in the field’s order, then one for records without a choice', () => {
    const columns = boardColumns(records, area);
    expect(columns.map((c) => [c.label, c.value, ids(c.records)])).toEqual([
      ['Home', 'Home', ['b']],
      ['Work', 'Work', ['a', 'e']],
      // A value that is no longer a choice has no column of its own.
      ['No Area', null, ['c', 'd']],
    ]);
  });

  it('leaves out the empty column of a required field when nothing is in it', () => {
    const required = { ...area, required: true };
    const full = boardColumns(records.slice(0, 2), required);
    expect(full.map((c) => c.label)).toEqual(['Home', 'Work']);
    expect(boardColumns(records, required).map((c) => c.label)).toContain('No Area');
    expect(boardColumns([], area).map((c) => c.records.length)).toEqual([0, 0, 0]);
  });

  it('makes one column of a choice written twice', () => {
    const twice = { ...area, options: ['Home', 'Work', 'Home'] };
    expect(boardColumns(records, twice).map((c) => c.label)).toEqual(['Home', 'Work', 'No Area']);
  });
});

describe('calendar grid', () => {
  it('starts weeks on Monday, also for a Sunday and across a month and a year', () => {
    expect(dayKey(startOfWeek(new Date(2026, 2, 1)))).toBe('2026-02-23');
    expect(dayKey(startOfWeek(new Date(2026, 2, 2)))).toBe('2026-03-02');
    expect(keys(weekDays(new Date(2027, 0, 1)))).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });

  it('covers a month with whole weeks, marking the days of the months around it', () => {
    // March 2026 starts on a Sunday and ends on a Tuesday: six weeks.
    const march = monthWeeks(new Date(2026, 2, 17));
    expect(march).toHaveLength(6);
    expect(march[0]!.map((d) => [d.key, d.inMonth])[0]).toEqual(['2026-02-23', false]);
    expect(march[0]![6]).toMatchObject({ key: '2026-03-01', inMonth: true });
    expect(march[5]!.map((d) => d.key)).toEqual([
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-04',
      '2026-04-05',
    ]);
    expect(march.flat().filter((d) => d.inMonth)).toHaveLength(31);
    // February 2021 starts on a Monday and has 28 days: exactly four weeks.
    const february = monthWeeks(new Date(2021, 1, 10));
    expect(february.map((w) => w[0]!.key)).toEqual([
      '2021-02-01',
      '2021-02-08',
      '2021-02-15',
      '2021-02-22',
    ]);
    expect(february.flat().every((d) => d.inMonth)).toBe(true);
  });

  it('goes a month on to the first of the next (never skipping a short one) and a week on by seven days', () => {
    expect(dayKey(shiftAnchor(new Date(2026, 0, 31), 'month', 1))).toBe('2026-02-01');
    expect(dayKey(shiftAnchor(new Date(2026, 0, 15), 'month', -1))).toBe('2025-12-01');
    expect(dayKey(shiftAnchor(new Date(2026, 2, 28), 'week', 1))).toBe('2026-04-04');
    expect(dayKey(shiftAnchor(new Date(2026, 0, 2), 'week', -1))).toBe('2025-12-26');
  });

  it('knows which days a month or a week shows', () => {
    const anchor = new Date(2026, 2, 4);
    expect(inPeriod(anchor, 'month', new Date(2026, 2, 31))).toBe(true);
    expect(inPeriod(anchor, 'month', new Date(2026, 3, 1))).toBe(false);
    expect(inPeriod(anchor, 'week', new Date(2026, 2, 8))).toBe(true);
    expect(inPeriod(anchor, 'week', new Date(2026, 2, 9))).toBe(false);
  });

  it('reads the day of a date, or of a date and time, and nothing else', () => {
    expect(dayOfValue('2026-03-09')).toBe('2026-03-09');
    expect(dayOfValue(' 2026-03-09T18:30 ')).toBe('2026-03-09');
    expect(dayOfValue('2025-02-30')).toBeNull();
    expect(dayOfValue('9 March')).toBeNull();
    expect(dayOfValue(20260309)).toBeNull();
    expect(dayOfValue(null)).toBeNull();
    // A time with its zone is an instant: its day is the one on this device.
    const instant = new Date(2026, 2, 9, 23, 30);
    expect(dayOfValue(instant.toISOString())).toBe('2026-03-09');
  });

  it('groups records by day and leaves out those without a date', () => {
    const byDay = recordsByDay(
      [
        { id: 'a', values: { due: '2026-03-09' } },
        { id: 'b', values: { due: null } },
        { id: 'c', values: { due: '2026-03-09' } },
        { id: 'd', values: { due: '2026-03-10' } },
      ],
      'due',
    );
    expect([...byDay].map(([day, list]) => [day, ids(list)])).toEqual([
      ['2026-03-09', ['a', 'c']],
      ['2026-03-10', ['d']],
    ]);
  });
});

describe('visitor search and quick filter', () => {
  const fields = tasks.fields;

  it('matches any value as shown or as stored, in any case, but not yes/no', () => {
    const big = { values: { title: 'Rent', minutes: 1200, done: false } };
    expect(matchesSearch(big, fields, 'RENT')).toBe(true);
    expect(matchesSearch(big, fields, '1200')).toBe(true);
    expect(matchesSearch(big, fields, '1,200')).toBe(true);
    expect(matchesSearch(big, fields, 'no')).toBe(false);
    expect(matchesSearch(big, fields, '   ')).toBe(true);
    expect(matchesSearch({ values: { area: 'Work' } }, fields, 'wor')).toBe(true);
  });

  it('filters by the first select field’s choices, else a yes/no field', () => {
    const filter = quickFilterOf(tasks, null);
    expect(filter?.field.id).toBe('area');
    expect(filter?.choices.map((c) => c.label)).toEqual(['Home', 'Work']);
    // A board by area already splits by it: its quick filter is the next one, yes or no.
    const next = quickFilterOf(tasks, 'area');
    expect(next?.field.id).toBe('done');
    expect(next?.choices).toEqual([
      { value: 'yes', label: 'Yes' },
      { value: 'no', label: 'No' },
    ]);
    const plain: Collection = {
      ...tasks,
      fields: [fieldSchema.parse({ id: 't', name: 'T', type: 'text' })],
    };
    expect(quickFilterOf(plain, null)).toBeNull();
  });

  it('keeps what the search and the chosen choice both keep, in order', () => {
    const records = tasks.records;
    const byArea = quickFilterOf(tasks, null);
    const byDone = quickFilterOf(tasks, 'area');
    expect(ids(narrowRecords(records, fields, byArea, { text: '', choice: 'Home' }))).toEqual([
      'r1',
      'r3',
      'r4',
    ]);
    expect(ids(narrowRecords(records, fields, byArea, { text: 'CALL', choice: 'Home' }))).toEqual([
      'r3',
    ]);
    expect(ids(narrowRecords(records, fields, byArea, { text: 'report', choice: 'Home' }))).toEqual(
      [],
    );
    expect(ids(narrowRecords(records, fields, byArea, { text: 'trip', choice: null }))).toEqual([
      'r4',
    ]);
    expect(ids(narrowRecords(records, fields, byDone, { text: '', choice: 'no' }))).toEqual([
      'r2',
      'r3',
    ]);
  });
});

describe('table columns and sorting', () => {
  it('shows the chosen columns that exist, in their order, else the first six fields', () => {
    expect(tableColumns(tasks, ['area', 'gone', 'title']).map((f) => f.id)).toEqual([
      'area',
      'title',
    ]);
    expect(tableColumns(tasks, []).map((f) => f.id)).toEqual([
      'title',
      'minutes',
      'done',
      'area',
      'due',
      'notes',
    ]);
    expect(tableColumns(tasks, undefined)).toHaveLength(6);
  });

  it('sorts by a pressed header, the other way when pressed again', () => {
    const first = nextSort(null, 'minutes');
    expect(first).toEqual({ fieldId: 'minutes', direction: 'asc' });
    const again = nextSort(first, 'minutes');
    expect(again).toEqual({ fieldId: 'minutes', direction: 'desc' });
    expect(nextSort(again, 'title')).toEqual({ fieldId: 'title', direction: 'asc' });
    expect([ariaSort(again, 'minutes'), ariaSort(again, 'title'), ariaSort(null, 'x')]).toEqual([
      'descending',
      undefined,
      undefined,
    ]);
    // Numbers as numbers, the empty one last either way.
    expect(ids(sortRecords(tasks.records, first))).toEqual(['r3', 'r1', 'r2', 'r4']);
    expect(ids(sortRecords(tasks.records, again))).toEqual(['r2', 'r1', 'r3', 'r4']);
  });
});
