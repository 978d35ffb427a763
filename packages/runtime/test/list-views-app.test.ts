import type { ReadDefinition, VisitorRecord } from '@pipit/app-definition';
import { createElement, useSyncExternalStore } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_MESSAGES, AppRuntime, AppScreen, createMemoryDataStore } from '../src/index';
import type { MemoryDataStore } from '../src/index';
import { taskApp } from './support/app-fixture';
import { component } from './support/fixture';
import {
  createRoot,
  findAll,
  type HostNode,
  type StaticNode,
  type TestRoot,
  textOf,
} from './support/render-static';
import { loadAllParts } from './support/parts';

// Charts, timers, views and the photo picker are chunks of their own (parts.ts).
await loadAllParts();

/** What a space's reader is told (the host says it; here, any such words). */
const READER = 'You can only look at this space’s items.';

/** The task app with its Tasks list shown in a view. */
function appWith(listProps: Record<string, unknown>): ReadDefinition {
  const app = taskApp();
  const [tasks, ...rest] = app.screens;
  const components = tasks!.components.map((c) =>
    c.id === 'list'
      ? component('list', 'list', {
          collectionId: 'tasks',
          titleFieldId: 'title',
          subtitleFieldId: 'area',
          detailScreenId: 'detail',
          ...listProps,
        })
      : c,
  );
  return { ...app, screens: [{ ...tasks!, components }, ...rest] };
}

/**
 * The runtime over a memory store; `viewer` makes the person a space's reader: nothing of theirs
 * may change and nothing may be added (what the host says for a space they can only view).
 */
function Harness({
  store,
  definition,
  viewer,
}: {
  store: MemoryDataStore;
  definition: ReadDefinition;
  viewer: boolean;
}) {
  const data = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const shown = viewer
    ? {
        ...data,
        records: data.records.map((r) => ({ ...r, editable: false, lockedWhy: READER })),
        createBlocked: () => READER,
      }
    : data;
  return createElement(AppRuntime, { definition, data: shown, colorMode: 'light', user: null });
}

async function start(
  listProps: Record<string, unknown>,
  records: VisitorRecord[] = [],
  viewer = false,
) {
  let now = 1;
  const store = createMemoryDataStore({ records }, { now: () => now++ });
  const definition = appWith(listProps);
  const root = createRoot(createElement(Harness, { store, definition, viewer }));
  // The view's code comes in its own chunk (the first render of each shows a loading card).
  await root.act(() => undefined);
  return { root, store };
}

const visitorTask = (id: string, values: VisitorRecord['values']): VisitorRecord => ({
  id,
  collectionId: 'tasks',
  values,
  createdAt: 1,
  updatedAt: 1,
});
const walk = visitorTask('v1', { title: 'Walk', minutes: 20, done: false, area: 'Home' });

const noop = { preventDefault: () => undefined };
const all = (root: TestRoot, test: (n: HostNode) => boolean) => findAll(root.tree, test);
function one(nodes: StaticNode[], test: (n: HostNode) => boolean, what: string): HostNode {
  const found = findAll(nodes, test);
  if (found.length !== 1) throw new Error(`Expected one ${what}, found ${found.length}`);
  return found[0]!;
}
const named = (name: string) => (n: HostNode) =>
  n.tag === 'button' && (n.props['aria-label'] === name || textOf([n]).trim() === name);
const press = (root: TestRoot, node: HostNode, event: object = noop) =>
  root.act(() => (node.props.onClick as (e: object) => unknown)(event));
const heading = (root: TestRoot) => textOf(all(root, (n) => n.tag === 'h2'));
const toast = (root: TestRoot) => textOf(all(root, (n) => n.props.className === 'rt-toast'));
const storedArea = (store: MemoryDataStore) => store.getSnapshot().records[0]?.values.area;

afterEach(() => {
  vi.useRealTimers();
});

