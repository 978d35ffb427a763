import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_STORAGE_KEY,
  FIRST_SCREEN_AT_MOST_MS,
  FIRST_SCREEN_KEY_PREFIX,
  FIRST_SCREEN_SCRIPT,
  FIRST_SCREEN_STYLE_ATTRIBUTE,
  firstScreenDay,
  type KeptFirstScreen,
} from '../src/first-screen';
import { HEAD_SCRIPTS } from '../src/head-scripts';

const APP = 'a'.repeat(26);
const BUILD = '/assets/app-abc.js';

interface Element {
  id: string;
  inert: boolean;
  hidden: string | null;
  html: string;
  children: Element[];
  removed: boolean;
}

/** Runs the page's first-screen script against a stand-in page; what it appended, if anything. */
function run(kept: Partial<KeptFirstScreen> | null, page: { dark?: boolean; path?: string } = {}) {
  const storage = new Map<string, string>([[ACCOUNT_STORAGE_KEY, JSON.stringify({ id: 'ada' })]]);
  if (kept) storage.set(`${FIRST_SCREEN_KEY_PREFIX}${APP}`, JSON.stringify(kept));
  const appended: Element[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const styled = { style: { cssText: '' }, getAttribute: () => 'color: red' };
  const document = {
    documentElement: { dataset: {} },
    querySelector: () => ({ getAttribute: () => BUILD }),
    createElement: () => {
      const element = {
        id: '',
        inert: false,
        hidden: null as string | null,
        html: '',
        children: [] as Element[],
        removed: false,
        setAttribute(name: string, value: string) {
          if (name === 'aria-hidden') element.hidden = value;
        },
        set innerHTML(html: string) {
          element.html = html;
        },
        querySelectorAll: (selector: string) =>
          selector === `[${FIRST_SCREEN_STYLE_ATTRIBUTE}]` ? [styled] : [],
        appendChild: (child: Element) => element.children.push(child),
        remove: () => {
          element.removed = true;
        },
      };
      return element;
    },
    body: { appendChild: (element: Element) => appended.push(element) },
  };
  // The script as the page runs it, with the page's globals handed in.
  new Function(
    'location',
    'localStorage',
    'document',
    'matchMedia',
    'setTimeout',
    FIRST_SCREEN_SCRIPT,
  )(
    { pathname: page.path ?? `/apps/${APP}/pwa` },
    { getItem: (key: string) => storage.get(key) ?? null },
    document,
    () => ({ matches: page.dark ?? false }),
    (run: () => void, ms: number) => timers.push({ run, ms }),
  );
  return { appended, styled: styled.style.cssText, timers };
}

const good: KeptFirstScreen = {
  v: 1,
  viewer: 'ada',
  day: firstScreenDay(new Date()),
  dark: false,
  theme: '',
  build: BUILD,
  html: '<div class="app-host">Today</div>',
};

describe('the first-screen head script', () => {
  it('is one of the head scripts the policy allows', () => {
    expect(HEAD_SCRIPTS['first-screen']).toBe(FIRST_SCREEN_SCRIPT);
  });

  it('shows what was kept, inert and hidden from assistive technology, for a while at most', () => {
    const { appended, styled, timers } = run(good);
    // An element that takes a tap, around the inert screen (an inert one lets taps through).
    expect(appended).toHaveLength(1);
    const [shown] = appended;
    expect(shown).toMatchObject({ id: 'pipit-first-screen', hidden: 'true', inert: false });
    expect(shown?.children).toMatchObject([{ inert: true, html: good.html }]);
    expect(styled).toBe('color: red');
    expect(timers.map((t) => t.ms)).toEqual([FIRST_SCREEN_AT_MOST_MS]);
    timers[0]?.run();
    expect(shown?.removed).toBe(true);
    // An app with one scheme shows in either.
    expect(run({ ...good, dark: null }, { dark: true }).appended).toHaveLength(1);
  });

  it('shows nothing when the page would draw something else', () => {
    for (const [kept, page] of [
      [null, {}],
      [{ ...good, viewer: 'ben' }, {}],
      [{ ...good, day: '2001-1-1' }, {}],
      [{ ...good, build: '/assets/app-old.js' }, {}],
      [{ ...good, dark: true }, { dark: false }],
      [{ ...good, theme: 'dark' }, {}],
      [{ ...good, v: 2 as 1 }, {}],
      [{ ...good, html: 5 as unknown as string }, {}],
      [good, { path: `/apps/${APP}/install` }],
    ] as const) {
      expect(run(kept, page).appended).toEqual([]);
    }
  });
});
