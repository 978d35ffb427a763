import { APP_TEMPLATES, type Component, type VisitorRecord } from '@pipit/app-definition';
import { createElement, useSyncExternalStore } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AppRuntime,
  type AppRuntimeProps,
  createMemoryDataStore,
  type MemoryDataStore,
  useMemoryRuntimeData,
} from '../src/index';
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

type HarnessProps = Omit<AppRuntimeProps, 'data' | 'colorMode' | 'user'> &
  Partial<Pick<AppRuntimeProps, 'user'>> & { store: MemoryDataStore };

/** The runtime over a memory store, as a host would wire it (re-rendering on every change). */
function Harness({ store, ...props }: HarnessProps) {
  const data = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return createElement(AppRuntime, { colorMode: 'light', user: { name: 'Ana' }, ...props, data });
}

function start(props: Partial<HarnessProps> = {}, records: VisitorRecord[] = []) {
  let now = 1;
  const store = props.store ?? createMemoryDataStore({ records }, { now: () => now++ });
  const root = createRoot(createElement(Harness, { definition: taskApp(), ...props, store }));
  return { root, store };
}

const noop = { preventDefault: () => undefined };
const all = (root: TestRoot, test: (n: HostNode) => boolean) => findAll(root.tree, test);
const one = (nodes: StaticNode[], test: (n: HostNode) => boolean, what = 'node') => {
  const found = findAll(nodes, test);
  if (found.length !== 1) throw new Error(`Expected one ${what}, found ${found.length}`);
  return found[0] as HostNode;
};
const button = (root: TestRoot, name: string) =>
  one(
    root.tree,
    (n) => n.tag === 'button' && (textOf([n]).trim() === name || n.props['aria-label'] === name),
    `button “${name}”`,
  );
const heading = (root: TestRoot) => textOf(all(root, (n) => n.tag === 'h2'));
const status = (root: TestRoot) =>
  textOf(all(root, (n) => n.props.className === 'rt-toast-region'));
const click = (root: TestRoot, name: string) =>
  root.act(() => (button(root, name).props.onClick as (e: object) => unknown)(noop));

/** The control inside the label that starts with a field's name. */
function control(root: TestRoot, fieldName: string): HostNode {
  const label = one(
    root.tree,
    (n) => n.tag === 'label' && textOf([n]).startsWith(fieldName),
    `label ${fieldName}`,
  );
  return one([label], (n) => ['input', 'select', 'textarea'].includes(n.tag), 'control');
}
const type = (root: TestRoot, fieldName: string, value: string | boolean) =>
  root.act(() =>
    (control(root, fieldName).props.onChange as (e: object) => void)({
      currentTarget: typeof value === 'boolean' ? { checked: value } : { value },
    }),
  );
const submit = (root: TestRoot) =>
  root.act(() =>
    (one(root.tree, (n) => n.tag === 'form').props.onSubmit as (e: object) => unknown)(noop),
  );

