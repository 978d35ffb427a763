import {
  APP_TEMPLATES,
  type Collection,
  type ComponentProps,
  type ReadDefinition,
} from '@pipit/app-definition';
import * as engine from '@pipit/app-definition/formula';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { formulaComputer, indexRecords } from '../src/index';
import { GalleryView } from '../src/list-views/gallery-view';
import { chartSeries } from '../src/records';
import * as relations from '../src/relations';
import { findAll, renderStatic, textOf } from './support/render-static';

/*
 * What the reading list, the budget and the habit tracker templates work out from a visitor's
 * records: a gallery of covers, each category's sums, and how long since each habit's last
 * check-in. Records are made as a visitor's form would make them.
 */

function template(id: string): ReadDefinition {
  const found = APP_TEMPLATES.find((t) => t.id === id);
  if (!found) throw new Error(`No template ${id}.`);
  return found.build();
}

function collectionNamed(definition: ReadDefinition, name: string): Collection {
  const found = definition.collections.find((c) => c.name === name);
  if (!found) throw new Error(`No collection ${name}.`);
  return found;
}

/** Field ids of a collection by field name. */
function fieldsOf(collection: Collection): Record<string, string> {
  return Object.fromEntries(collection.fields.map((f) => [f.name, f.id]));
}

function listsOf(definition: ReadDefinition, collectionId: string) {
  return definition.screens
    .flatMap((s) => s.components.map((c) => ({ screen: s.title, component: c })))
    .flatMap(({ screen, component: c }) =>
      c.type === 'list' && c.props.collectionId === collectionId
        ? [{ screen, props: c.props as ComponentProps<'list'> }]
        : [],
    );
}

let next = 0;
const visitor = (collectionId: string, values: Record<string, unknown>) => {
  next += 1;
  return {
    id: `visitor-${next}`,
    collectionId,
    values: values as never,
    createdAt: next,
    updatedAt: next,
  };
};

/** Every record with its relations, rollups and formulas worked out, on the given day. */
function indexed(definition: ReadDefinition, records: ReturnType<typeof visitor>[], today: string) {
  const compute = formulaComputer(engine, definition, {
    today,
    now: Date.parse(`${today}T12:00:00Z`),
    timeZone: 'UTC',
  });
  return indexRecords(definition, records, compute, relations);
}

describe('the reading list template', () => {
  const definition = template('reading-list');
  const books = collectionNamed(definition, 'Books');
  const f = fieldsOf(books);

  it('has a Cover photo field, empty in the app’s own records, on the add form and the detail', () => {
    expect(books.fields.find((field) => field.name === 'Cover')?.type).toBe('image');
    expect(books.records.every((r) => r.values[f.Cover!] === undefined)).toBe(true);
    const components = definition.screens.flatMap((s) => s.components);
    const form = components.find((c) => c.type === 'form' && c.props.mode === 'create');
    expect(form?.type === 'form' && form.props.fieldIds).toContain(f.Cover);
    const detail = components.find((c) => c.type === 'detail');
    expect(detail?.type === 'detail' && detail.props.fieldIds).toContain(f.Cover);
  });

  it('shows every book in a gallery of covers, and keeps the board by status', () => {
    const lists = listsOf(definition, books.id);
    const gallery = lists.find((l) => l.props.view === 'gallery');
    expect(gallery?.screen).toBe('Covers');
    expect(gallery?.props.imageFieldId).toBe(f.Cover);
    expect(gallery?.props.filter).toBeNull();
    const board = lists.find((l) => l.props.view === 'board');
    expect(board?.props.groupFieldId).toBe(f.Status);
  });

  it('draws a placeholder with the title for a book without a cover', () => {
    const gallery = listsOf(definition, books.id).find((l) => l.props.view === 'gallery')!;
    const records = [
      { id: 'b1', values: { [f.Title!]: 'Dune', [f.Author!]: 'Frank Herbert' } },
    ] as const;
    const { tree } = renderStatic(
      createElement(GalleryView, {
        props: gallery.props,
        collection: books,
        records,
        titleField: books.fields.find((field) => field.id === f.Title)!,
        subtitleField: books.fields.find((field) => field.id === f.Author)!,
        context: { definition },
        open: () => undefined,
        emptyText: gallery.props.emptyText,
      }),
    );
    const placeholder = findAll(tree, (n) => String(n.props.className).includes('rt-gallery-none'));
    expect(placeholder).toHaveLength(1);
    expect(placeholder[0]!.props['aria-hidden']).toBe('true');
    // Without a picture, the title is read as text, not hidden behind an alt.
    expect(findAll(tree, (n) => n.tag === 'img')).toEqual([]);
    expect(textOf(tree)).toContain('DuneFrank Herbert');
  });
});

