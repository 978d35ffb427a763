import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDERED_ROUTES } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { hydrated, keptSentHeading, layoutShiftSoFar, watchSentPage } from './support/hydration';
import { sessionCookieOf, signUp } from './support/people';

/*
 * The public pages whose content is known at build time come as HTML (docs/performance.md): a visitor's
 * phone paints them before any JavaScript arrives, and the same components take the markup over.
 */

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
    await watchSentPage(context);
    try {
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      for (const route of PRERENDERED_ROUTES) {
        await page.goto(`${pipit.url}${route}`);
        await hydrated(page);
        // Hydration kept the sent heading: the page was not rendered again on top of itself.
        expect(await keptSentHeading(page), route).toBe(true);
        // Nothing moved once shown: the page's style sheets came with it, not with its code.
        expect(await layoutShiftSoFar(page), `${route}: layout shift`).toBeLessThan(0.01);
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

  it('load no classic zod: their schemas are zod/mini, so a phone neither fetches nor builds it', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const scripts = new Map<string, Promise<string>>();
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') {
          scripts.set(
            response.url(),
            response.text().catch(() => ''),
          );
        }
      });
      for (const route of ['/', '/explore']) {
        await page.goto(`${pipit.url}${route}`);
        await hydrated(page);
        await page.waitForLoadState('networkidle');
      }
      expect(scripts.size).toBeGreaterThan(0);
      // Classic zod names its schema classes so ("ZodString"); zod/mini's are "ZodMiniString".
      const classic: string[] = [];
      for (const [url, text] of scripts) {
        if (/[`"']ZodString[`"']/.test(await text)) classic.push(new URL(url).pathname);
      }
      expect(classic).toEqual([]);
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
