import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own test helper builds a template's definition (e2e has no Yjs of its own).
import { definitionOf } from '../sync-server/test/support/publishing';
import { launchBrowser } from './support/browser';
import { openInEditor } from './support/visitor';

/**
 * A screen longer than the editor draws at once (the structure panel draws its first
 * rows and the preview its first components, the rest when needed): what a person sees of it is
 * the whole screen, in order — its first rows at once, its last ones when they scroll to them —
 * and a row far down can be selected and moved like any other.
 */
const ROWS = 60;
const headingText = (n: number) => `Section ${n}`;

function longScreenApp() {
  const definition = definitionOf({ title: 'Long notes' }, 'reading-list');
  definition.screens[0]!.title = 'Everything';
  definition.screens[0]!.components = Array.from({ length: ROWS }, (_, i) => ({
    id: createId(),
    type: 'heading' as const,
    props: { text: headingText(i + 1), level: 2 as const },
  }));
  return definition;
}

describe('a screen longer than the editor draws at once', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    ({ page, errors } = await openInEditor(pipit, browser, 'noor', longScreenApp()));
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  const components = () => page.getByRole('list', { name: 'Components on Everything' });
  const preview = () => page.getByRole('region', { name: 'Preview of Everything' });
  const rowNames = () =>
    components()
      .locator(':scope > li .tree-row__detail')
      .evaluateAll((names) => names.map((name) => name.textContent?.trim() ?? ''));

  it('shows its first rows and components, then every one of them, in order', async () => {
    await components()
      .locator('.tree-row__detail', { hasText: new RegExp(`^${headingText(1)}$`) })
      .waitFor();
    await preview()
      .getByRole('heading', { name: headingText(1), exact: true })
      .waitFor();
    // The rest comes when it is needed or the browser is idle: in the end, the whole screen.
    await expect.poll(rowNames).toEqual(Array.from({ length: ROWS }, (_, i) => headingText(i + 1)));
    await expect
      .poll(() =>
        preview()
          .getByRole('heading', { name: /^Section \d+$/ })
          .count(),
      )
      .toBe(ROWS);
  });

  it('scrolls to its last row and its last component', async () => {
    const last = components().locator('.tree-row__detail', { hasText: headingText(ROWS) });
    await last.scrollIntoViewIfNeeded();
    await expect.poll(() => last.isVisible()).toBe(true);
    const lastInPreview = preview().getByRole('heading', { name: headingText(ROWS), exact: true });
    await lastInPreview.scrollIntoViewIfNeeded();
    await expect.poll(() => lastInPreview.isVisible()).toBe(true);
  });

  it('selects a row far down and moves it up with the keyboard', async () => {
    const row = components()
      .locator('.tree-row__select')
      .filter({ hasText: new RegExp(`${headingText(ROWS)}$`) });
    await row.click();
    await row.press('Alt+ArrowUp');
    await expect
      .poll(async () => (await rowNames()).slice(-2))
      .toEqual([headingText(ROWS), headingText(ROWS - 1)]);
    expect(errors).toEqual([]);
  });
});
