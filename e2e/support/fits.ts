import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations } from './axe';

/**
 * A check of a screen as a person sees it: the page never scrolls sideways (a board or a table
 * scrolls inside its own box) and axe finds nothing. With PIPIT_SHOTS=<folder> each checked screen
 * is also saved there, to look at, scrolled to `view` (a whole-page picture would draw the sticky
 * tab bar across it), named `<prefix>-<n>-<what>-<width>.png`.
 */
export function screenChecks(prefix: string) {
  let shots = 0;
  return async function fits(page: Page, what: string, view: Locator): Promise<void> {
    const folder = process.env.PIPIT_SHOTS;
    if (folder) {
      const width = page.viewportSize()?.width ?? 0;
      await view.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await page.screenshot({
        path: `${folder}/${prefix}-${String(++shots).padStart(2, '0')}-${what}-${width}.png`,
      });
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
  };
}