const ownWalk: VisitorRecord = {
  id: 'v1',
  collectionId: 'tasks',
  values: { title: 'Walk', minutes: 20, done: false, area: 'Home' },
  createdAt: 1,
  updatedAt: 1,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('AppRuntime: screens and navigation', () => {
  it('opens on the first screen with a title, a tab bar and filled-in templates', () => {
    const { root } = start();
    // The page's h1 (the app's name) is the host's: the installed app's bar shows it.
    expect(all(root, (n) => n.tag === 'h1')).toEqual([]);
    expect(heading(root)).toBe('Tasks');
    expect(textOf(all(root, (n) => n.tag === 'h3'))).toBe('Hello Ana');
    const tabs = one(root.tree, (n) => n.tag === 'nav');
    expect(tabs.props['aria-label']).toBe('Screens');
    const tabButtons = findAll([tabs], (n) => n.tag === 'button');
    expect(tabButtons.map((b) => [textOf([b]), b.props['aria-current']])).toEqual([
      ['📋Tasks', 'page'],
      ['☀️Today', undefined],
    ]);
    expect(all(root, (n) => n.props.className === 'rt-back')).toEqual([]);
    expect(root.focused).toBeNull();
  });

  it('switches tabs and moves focus to the new screen’s title', async () => {
    const { root } = start();
    await click(root, '☀️Today');
    expect(heading(root)).toBe('Today');
    expect(root.focused?.tag).toBe('h2');
    expect(root.focused?.props.tabIndex).toBe(-1);
    expect(textOf(root.focused ? [root.focused] : [])).toBe('Today');
  });

  it('opens a list item on its detail screen, with that record, and goes back', async () => {
    const { root } = start();
    await click(root, 'Write reportWork›');
    expect(heading(root)).toBe('Write report');
    expect(textOf(all(root, (n) => n.tag === 'dd'))).toBe('Write report90No—');
    expect(textOf(root.focused ? [root.focused] : [])).toBe('Write report');
    await click(root, '‹ Back');
    expect(heading(root)).toBe('Tasks');
    expect(textOf(root.focused ? [root.focused] : [])).toBe('Tasks');
  });

  it('needs no tab bar for one top-level screen, and has no h1 of its own inside a page', () => {
    const app = taskApp();
    const single = { ...app, screens: app.screens.filter((s) => s.id !== 'today') };
    const { root } = start({ definition: single, chrome: 'preview' });
    expect(all(root, (n) => n.tag === 'nav')).toEqual([]);
    expect(all(root, (n) => n.tag === 'h1')).toEqual([]);
  });

  it('starts on the screen asked for', () => {
    const { root } = start({ initialScreenId: 'today' });
    expect(heading(root)).toBe('Today');
  });
});

describe('AppRuntime: records', () => {
  it('lists creator records then the visitor’s own', () => {
    const { root } = start({}, [ownWalk]);
    const list = one(root.tree, (n) => n.tag === 'ul' && n.props['aria-label'] === 'Tasks');
    expect(
      findAll([list], (n) => n.props.className === 'rt-list-title').map((n) => textOf([n])),
    ).toEqual(['Water plants', 'Write report', 'Call Ana', 'Plan trip', 'Walk']);
  });

  it('offers nothing that would change a creator record, and says why once', async () => {
    const { root, store } = start();
    const before = store.getSnapshot();
    await click(root, 'Water plantsHome›');
    expect(heading(root)).toBe('Water plants');
    // Mark done, Delete and Edit (a screen whose only form edits this record) could only be
    // refused: they are not offered, and the screen says why, once.
    const buttons = textOf(all(root, (n) => n.tag === 'button'));
    for (const name of ['Mark done', 'Delete', 'Edit']) expect(buttons).not.toContain(name);
    const notes = all(root, (n) => n.props.role === 'note');
    expect(notes.map((n) => textOf([n]))).toEqual([
      'This item is part of the app and can’t be changed.',
    ]);
    expect(store.getSnapshot()).toBe(before);
  });

  it('changes, edits and deletes the visitor’s own record', async () => {
    const { root, store } = start({}, [ownWalk]);
    await click(root, 'WalkHome›');
    await click(root, 'Mark done');
    expect(status(root)).toBe('Done: Walk');
    expect(textOf(all(root, (n) => n.tag === 'dd'))).toBe('Walk20Yes—');

    await click(root, 'Edit');
    expect(heading(root)).toBe('Edit task');
    expect(control(root, 'Title').props.value).toBe('Walk');
    await type(root, 'Title', 'Run');
    await type(root, 'Minutes', '45');
    await submit(root);
    expect(status(root)).toBe('Saved Run');
    expect(heading(root)).toBe('Run');
    expect(store.getSnapshot().records[0]?.values).toMatchObject({
      title: 'Run',
      minutes: 45,
      done: true,
    });

    await click(root, 'Delete');
    expect(status(root)).toBe('Deleted');
    expect(heading(root)).toBe('Tasks');
    expect(store.getSnapshot().records).toEqual([]);
  });
});

describe('AppRuntime: forms', () => {
  it('shows every problem next to its field, tied to it, and focuses the first', async () => {
    const { root, store } = start();
    await click(root, 'Add a task');
    expect(heading(root)).toBe('New task');
    await type(root, 'Minutes', 'ten');
    await type(root, 'Site', 'javascript:alert(1)');
    await submit(root);
    const invalid = all(root, (n) => n.props['aria-invalid'] === true);
    expect(invalid.map((n) => n.tag)).toEqual(['input', 'input', 'input']);
    for (const input of invalid) {
      const describedBy = input.props['aria-describedby'];
      const message = one(root.tree, (n) => n.props.id === describedBy, 'error message');
      expect(message.props.className).toBe('rt-field-error');
    }
    expect(textOf(all(root, (n) => n.props.className === 'rt-field-error'))).toBe(
      '⚠️ Fill in Title.⚠️ Minutes must be a number, like 12 or 3.5.⚠️ Use a web address starting with https:// for Site.',
    );
    expect(root.focused).toBe(control(root, 'Title'));
    expect(store.getSnapshot().records).toEqual([]);
  });

  it.each([
    ['Area', 'Garden', 'Choose one of the options for Area.'],
    ['Due', '31/12/2025', 'Enter Due as a date (YYYY-MM-DD).'],
    ['Mail', 'ana@', 'Enter an email address like name@example.com for Mail.'],
  ])('checks a %s field', async (field, value, message) => {
    const { root } = start();
    await click(root, 'Add a task');
    await type(root, 'Title', 'Walk');
    await type(root, field, value);
    await submit(root);
    expect(textOf(all(root, (n) => n.props.className === 'rt-field-error'))).toBe(`⚠️ ${message}`);
  });

  it('saves a valid form, runs its action and clears the form', async () => {
    const { root, store } = start();
    await click(root, 'Add a task');
    await type(root, 'Title', '  Walk ');
    await type(root, 'Minutes', '20');
    await type(root, 'Done', true);
    await type(root, 'Area', 'Work');
    await type(root, 'Due', '2025-06-01');
    await type(root, 'Mail', 'ana@example.com');
    await submit(root);
    expect(store.getSnapshot().records.map((r) => r.values)).toEqual([
      {
        title: 'Walk',
        minutes: 20,
        done: true,
        area: 'Work',
        due: '2025-06-01',
        notes: null,
        site: null,
        mail: 'ana@example.com',
      },
    ]);
    expect(status(root)).toBe('Added Walk');
    expect(heading(root)).toBe('Tasks');
    expect(textOf(root.tree)).toContain('Walk');
  });

  it('says so in the form when the data refuses the record', async () => {
    const app = taskApp();
    const { root } = start({
      definition: app,
      store: createMemoryDataStore({
        records: Array.from({ length: 5_000 }, (_, i) => ({ ...ownWalk, id: `v${i}` })),
      }),
    });
    await click(root, 'Add a task');
    await type(root, 'Title', 'One more');
    await submit(root);
    const alert = one(root.tree, (n) => n.props.role === 'alert');
    expect(textOf([alert])).toContain('at most 5,000 items');
    expect(heading(root)).toBe('New task');
  });
});

describe('AppRuntime: checklist, counter, timer, AI', () => {
  it('ticks the visitor’s own items; creator items show but are read-only', async () => {
    const { root, store } = start({ initialScreenId: 'today' }, [ownWalk]);
    const boxes = all(root, (n) => n.tag === 'input' && n.props.type === 'checkbox');
    expect(boxes.map((b) => [b.props.checked, b.props.disabled])).toEqual([
      [true, true],
      [false, true],
      [false, true],
      [true, true],
      [false, false],
    ]);
    await root.act(() => (boxes[4]?.props.onChange as () => void)());
    expect(store.getSnapshot().records[0]?.values.done).toBe(true);
    const after = all(root, (n) => n.tag === 'input' && n.props.type === 'checkbox');
    expect(after[4]?.props.checked).toBe(true);
  });

  it('keeps a counter in the visitor’s data, never below zero', async () => {
    const { root, store } = start({ initialScreenId: 'today' });
    expect(button(root, 'Decrease by 1').props.disabled).toBe(true);
    await click(root, 'Increase by 1');
    await click(root, 'Increase by 1');
    await click(root, 'Decrease by 1');
    expect(store.getSnapshot().counters).toEqual({ counter: 1 });
    expect(textOf(all(root, (n) => n.tag === 'output'))).toBe('1');
  });

  it('runs a countdown only while started, announces pause and the end, and resets', async () => {
    vi.useFakeTimers({ now: 0 });
    const { root } = start({ initialScreenId: 'today' });
    const timer = () => textOf(all(root, (n) => n.props.role === 'timer'));
    const announced = () =>
      textOf(
        all(root, (n) => n.props.className === 'rt-visually-hidden' && n.props.role === 'status'),
      );
    expect(timer()).toBe('0:03');
    expect(vi.getTimerCount()).toBe(0);
    await click(root, 'Start');
    expect(announced()).toBe('Started.');
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_100);
    root.render();
    expect(timer()).toBe('0:02');
    await click(root, 'Pause');
    expect(announced()).toBe('Paused at 2 seconds.');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    root.render();
    expect(timer()).toBe('0:02');
    await click(root, 'Resume');
    vi.advanceTimersByTime(2_000);
    root.render();
    expect(timer()).toBe('0:00');
    expect(announced()).toBe('Focus: time’s up.');
    expect(vi.getTimerCount()).toBe(0);
    expect(button(root, 'Start again')).toBeTruthy();
    await click(root, 'Reset');
    expect(timer()).toBe('0:03');
    expect(button(root, 'Reset').props.disabled).toBe(true);
  });

  it('keeps a running timer counting while its screen is not shown', async () => {
    vi.useFakeTimers({ now: 0 });
    const { root } = start({ initialScreenId: 'today' });
    await click(root, 'Start');
    await click(root, '📋Tasks');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_500);
    await click(root, '☀️Today');
    expect(textOf(all(root, (n) => n.props.role === 'timer'))).toBe('0:02');
    expect(button(root, 'Pause')).toBeTruthy();
  });

  it('says AI is not configured when the host gives no runAi', () => {
    const { root } = start({ initialScreenId: 'today' });
    expect(button(root, '✨ Summarise').props.disabled).toBe(true);
    expect(textOf(root.tree)).toContain('AI is not configured on this server');
  });

  it('shows an AI answer in a live region', async () => {
    const runAi = vi.fn(async () => ({
      status: 'done' as const,
      output: { kind: 'text' as const, text: 'Three tasks, one done.' },
    }));
    const { root } = start({ initialScreenId: 'today', runAi });
    await click(root, '✨ Summarise');
    const region = one(root.tree, (n) => n.props.className === 'rt-ai-result');
    expect(region.props['aria-live']).toBe('polite');
    expect(textOf([region])).toBe('Three tasks, one done.');
    expect(runAi).toHaveBeenCalledWith(
      expect.objectContaining({
        aiActionId: 'ai-summary',
        bindings: expect.objectContaining({ 'user.name': 'Ana' }),
      }),
    );
  });

  it('shows a queued run as queued, then as the host reports it', async () => {
    const runAi = vi.fn(async () => ({ status: 'queued' as const, runId: 'q1' }));
    const { root, store } = start({ initialScreenId: 'today', runAi });
    await click(root, '✨ Summarise');
    const region = () => one(root.tree, (n) => n.props.className === 'rt-ai-result');
    expect(textOf([region()])).toBe('Queued: this runs when you’re back online.');
    const props = { definition: taskApp(), store, initialScreenId: 'today', runAi };
    root.render(
      createElement(Harness, {
        ...props,
        aiRuns: [
          {
            id: 'q1',
            aiActionId: 'ai-summary',
            recordId: null,
            state: 'failed',
            text: null,
            problem: 'Quota used up.',
          },
        ],
      }),
    );
    expect(textOf([region()])).toBe('Quota used up.');
  });

  it('shows the last run kept on the device for this AI action when the app opens again', () => {
    const runAi = vi.fn();
    const { root } = start({
      initialScreenId: 'today',
      runAi,
      aiRuns: [
        {
          id: 'old',
          aiActionId: 'ai-summary',
          recordId: null,
          state: 'done',
          text: 'Earlier answer',
          problem: null,
        },
        {
          id: 'new',
          aiActionId: 'ai-summary',
          recordId: null,
          state: 'done',
          text: 'Latest answer',
          problem: null,
        },
        {
          id: 'other',
          aiActionId: 'ai-summary',
          recordId: 'r9',
          state: 'failed',
          text: null,
          problem: 'Another record’s run',
        },
      ],
    });
    const region = one(root.tree, (n) => n.props.className === 'rt-ai-result');
    expect(textOf([region])).toBe('Latest answer');
    expect(runAi).not.toHaveBeenCalled();
  });

  it('asks a visitor who is not signed in to sign in instead of offering the run', () => {
    const runAi = vi.fn();
    const { root } = start({
      initialScreenId: 'today',
      runAi,
      aiSignInHref: '/login?redirect=%2Fx',
    });
    expect(() => button(root, '✨ Summarise')).toThrow();
    const link = one(root.tree, (n) => n.tag === 'a' && n.props.href === '/login?redirect=%2Fx');
    expect(textOf([link])).toBe('Sign in');
    expect(textOf(root.tree)).toContain('Sign in to use AI in this app.');
  });
});