describe('a list’s search and quick filter', () => {
  it('narrow the list as a visitor types and picks, and say how many are left', async () => {
    const root = createRoot(
      createElement(Harness, {
        store: createMemoryDataStore(),
        definition: appWith({}),
        viewer: false,
      }),
    );
    const items = () =>
      all(root, (n) => n.props.className === 'rt-list-item').map((li) => textOf([li]));
    const search = () => one(root.tree, (n) => n.tag === 'input', 'search box');
    const type = (text: string) =>
      root.act(() =>
        (search().props.onChange as (e: object) => void)({ currentTarget: { value: text } }),
      );
    expect(search().props).toMatchObject({ type: 'search', 'aria-label': 'Search Tasks' });
    await type('CALL');
    expect(items()).toEqual(['Call AnaHome›']);
    expect(textOf(all(root, (n) => n.props.role === 'status'))).toContain('1 of 4 shown');
    await type('');
    const work = one(root.tree, named('Work'), 'Work chip');
    expect(work.props['aria-pressed']).toBe(false);
    await press(root, work);
    expect(items()).toEqual(['Write reportWork›']);
    expect(one(root.tree, named('Work'), 'Work chip').props['aria-pressed']).toBe(true);
    await type('plants');
    expect(textOf(root.tree)).toContain('Nothing matches your search.');
  });
});

describe('a long plain list', () => {
  it('draws its first rows, says how many are left, and draws more when asked; search finds any', async () => {
    const tasks = Array.from({ length: 320 }, (_, i) =>
      visitorTask(`v${i}`, { title: `Task ${i + 1}`, minutes: 5, done: false, area: 'Home' }),
    );
    const { root } = await start({}, tasks);
    const items = () => all(root, (n) => n.props.className === 'rt-list-item');
    const more = () => all(root, (n) => n.tag === 'button' && /^Show \d+ more/.test(textOf([n])));
    expect(items()).toHaveLength(50);
    // The app's 4 creator records come first, then the visitor's 320.
    expect(textOf(more())).toBe('Show 200 more of 274');
    await press(root, more()[0]!);
    expect(items()).toHaveLength(250);
    await press(root, more()[0]!);
    expect(items()).toHaveLength(324);
    expect(more()).toEqual([]);
    const search = one(root.tree, (n) => n.tag === 'input', 'search box');
    await root.act(() =>
      (search.props.onChange as (e: object) => void)({ currentTarget: { value: 'Task 300' } }),
    );
    expect(items().map((li) => textOf([li]))).toEqual(['Task 300Home›']);
  });
});

describe('a long table', () => {
  it('draws its first rows in the order asked for, and more when asked', async () => {
    const tasks = Array.from({ length: 120 }, (_, i) =>
      visitorTask(`v${i}`, { title: `Task ${i + 1}`, minutes: i, done: false, area: 'Home' }),
    );
    const { root } = await start({ view: 'table', columnFieldIds: ['title', 'minutes'] }, tasks);
    const rows = () => all(root, (n) => n.tag === 'th' && n.props.scope === 'row');
    const more = () => all(root, (n) => n.tag === 'button' && /^Show \d+ more/.test(textOf([n])));
    expect(rows()).toHaveLength(50);
    expect(textOf(more())).toBe('Show 74 more of 74');
    // Sorted by minutes, longest first: the rows drawn are the first of every record's order.
    const sortButton = () =>
      one(
        all(root, (n) => n.tag === 'th' && textOf([n]).startsWith('Minutes')),
        (n) => n.tag === 'button',
        'sort',
      );
    await press(root, sortButton());
    await press(root, sortButton());
    expect(textOf([rows()[0]!])).toBe('Task 120');
    await press(root, more()[0]!);
    expect(rows()).toHaveLength(124);
    expect(more()).toEqual([]);
  });
});