describe('the budget template', () => {
  const definition = template('budget');
  const expenses = collectionNamed(definition, 'Expenses');
  const categories = collectionNamed(definition, 'Categories');
  const e = fieldsOf(expenses);
  const c = fieldsOf(categories);
  const categoryId = (name: string) =>
    categories.records.find((r) => r.values[c.Category!] === name)!.id;
  const spend = (what: string, amount: number, category: string) =>
    visitor(expenses.id, {
      [e.What!]: what,
      [e.Amount!]: amount,
      [e.Category!]: categoryId(category),
      [e.Month!]: 'March',
    });

  it('links each expense to one of its categories', () => {
    const relation = expenses.fields.find((field) => field.id === e.Category);
    expect(relation).toMatchObject({ type: 'relation', target: categories.id, many: false });
    expect(categories.records.map((r) => r.values[c.Category!])).toContain('Groceries');
  });

  it('adds up, counts and averages the expenses of each category', () => {
    const index = indexed(
      definition,
      [
        spend('Rent', 900, 'Housing'),
        spend('Big shop', 120, 'Groceries'),
        spend('Market', 45.5, 'Groceries'),
      ],
      '2026-03-20',
    );
    const sums = Object.fromEntries(
      index
        .of(categories.id)
        .map((r) => [
          r.values[c.Category!],
          [r.values[c.Spent!], r.values[c.Expenses!], r.values[c['Average expense']!]],
        ]),
    );
    expect(sums.Housing).toEqual([900, 1, 900]);
    expect(sums.Groceries).toEqual([165.5, 2, 82.75]);
    expect(sums.Fun).toEqual([0, 0, null]);
    const groceries = index.byId(categoryId('Groceries'))!;
    expect(groceries.shown?.[c.Spent!]).toBe('$165.50');

    // The pie of the overview reads each expense's category by its name.
    const pie = definition.screens
      .flatMap((s) => s.components)
      .find((x) => x.type === 'chart' && x.props.kind === 'pie');
    expect(
      pie?.type === 'chart' && chartSeries(expenses, pie.props, index.of(expenses.id)),
    ).toEqual([
      { label: 'Housing', value: 900 },
      { label: 'Groceries', value: 165.5 },
    ]);
  });

  it('shows the categories with their sums in a table, biggest first', () => {
    const table = listsOf(definition, categories.id).find((l) => l.props.view === 'table');
    expect(table?.screen).toBe('Overview');
    expect(table?.props.columnFieldIds).toEqual([
      c.Category,
      c.Spent,
      c.Expenses,
      c['Average expense'],
    ]);
    expect(table?.props.sort).toEqual({ fieldId: c.Spent, direction: 'desc' });
  });
});

describe('the habit tracker template', () => {
  const definition = template('habit-tracker');
  const habits = collectionNamed(definition, 'Habits');
  const checkIns = collectionNamed(definition, 'Check-ins');
  const h = fieldsOf(habits);
  const k = fieldsOf(checkIns);

  it('works out each habit’s check-ins, the last one, the days since and a status', () => {
    const habit = (name: string) =>
      visitor(habits.id, { [h.Habit!]: name, [h['Time of day']!]: 'Any time' });
    const [stretch, read, walk, water, journal] = [
      habit('Stretch'),
      habit('Read'),
      habit('Walk'),
      habit('Water'),
      habit('Journal'),
    ];
    const checkIn = (of: { id: string }, date: string) =>
      visitor(checkIns.id, { [k.Habit!]: of.id, [k.Date!]: date, [k['How it went']!]: 'Steady' });
    const index = indexed(
      definition,
      [
        stretch!,
        read!,
        walk!,
        water!,
        journal!,
        // Logged out of order: the last check-in is the latest day, not the latest logged.
        checkIn(stretch!, '2026-11-29'),
        checkIn(stretch!, '2026-11-27'),
        checkIn(read!, '2026-11-28'),
        checkIn(walk!, '2026-11-27'),
        checkIn(water!, '2026-11-25'),
      ],
      '2026-11-29',
    );
    const row = (of: { id: string }) => {
      const values = index.byId(of.id)!.values;
      return [
        values[h['Check-ins']!],
        values[h['Last check-in']!],
        values[h['Days since last check-in']!],
        values[h['Check-in status']!],
      ];
    };
    expect(row(stretch!)).toEqual([2, '2026-11-29', 0, 'Checked in today']);
    expect(row(read!)).toEqual([1, '2026-11-28', 1, 'Due today']);
    expect(row(walk!)).toEqual([1, '2026-11-27', 2, 'Missed 1 day']);
    expect(row(water!)).toEqual([1, '2026-11-25', 4, 'Missed 3 days']);
    expect(row(journal!)).toEqual([0, null, null, 'No check-ins yet']);
    expect(index.byId(stretch!.id)!.formulaErrors).toBeUndefined();
  });

  it('names nothing a streak that is worked out, and lists each habit’s status', () => {
    const computed = habits.fields.filter((f) => f.type === 'formula' || f.type === 'rollup');
    expect(computed.map((f) => f.name)).toEqual([
      'Check-ins',
      'Last check-in',
      'Days since last check-in',
      'Check-in status',
    ]);
    const lists = listsOf(definition, habits.id);
    expect(lists.find((l) => l.screen === 'Habits')?.props.subtitleFieldId).toBe(
      h['Check-in status'],
    );
    expect(lists.find((l) => l.props.view === 'table')?.props.columnFieldIds).toEqual([
      h.Habit,
      h['Check-in status'],
      h['Last check-in'],
      h['Check-ins'],
    ]);
  });
});