describe('AppRuntime: robustness', () => {
  it('shows a placeholder for an unknown or throwing component and keeps the rest working', async () => {
    const broken = { id: 'boom', type: 'heading', props: null } as unknown as Component;
    const { root } = start({
      definition: taskApp({
        components: [
          broken,
          {
            id: 'x',
            type: 'invalid',
            originalType: 'carousel',
            problem: 'This kind is not known.',
          },
          component('orphan-button', 'button', { label: 'Nothing yet' }),
          component('bad-link', 'button', { label: 'Broken', actionId: 'gone' }),
        ],
      }),
    });
    expect(root.html).toContain('This component could not be shown: it failed to render.');
    expect(root.html).toContain('This component could not be shown: this kind is not known.');
    await click(root, 'Nothing yet');
    expect(status(root)).toBe('This button doesn’t do anything yet.');
    await click(root, 'Broken');
    expect(status(root)).toBe('This action no longer exists.');
    await click(root, 'Add a task');
    expect(heading(root)).toBe('New task');
  });

  it('shows a screen deleted by a republish as the one below it', async () => {
    const { root, store } = start();
    await click(root, 'Add a task');
    const app = taskApp();
    root.render(
      createElement(Harness, {
        definition: { ...app, screens: app.screens.filter((s) => s.id !== 'add') },
        store,
      }),
    );
    expect(heading(root)).toBe('Tasks');
  });

  it('lets a message go after a while, with no timer left behind', async () => {
    vi.useFakeTimers({ now: 0 });
    const { root } = start({}, [ownWalk]);
    await click(root, 'WalkHome›');
    await click(root, 'Mark done');
    expect(status(root)).not.toBe('');
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10_000);
    root.render();
    expect(status(root)).toBe('');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('runs on memory data from useMemoryRuntimeData', async () => {
    function Demo() {
      const data = useMemoryRuntimeData({ counters: { counter: 4 } });
      return createElement(AppRuntime, {
        definition: taskApp(),
        data,
        colorMode: 'dark',
        user: null,
        initialScreenId: 'today',
      });
    }
    const root = createRoot(createElement(Demo));
    expect(textOf(all(root, (n) => n.tag === 'output'))).toBe('4');
    await click(root, 'Increase by 1');
    expect(textOf(all(root, (n) => n.tag === 'output'))).toBe('5');
    const app = root.tree[0] as HostNode;
    expect(app.props['data-color-mode']).toBe('dark');
  });
});

describe('AppRuntime: the habit tracker template, end to end', () => {
  it('adds a habit, adopts an idea, ticks a habit and counts them', async () => {
    const template = APP_TEMPLATES.find((t) => t.id === 'habit-tracker');
    if (!template) throw new Error('The habit tracker template is missing.');
    const { root, store } = start({ definition: template.build() });
    const tabs = findAll([one(root.tree, (n) => n.tag === 'nav')], (n) => n.tag === 'button');
    expect(tabs.map((t) => textOf([t]))).toEqual(['🌱Today', '📋Habits', '📈Progress']);
    expect(textOf(root.tree)).toContain('Nothing to tick yet.');

    await click(root, '📋Habits');
    await click(root, 'Add a habit');
    expect(control(root, 'Time of day').props.value).toBe('Any time');
    await submit(root);
    expect(textOf(all(root, (n) => n.props.className === 'rt-field-error'))).toBe(
      '⚠️ Fill in Habit.',
    );
    await type(root, 'Habit', 'Stretch');
    await type(root, 'Time of day', 'Morning');
    await submit(root);
    expect(status(root)).toBe('Habit added');
    expect(heading(root)).toBe('Habits');

    await click(root, 'Need ideas?');
    await click(root, 'Drink a glass of water on waking›');
    expect(textOf(all(root, (n) => n.tag === 'dd'))).toContain('You wake up a little dehydrated');
    await click(root, 'Add to my habits');
    expect(status(root)).toBe('Added to your habits');
    expect(heading(root)).toBe('Ideas');
    expect(store.getSnapshot().records.map((r) => Object.values(r.values)[0])).toEqual([
      'Stretch',
      'Drink a glass of water on waking',
    ]);

    await click(root, '🌱Today');
    const boxes = all(root, (n) => n.tag === 'input' && n.props.type === 'checkbox');
    expect(boxes.map((b) => b.props.disabled)).toEqual([false, false]);
    await root.act(() => (boxes[0]?.props.onChange as () => void)());
    expect(Object.values(store.getSnapshot().records[0]?.values ?? {})).toContain(true);

    await click(root, '📈Progress');
    const stat = all(root, (n) => n.props.className === 'rt-stat-value').map((n) => textOf([n]));
    expect(stat[0]).toBe('2');
  });
});