describe('a table', () => {
  it('sorts by a header, either way, and opens a row’s record', async () => {
    const { root } = await start({ view: 'table', columnFieldIds: ['title', 'minutes'] }, [walk]);
    const firstCells = () =>
      all(root, (n) => n.tag === 'th' && n.props.scope === 'row').map((th) => textOf([th]));
    const header = (name: string) =>
      one(root.tree, (n) => n.tag === 'th' && textOf([n]).startsWith(name), `${name} header`);
    expect(firstCells()).toEqual(['Water plants', 'Write report', 'Call Ana', 'Plan trip', 'Walk']);
    expect(header('Minutes').props['aria-sort']).toBeUndefined();

    const sortButton = () => one([header('Minutes')], (n) => n.tag === 'button', 'sort');
    await press(root, sortButton());
    expect(header('Minutes').props['aria-sort']).toBe('ascending');
    // Numbers as numbers; the one without minutes last, either way.
    expect(firstCells()).toEqual(['Call Ana', 'Water plants', 'Walk', 'Write report', 'Plan trip']);
    await press(root, sortButton());
    expect(header('Minutes').props['aria-sort']).toBe('descending');
    expect(firstCells()).toEqual(['Write report', 'Walk', 'Water plants', 'Call Ana', 'Plan trip']);

    const row = one(
      root.tree,
      (n) => n.tag === 'tr' && textOf([n]).startsWith('Walk'),
      'Walk’s row',
    );
    await press(root, row);
    expect(heading(root)).toBe('Walk');
  });
});

describe('a board', () => {
  const columnOf = (root: TestRoot, label: string) =>
    one(
      root.tree,
      (n) =>
        String(n.props.className).startsWith('rt-board-column') && textOf([n]).startsWith(label),
      `column ${label}`,
    );
  const cardOf = (root: TestRoot, title: string) =>
    one(
      root.tree,
      (n) =>
        n.tag === 'li' &&
        String(n.props.className).startsWith('rt-board-card') &&
        textOf([n]).startsWith(title),
      `card ${title}`,
    );
  const drag = async (root: TestRoot, title: string, to: string) => {
    const transfer = { setData: vi.fn(), getData: () => '', effectAllowed: '', dropEffect: '' };
    await root.act(() =>
      (cardOf(root, title).props.onDragStart as (e: object) => void)({ dataTransfer: transfer }),
    );
    await root.act(() =>
      (columnOf(root, to).props.onDragOver as (e: object) => void)({
        ...noop,
        dataTransfer: transfer,
      }),
    );
    expect(String(columnOf(root, to).props.className)).toContain('rt-board-column-over');
    await root.act(() => (columnOf(root, to).props.onDrop as (e: object) => void)(noop));
    return transfer;
  };

  it('has a column per choice and one for none, and moves a card with “Move to…”', async () => {
    const { root, store } = await start({ view: 'board', groupFieldId: 'area' }, [walk]);
    const labels = all(root, (n) => String(n.props.className).startsWith('rt-board-column')).map(
      (n) => n.props['aria-label'],
    );
    expect(labels).toEqual(['Home, 4 items', 'Work, 1 item', 'No Area, 0 items']);

    const menu = one([cardOf(root, 'Walk')], (n) => n.tag === 'ul', 'move menu');
    expect(menu.props['aria-label']).toBe('Move “Walk” to');
    expect(findAll([menu], (n) => n.tag === 'button').map((b) => textOf([b]))).toEqual([
      'Work',
      'No Area',
    ]);
    await press(root, one([menu], named('Work'), 'Work'));
    expect(storedArea(store)).toBe('Work');
    expect(toast(root)).toBe('“Walk” moved to Work.');
    expect(textOf([columnOf(root, 'Work')])).toContain('Walk');
    // Focus follows the card to its new column, on its own “Move to…”.
    expect(root.focused?.props['data-move-for']).toBe('v1');
  });

  it('moves a card dragged to another column', async () => {
    const { root, store } = await start({ view: 'board', groupFieldId: 'area' }, [walk]);
    expect(cardOf(root, 'Walk').props.draggable).toBe(true);
    const transfer = await drag(root, 'Walk', 'No Area');
    expect(transfer.setData).toHaveBeenCalledWith('text/plain', 'v1');
    expect(storedArea(store)).toBeNull();
    expect(textOf([columnOf(root, 'No Area')])).toContain('Walk');
  });

  it('moves nothing the person may not change, and says why in the words forms use', async () => {
    const { root, store } = await start({ view: 'board', groupFieldId: 'area' }, [walk]);
    // A creator record: part of the app.
    expect(cardOf(root, 'Water plants').props.draggable).toBe(false);
    expect(textOf([cardOf(root, 'Water plants')])).toContain(ACTION_MESSAGES.creatorRecord);
    await drag(root, 'Water plants', 'Work');
    expect(toast(root)).toBe(ACTION_MESSAGES.creatorRecord);
    expect(textOf([columnOf(root, 'Home')])).toContain('Water plants');

    // A space's reader: even their own card stays.
    const viewer = await start({ view: 'board', groupFieldId: 'area' }, [walk], true);
    expect(textOf([cardOf(viewer.root, 'Walk')])).toContain(READER);
    expect(findAll([cardOf(viewer.root, 'Walk')], named('Work'))).toEqual([]);
    await drag(viewer.root, 'Walk', 'Work');
    expect(toast(viewer.root)).toBe(READER);
    expect(storedArea(viewer.store)).toBe('Home');
    expect(storedArea(store)).toBe('Home');
  });

  it('shows the cards in the editor’s preview and moves nothing there', async () => {
    const root = createRoot(
      createElement(AppScreen, {
        definition: appWith({ view: 'board', groupFieldId: 'area' }),
        screenId: 'tasks',
        colorMode: 'light',
      }),
    );
    await root.act(() => undefined);
    expect(all(root, (n) => n.props.className === 'rt-board-title')).toHaveLength(3);
    expect(all(root, (n) => n.tag === 'details')).toEqual([]);
    expect(all(root, (n) => n.tag === 'li' && n.props.draggable === true)).toEqual([]);
  });
});

