import type { ReadDefinition, ReadScreen } from '@pipit/app-definition';

/**
 * What a screen's create forms start with, by field id, as the form's controls hold it: a
 * calendar's day opens its add screen with that day's date filled in.
 */
export type FormPrefill = Readonly<Record<string, string>>;

/** One place in the running app: a screen and the record it shows (a list item's), if any. */
export interface NavEntry {
  screenId: string;
  recordId: string | null;
  /** Values the screen's create forms start with, when it was opened with some. */
  prefill?: FormPrefill;
}

/** The back stack; the last entry is the current one, and there is always at least one. */
export interface NavState {
  stack: NavEntry[];
}

export type NavAction =
  /** Opens a screen on top of the current one (a button's navigate step, a list item). */
  | { type: 'navigate'; screenId: string; recordId: string | null; prefill?: FormPrefill }
  | { type: 'back' }
  /** Switches to a top-level screen from the tab bar: the stack starts again there. */
  | { type: 'tab'; screenId: string };

/** Deeper than any real flow; older entries are dropped so endless navigate loops stay bounded. */
export const MAX_STACK_DEPTH = 50;

export function navigationReducer(state: NavState, action: NavAction): NavState {
  switch (action.type) {
    case 'navigate': {
      const top = state.stack[state.stack.length - 1];
      const same = top && top.screenId === action.screenId && top.recordId === action.recordId;
      if (same && !action.prefill) return state;
      const entry: NavEntry = { screenId: action.screenId, recordId: action.recordId };
      if (action.prefill) entry.prefill = action.prefill;
      return { stack: [...state.stack, entry].slice(-MAX_STACK_DEPTH) };
    }
    case 'back':
      return state.stack.length > 1 ? { stack: state.stack.slice(0, -1) } : state;
    case 'tab': {
      const only = state.stack.length === 1 ? state.stack[0] : undefined;
      if (only && only.screenId === action.screenId && only.recordId === null) return state;
      return { stack: [{ screenId: action.screenId, recordId: null }] };
    }
  }
}

/**
 * The screens in the tab bar: the first screen, and every screen nothing leads to (no navigate
 * step, no list item, no calendar's day). Screens reached from a button or a list — a detail, a form — are steps
 * inside a tab, reached and left with Back, so a phone's tab bar holds only a few top-level places.
 */
export function tabScreens(definition: ReadDefinition): ReadScreen[] {
  const targets = new Set<string>();
  for (const action of definition.actions) {
    for (const step of action.steps) {
      if (step.type === 'navigate' && step.props.screenId) targets.add(step.props.screenId);
    }
  }
  for (const screen of definition.screens) {
    for (const component of screen.components) {
      if (component.type !== 'list') continue;
      if (component.props.detailScreenId) targets.add(component.props.detailScreenId);
      // A list saved before views existed has no addScreenId (the installed app runs a published
      // version without parsing it again).
      if (component.props.addScreenId) targets.add(component.props.addScreenId);
    }
  }
  return definition.screens.filter((screen, i) => i === 0 || !targets.has(screen.id));
}

/** Where the app opens: the screen asked for when it exists, else the first. */
export function initialNavigation(definition: ReadDefinition, screenId?: string | null): NavState {
  const start = definition.screens.find((s) => s.id === screenId) ?? definition.screens[0] ?? null;
  return { stack: [{ screenId: start?.id ?? '', recordId: null }] };
}

/**
 * The entry to show: the top of the stack, or — when its screen was deleted by a republish while
 * the app was open — the nearest entry below whose screen still exists, else the first screen.
 */
export function currentEntry(state: NavState, definition: ReadDefinition): NavEntry {
  const exists = (id: string) => definition.screens.some((s) => s.id === id);
  for (let i = state.stack.length - 1; i >= 0; i -= 1) {
    const entry = state.stack[i];
    if (entry && exists(entry.screenId)) return entry;
  }
  return { screenId: definition.screens[0]?.id ?? '', recordId: null };
}
