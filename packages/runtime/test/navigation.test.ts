import { describe, expect, it } from 'vitest';
import {
  currentEntry,
  initialNavigation,
  MAX_STACK_DEPTH,
  type NavState,
  navigationReducer,
  tabScreens,
} from '../src/index';
import { taskApp } from './support/app-fixture';
import { component } from './support/fixture';

const definition = taskApp();
const at = (...entries: Array<[string, string | null]>): NavState => ({
  stack: entries.map(([screenId, recordId]) => ({ screenId, recordId })),
});

describe('navigationReducer', () => {
  it('pushes screens with their record and goes back one at a time', () => {
    let state = initialNavigation(definition);
    expect(state).toEqual(at(['tasks', null]));
    state = navigationReducer(state, { type: 'navigate', screenId: 'detail', recordId: 'r2' });
    state = navigationReducer(state, { type: 'navigate', screenId: 'edit', recordId: 'r2' });
    expect(state).toEqual(at(['tasks', null], ['detail', 'r2'], ['edit', 'r2']));
    state = navigationReducer(state, { type: 'back' });
    expect(state).toEqual(at(['tasks', null], ['detail', 'r2']));
    state = navigationReducer(state, { type: 'back' });
    const root = navigationReducer(state, { type: 'back' });
    expect(root).toBe(state);
    expect(root).toEqual(at(['tasks', null]));
  });

  it('does not push the screen already shown', () => {
    const state = at(['tasks', null], ['detail', 'r1']);
    expect(navigationReducer(state, { type: 'navigate', screenId: 'detail', recordId: 'r1' })).toBe(
      state,
    );
    expect(
      navigationReducer(state, { type: 'navigate', screenId: 'detail', recordId: 'r2' }).stack,
    ).toHaveLength(3);
  });

  it('carries what a screen’s create forms start with, each time it is opened with some', () => {
    const prefill = { due: '2026-03-20' };
    const home = at(['tasks', null]);
    const adding = navigationReducer(home, {
      type: 'navigate',
      screenId: 'add',
      recordId: null,
      prefill,
    });
    expect(adding.stack.at(-1)).toEqual({ screenId: 'add', recordId: null, prefill });
    // Another day from the same screen is another form to fill in.
    const again = navigationReducer(adding, {
      type: 'navigate',
      screenId: 'add',
      recordId: null,
      prefill: { due: '2026-03-21' },
    });
    expect(again.stack).toHaveLength(3);
  });

  it('starts again from a tab', () => {
    const deep = at(['tasks', null], ['detail', 'r1'], ['edit', 'r1']);
    expect(navigationReducer(deep, { type: 'tab', screenId: 'today' })).toEqual(
      at(['today', null]),
    );
    expect(navigationReducer(deep, { type: 'tab', screenId: 'tasks' })).toEqual(
      at(['tasks', null]),
    );
    const home = at(['tasks', null]);
    expect(navigationReducer(home, { type: 'tab', screenId: 'tasks' })).toBe(home);
  });

  it('keeps the stack bounded', () => {
    let state = initialNavigation(definition);
    for (let i = 0; i < MAX_STACK_DEPTH * 3; i += 1)
      state = navigationReducer(state, { type: 'navigate', screenId: 'detail', recordId: `r${i}` });
    expect(state.stack).toHaveLength(MAX_STACK_DEPTH);
    expect(state.stack.at(-1)?.recordId).toBe(`r${MAX_STACK_DEPTH * 3 - 1}`);
  });
});

describe('tabScreens', () => {
  it('holds the first screen and the screens nothing leads to', () => {
    expect(tabScreens(definition).map((s) => s.id)).toEqual(['tasks', 'today']);
  });

  it('leaves out a calendar’s add screen', () => {
    const [tasks, ...rest] = definition.screens;
    const calendar = component('cal', 'list', { view: 'calendar', addScreenId: 'today' });
    const withCalendar = {
      ...definition,
      screens: [{ ...tasks!, components: [...tasks!.components, calendar] }, ...rest],
    };
    expect(tabScreens(withCalendar).map((s) => s.id)).toEqual(['tasks']);
  });

  it('keeps the first screen even when something leads to it', () => {
    const loop = {
      ...definition,
      actions: [
        ...definition.actions,
        {
          id: 'home',
          name: 'Home',
          steps: [{ id: 'x', type: 'navigate', props: { screenId: 'tasks' } }] as never,
        },
      ],
    };
    expect(tabScreens(loop).map((s) => s.id)).toEqual(['tasks', 'today']);
  });
});

describe('where the app is', () => {
  it('opens the screen asked for, or the first', () => {
    expect(initialNavigation(definition, 'today')).toEqual(at(['today', null]));
    expect(initialNavigation(definition, 'gone')).toEqual(at(['tasks', null]));
  });

  it('falls back below a screen a republish deleted', () => {
    const state = at(['tasks', null], ['detail', 'r1'], ['gone', 'r1']);
    expect(currentEntry(state, definition)).toEqual({ screenId: 'detail', recordId: 'r1' });
    expect(currentEntry(at(['gone', null]), definition)).toEqual({
      screenId: 'tasks',
      recordId: null,
    });
  });
});
