import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDERED_ROUTES } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { sessionCookieOf, signUp } from './support/people';

/*
 * The public pages whose content is known at build time come as HTML (issue 18): a visitor's
 * phone paints them before any JavaScript arrives, and the same components take the markup over.
 */

/** Until React's root is on the page's root element: hydrated. */
const hydrated = (page: Page) =>
  page.waitForFunction(() =>
    Object.keys(document.getElementById('root') ?? {}).some((key) =>
      key.startsWith('__reactContainer$'),
    ),
  );

let pipit: RunningPipit;
let browser: Browser;

beforeAll(async () => {
  pipit = await startPipit();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await pipit?.close();
});

describe('pre-rendered public pages', () => {
  it('show their heading, title and navigation with JavaScript turned off', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      for (const route of PRERENDERED_ROUTES) {
        const response = await page.goto(`${pipit.url}${route}`);
        expect(response?.status(), route).toBe(200);
        expect(await page.title(), route).toMatch(/^(Pipit|.+ · Pipit)$/);
        expect(await page.locator('h1').count(), route).toBe(1);
        expect((await page.locator('h1').innerText()).length, route).toBeGreaterThan(0);
        expect(await page.locator('main').count(), route).toBe(1);
        expect(await page.getByRole('navigation', { name: 'Main' }).isVisible(), route).toBe(true);
      }
    } finally {
      await context.close();
    }
  });

  it('are taken over by the same components without an error, keeping the markup', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    // The heading the server sent, before any of Pipit's scripts ran; and every layout shift.
    await context.addInitScript(() => {
      const marks = window as unknown as { __sentHeading: unknown; __shifts: number };
      marks.__shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          marks.__shifts += (entry as unknown as { value: number }).value;
      }).observe({ type: 'layout-shift', buffered: true });
      document.addEventListener('DOMContentLoaded', () => {
        marks.__sentHeading = document.querySelector('h1');
      });
    });
    try {
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      for (const route of PRERENDERED_ROUTES) {
        await page.goto(`${pipit.url}${route}`);
        await hydrated(page);
        // Hydration kept the sent heading: the page was not rendered again on top of itself.
        expect(
          await page.evaluate(
            () =>
              (window as unknown as { __sentHeading: unknown }).__sentHeading ===
              document.querySelector('h1'),
          ),
          route,
        ).toBe(true);
        // Nothing moved once shown: the page's style sheets came with it, not with its code.
        await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
        expect(
          await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts),
          `${route}: layout shift`,
        ).toBeLessThan(0.01);
        expect(errors, route).toEqual([]);
      }
      // Links now move within the page (the router), not by loading a new document.
      await page.goto(`${pipit.url}/about`);
      await hydrated(page);
      await page.evaluate(() => ((window as unknown as { __same: boolean }).__same = true));
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Explore' })
        .click();
      await page.waitForURL((url) => url.pathname === '/explore');
      await expect.poll(() => page.locator('h1').innerText()).toMatch(/Explore/);
      expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(
        true,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('are not sent to someone signed in: the landing page takes them home', async () => {
    const person = await signUp(pipit, 'prerender_reader');
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      await context.addCookies([{ ...sessionCookieOf(person.api), url: pipit.url }]);
      const page = await context.newPage();
      const response = await page.goto(`${pipit.url}/`);
      expect(await response?.text()).not.toContain('data-prerendered');
      await page.waitForURL(`${pipit.url}/home`);
      await expect.poll(() => page.locator('h1').innerText()).toMatch(/./);
    } finally {
      await context.close();
    }
  });
});