describe('a calendar', () => {
  const full = (date: Date) =>
    new Intl.DateTimeFormat(undefined, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    }).format(date);
  const title = (root: TestRoot) =>
    textOf(all(root, (n) => n.props.className === 'rt-calendar-title'));
  const calendar = { view: 'calendar', dateFieldId: 'due', addScreenId: 'add' };
  const dated = visitorTask('v2', { title: 'Dentist', due: '2026-03-12', area: 'Home' });

  it('places records on their day, a month or a week at a time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 10, 12));
    const { root } = await start(calendar, [dated]);
    expect(title(root)).toBe(
      new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }).format(
        new Date(2026, 2, 1),
      ),
    );
    const cell = one(
      root.tree,
      (n) =>
        n.tag === 'td' && findAll([n], named(`Add on ${full(new Date(2026, 2, 12))}`)).length > 0,
      '12 March',
    );
    expect(textOf([cell])).toContain('Dentist');
    // Today is marked for everyone, and the creator's tasks have no date: said once.
    expect(all(root, (n) => n.props['aria-current'] === 'date')).toHaveLength(1);
    expect(textOf(root.tree)).toContain('4 items have no date');

    await press(root, one(root.tree, named('Week'), 'Week'));
    const week = all(root, (n) => String(n.props.className).startsWith('rt-calendar-week-day'));
    expect(week).toHaveLength(7);
    expect(textOf([week[3]!])).toContain('Dentist');
    await press(root, one(root.tree, named('Next week'), 'Next week'));
    expect(textOf(all(root, (n) => n.tag === 'ol'))).not.toContain('Dentist');
    await press(root, one(root.tree, named('Today'), 'Today'));
    await press(root, one(root.tree, named('Month'), 'Month'));
    await press(root, one(root.tree, named('Previous month'), 'Previous month'));
    expect(all(root, (n) => n.tag === 'tr').length).toBeGreaterThanOrEqual(5);
    expect(textOf(all(root, (n) => n.tag === 'table'))).not.toContain('Dentist');
  });

  it('opens the add screen from a day with its date filled in, and shows the record there', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 10, 12));
    const { root, store } = await start(calendar);
    await press(root, one(root.tree, named(`Add on ${full(new Date(2026, 2, 20))}`), 'day'));
    expect(heading(root)).toBe('New task');
    const control = (name: string) => {
      const label = one(root.tree, (n) => n.tag === 'label' && textOf([n]).startsWith(name), name);
      return one([label], (n) => n.tag === 'input', `${name} input`);
    };
    expect(control('Due').props.value).toBe('2026-03-20');
    await root.act(() =>
      (control('Title').props.onChange as (e: object) => void)({
        currentTarget: { value: 'Haircut' },
      }),
    );
    await root.act(() =>
      (one(root.tree, (n) => n.tag === 'form', 'form').props.onSubmit as (e: object) => unknown)(
        noop,
      ),
    );
    expect(store.getSnapshot().records[0]?.values).toMatchObject({
      title: 'Haircut',
      due: '2026-03-20',
    });
    // The form's action goes back: the calendar, with the new record on its day.
    await root.act(() => undefined);
    expect(heading(root)).toBe('Tasks');
    expect(textOf(all(root, (n) => n.tag === 'table'))).toContain('Haircut');
  });

  it('offers no day to add on where the person may not add', async () => {
    const viewer = await start(calendar, [dated], true);
    expect(all(viewer.root, (n) => String(n.props['aria-label']).startsWith('Add on'))).toEqual([]);
    const none = await start({ ...calendar, addScreenId: null }, [dated]);
    expect(all(none.root, (n) => String(n.props['aria-label']).startsWith('Add on'))).toEqual([]);
    expect(textOf(none.root.tree)).toContain(full(new Date()));
  });
});

