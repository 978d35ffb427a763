import type { BrowserContext, Page } from 'playwright-core';

/*
 * Pages that come as HTML (pre-rendered at build time, or rendered by the server per request) and
 * that the browser then takes over (hydrates): what the browser tests check of them.
 */

interface Marks {
  __sentHeading: unknown;
  __shifts: number;
}

/**
 * Records, in every page of the context, the heading the server sent (before any of Pipit's
 * scripts ran) and the sum of every layout shift.
 */
export async function watchSentPage(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const marks = window as unknown as Marks;
    marks.__shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        marks.__shifts += (entry as unknown as { value: number }).value;
    }).observe({ type: 'layout-shift', buffered: true });
    document.addEventListener('DOMContentLoaded', () => {
      marks.__sentHeading = document.querySelector('h1');
    });
  });
}

/** Until React's root is on the page's root element: hydrated. */
export const hydrated = (page: Page) =>
  page.waitForFunction(() =>
    Object.keys(document.getElementById('root') ?? {}).some((key) =>
      key.startsWith('__reactContainer$'),
    ),
  );

/** Whether the heading on screen is the element the server sent (not rendered again on top). */
export const keptSentHeading = (page: Page): Promise<boolean> =>
  page.evaluate(() => (window as unknown as Marks).__sentHeading === document.querySelector('h1'));

/** The layout shifts so far, summed (CLS-like), after a moment for late ones. */
export async function layoutShiftSoFar(page: Page): Promise<number> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  return page.evaluate(() => (window as unknown as Marks).__shifts);
}
