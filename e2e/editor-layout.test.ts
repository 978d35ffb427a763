import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own test helper builds a template's definition (e2e has no Yjs of its own).
import { definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { openInEditor, openInstalledApp } from './support/visitor';

/**
 * The editor and the installed app with long names in several languages, at the widths people use:
 * every name stays on one line (a long one ends with an ellipsis and keeps its whole name as its
 * title), rows keep to one line (two on a phone), nothing scrolls sideways, right-to-left names
 * keep their direction, and the installed app shows its own name.
 */
const APP_TITLE = 'Lesebestätigungen für die ganze Familie';
const SCREEN_TITLES = [
  'Reading now',
  'Lesebestätigungen und Zusammenfassungen',
  'Списки для чтения',
  'قائمة القراءة الطويلة جدا',
  '読書リストとメモの長い名前',
  'Finished',
  // The template's board of every book and its gallery of covers, as they are named there.
  'All books',
  'Covers',
];
const LONG_SCREEN = SCREEN_TITLES[1]!;
const RTL_SCREEN = SCREEN_TITLES[3]!;
const LONG_TEXT =
  'Eine ausgesprochen lange Beschreibung dessen, was auf diesem Bildschirm passiert, mit Donaudampfschifffahrtsgesellschaftskapitän';
// Longer than a collection chip has room for, even in the widest properties panel (32rem).
const COLLECTION = 'Bücher, Zeitschriften und Lesebestätigungen der Großfamilie';
const FIELD = 'Titel des Buches oder der Zeitschrift (Originalsprache)';
const ACTION = 'Das Formular zum Hinzufügen eines neuen Buches öffnen';
const RTL_ACTION = 'فتح نموذج إضافة كتاب جديد إلى القائمة';

/** The reading-list template renamed as above, with long texts at the top of its first screen. */
function longNamedApp() {
  const definition = definitionOf({ title: APP_TITLE }, 'reading-list');
  definition.screens.forEach((screen, index) => {
    screen.title = SCREEN_TITLES[index] ?? screen.title;
  });
  definition.screens[0]!.components.unshift(
    { id: createId(), type: 'text', props: { markdown: LONG_TEXT } },
    {
      id: createId(),
      type: 'heading',
      props: { text: 'Zusammenfassungen der gelesenen Bücher dieses Jahres', level: 1 },
    },
    {
      id: createId(),
      type: 'text',
      props: { markdown: 'قائمة القراءة الطويلة جدا مع ملاحظات كثيرة' },
    },
  );
  definition.collections[0]!.name = COLLECTION;
  definition.collections[0]!.fields[0]!.name = FIELD;
  definition.actions[0]!.name = ACTION;
  definition.actions[1]!.name = RTL_ACTION;
  return definition;
}

/** How an element's text is laid out: its lines, whether it is cut short with an ellipsis, … */
interface Name {
  text: string;
  lines: number;
  ellipsis: boolean;
  title: string;
  direction: string;
}

function namesOf(page: Page, selector: string): Promise<Name[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => {
      // Lines are told apart by the top of each piece of the text's layout.
      const range = document.createRange();
      range.selectNodeContents(element);
      const tops: number[] = [];
      for (const rect of Array.from(range.getClientRects())) {
        if (rect.width === 0) continue;
        if (!tops.some((top) => Math.abs(top - rect.top) < rect.height / 2)) tops.push(rect.top);
      }
      const style = getComputedStyle(element);
      return {
        text: element.textContent ?? '',
        lines: tops.length,
        ellipsis:
          element.scrollWidth > element.clientWidth &&
          style.textOverflow === 'ellipsis' &&
          style.whiteSpace === 'nowrap',
        title: element.getAttribute('title') ?? '',
        direction: style.direction,
      };
    }),
  );
}

const byText = (names: Name[], text: string) => names.find((name) => name.text === text);