describe('a gallery', () => {
  it('shows safe pictures lazily with the title as their text, and never an unsafe address', async () => {
    const { root } = await start({ view: 'gallery', imageFieldId: 'site' }, [
      visitorTask('v1', { title: 'Fern', site: 'https://example.com/fern.jpg' }),
      visitorTask('v2', { title: 'Trap', site: 'javascript:alert(1)' }),
    ]);
    const images = all(root, (n) => n.tag === 'img');
    expect(images.map((i) => i.props)).toEqual([
      expect.objectContaining({
        src: 'https://example.com/fern.jpg',
        alt: 'Fern',
        loading: 'lazy',
        referrerPolicy: 'no-referrer',
      }),
    ]);
    expect(root.html).not.toContain('javascript:');
    expect(textOf(root.tree)).toContain('Trap');
    const card = one(root.tree, (n) => n.tag === 'button' && textOf([n]) === 'Fern', 'Fern');
    await press(root, card);
    expect(heading(root)).toBe('Fern');
  });

  it('draws its first cards of a long gallery, and more when asked', async () => {
    const plants = Array.from({ length: 80 }, (_, i) =>
      visitorTask(`v${i}`, { title: `Plant ${i + 1}`, site: `https://example.com/${i}.jpg` }),
    );
    const { root } = await start({ view: 'gallery', imageFieldId: 'site' }, plants);
    const cards = () => all(root, (n) => n.props.className === 'rt-gallery-item');
    const more = () => all(root, (n) => n.tag === 'button' && /^Show \d+ more/.test(textOf([n])));
    expect(cards()).toHaveLength(50);
    expect(textOf(more())).toBe('Show 34 more of 34');
    await press(root, more()[0]!);
    expect(cards()).toHaveLength(84);
    expect(more()).toEqual([]);
  });
});