describe('long names in the editor and the installed app', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let page: Page;
  let appId: string;
  let errors: string[];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    ({ page, errors, appId } = await openInEditor(pipit, browser, 'lena', longNamedApp()));
    await page.getByRole('heading', { level: 1, name: APP_TITLE }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  /** Shows a panel of the side-by-side or one-at-a-time layouts (wide shows all three). */
  async function showPanel(name: 'Structure' | 'Properties') {
    const tab = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name });
    if (await tab.count()) await tab.click();
  }

  async function noSidewaysScroll() {
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - window.innerWidth,
      panels: Array.from(document.querySelectorAll('.editor-panel')).map(
        (panel) => panel.scrollWidth - panel.clientWidth,
      ),
    }));
    expect(overflow.page, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    for (const panel of overflow.panels) {
      expect(panel, 'a panel scrolls sideways').toBeLessThanOrEqual(0);
    }
  }

  for (const { width, layout, scheme } of [
    { width: 1024, layout: 'medium', scheme: 'light' },
    { width: 1280, layout: 'wide', scheme: 'light' },
    { width: 1440, layout: 'wide', scheme: 'dark' },
    { width: 375, layout: 'narrow', scheme: 'dark' },
  ] as const) {
    it(`keeps names on one line and rows short at ${width} px (${scheme})`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.locator(`.app-editor--${layout}`).waitFor();
      // A phone has room for two lines a row: the name, and its buttons under it.
      const rowLines = layout === 'narrow' ? 2 : 1;

      await showPanel('Structure');
      const screens = page.getByRole('list', { name: 'Screens' });
      await screens.locator('.tree-row__name').first().waitFor();
      const screenNames = await namesOf(page, '[aria-label="Screens"] .tree-row__name');
      expect(screenNames.map((name) => name.text)).toEqual(SCREEN_TITLES);
      for (const name of screenNames) {
        expect(name.lines, `“${name.text}” on one line`).toBe(1);
        expect(name.title).toBe(name.text);
      }
      expect(byText(screenNames, LONG_SCREEN)?.ellipsis, 'a long name ends with …').toBe(true);
      expect(byText(screenNames, 'Reading now')?.ellipsis, 'a short name is whole').toBe(false);
      expect(byText(screenNames, RTL_SCREEN)?.direction).toBe('rtl');
      // The whole name stays the row's accessible name.
      await screens.getByRole('button', { name: LONG_SCREEN, exact: true }).waitFor();

      const components = page.getByRole('list', { name: 'Components on Reading now' });
      const rowHeights = await components
        .locator('.sortable-row')
        .evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
      const buttonHeight = await components
        .locator('.sortable-row__handle')
        .first()
        .evaluate((handle) => handle.getBoundingClientRect().height);
      expect(rowHeights.length).toBeGreaterThanOrEqual(9);
      for (const height of rowHeights) {
        // A line is a row of buttons; padding, borders and the gap between lines add < 1 more.
        expect(height, 'a component row’s height').toBeLessThan((rowLines + 1) * buttonHeight);
      }
      const details = await namesOf(
        page,
        '[aria-label="Components on Reading now"] .tree-row__detail',
      );
      for (const detail of details) expect(detail.lines, `“${detail.text}”`).toBe(1);
      expect(details[0]).toMatchObject({ text: LONG_TEXT.slice(0, 60), ellipsis: true });
      const textRow = await namesOf(
        page,
        '[aria-label="Components on Reading now"] .tree-row__name',
      );
      expect(textRow[0]!.title).toBe(`Text: ${LONG_TEXT.slice(0, 60)}`);
      await noSidewaysScroll();

      await showPanel('Properties');
      await page.getByRole('tab', { name: 'Collections' }).click();
      const [collection] = await namesOf(page, '[aria-label="Collections"] .chip__label');
      expect(collection).toMatchObject({ text: COLLECTION, lines: 1, ellipsis: true });
      expect(collection!.title).toBe(COLLECTION);
      const fields = await namesOf(page, `[aria-label="Fields of ${COLLECTION}"] .tree-row__text`);
      for (const field of fields) expect(field.lines, `“${field.text}”`).toBe(1);
      expect(byText(fields, FIELD)?.ellipsis).toBe(true);
      await noSidewaysScroll();

      await page.getByRole('tab', { name: 'Actions' }).click();
      const actions = await namesOf(page, '[aria-label="Actions"] .chip__label');
      for (const action of actions) expect(action.lines, `“${action.text}”`).toBe(1);
      expect(byText(actions, ACTION)?.title).toBe(ACTION);
      expect(byText(actions, RTL_ACTION)?.direction).toBe('rtl');
      await noSidewaysScroll();
      await page.getByRole('tab', { name: 'Inspector' }).click();

      if (width === 1280 || width === 375) {
        expect(await axeViolations(page)).toEqual([]);
      }
    });
  }

  for (const { width, scheme } of [
    { width: 375, scheme: 'dark' },
    { width: 1280, scheme: 'light' },
  ] as const) {
    it(`shows the installed app's name in its own bar at ${width} px (${scheme})`, async () => {
      const context = await browser.newContext({
        viewport: { width, height: 800 },
        colorScheme: scheme,
        serviceWorkers: 'block',
      });
      try {
        const app = await context.newPage();
        const appErrors = collectPageErrors(app);
        await openInstalledApp(app, pipit.url, appId);
        // The app is on screen (openInstalledApp waits for its tab bar): its bar is too.
        const banner = app.getByRole('banner');
        expect(await banner.count(), 'the app’s bar').toBe(1);
        const name = banner.getByRole('heading', { level: 1, name: APP_TITLE });
        expect(await name.count(), 'the app’s name in its bar').toBe(1);
        expect(await app.locator('h1').count()).toBe(1);
        // Read on screen, not only by screen readers: a line of text, in full at this length.
        const box = await name.boundingBox();
        expect(box?.height ?? 0).toBeGreaterThanOrEqual(16);
        expect(box?.width ?? 0).toBeGreaterThan(120);
        expect(await name.evaluate((h) => h.scrollHeight <= h.clientHeight)).toBe(true);
        await expect.poll(() => banner.locator('.app-icon').isVisible()).toBe(true);
        // The screen's title is the heading under it.
        await app.getByRole('heading', { level: 2, name: 'Reading now' }).waitFor();
        // In the app's colours, not Pipit's.
        const colours = await app.evaluate(() => {
          const bar = getComputedStyle(document.querySelector('header')!);
          const runtime = getComputedStyle(document.querySelector('.rt-app')!);
          return {
            bar: [bar.backgroundColor, bar.color],
            app: [runtime.backgroundColor, runtime.color],
          };
        });
        expect(colours.bar).toEqual(colours.app);
        const overflow = await app.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, 'the app scrolls sideways').toBeLessThanOrEqual(0);
        expect(await axeViolations(app)).toEqual([]);
        expect(appErrors, 'the installed app’s console').toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('logged no console error', () => {
    expect(errors).toEqual([]);
  });
});
