import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { hydrated, keptSentHeading, layoutShiftSoFar, watchSentPage } from './support/hydration';
import { type Person, sessionCookieOf, signUp } from './support/people';
import { publishHabitTracker } from './support/visitor';

/*
 * The public pages whose content lives in the database — explore, a profile, an app's page — are
 * rendered by the server for a visitor without a session (docs/performance.md), with the API answers they
 * were drawn from: the page shows before any JavaScript, and hydrating it asks the network nothing.
 */

/** A title that would run a script if the page data or the markup were not escaped. */
const HOSTILE_TITLE = 'Habits </script><script>window.__pwned=1</script><b>';

let pipit: RunningPipit;
let browser: Browser;
let creator: Person;
let appId: string;

beforeAll(async () => {
  pipit = await startPipit();
  browser = await launchBrowser();
  creator = await signUp(pipit, 'ssr_creator');
  appId = await publishHabitTracker(pipit, creator, { title: HOSTILE_TITLE });
});
afterAll(async () => {
  await browser?.close();
  await pipit?.close();
});

describe('server-rendered public pages', () => {
  it('show their data with JavaScript turned off, and 404 for what is not there', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();

      let response = await page.goto(`${pipit.url}/explore`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['cache-control']).toBe('no-store');
      expect(response?.headers().vary).toMatch(/Cookie/);
      expect(await page.locator('h1').innerText()).toBe('Explore');
      expect(await page.getByRole('link', { name: HOSTILE_TITLE }).count()).toBeGreaterThan(0);

      response = await page.goto(`${pipit.url}/${creator.username}`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toContain(`@${creator.username}`);
      expect(await page.locator('h1').innerText()).toContain(creator.username);
      expect(await page.getByText(HOSTILE_TITLE).count()).toBeGreaterThan(0);

      response = await page.goto(`${pipit.url}/apps/${appId}`);
      expect(response?.status()).toBe(200);
      // The icon, then the title, as text.
      expect(await page.locator('h1').innerText()).toContain(HOSTILE_TITLE);
      expect(await page.title()).toBe(`${HOSTILE_TITLE} · Pipit`);

      response = await page.goto(`${pipit.url}/nobody_here_yet`);
      expect(response?.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toMatch(/not found|no one|nobody/i);

      response = await page.goto(`${pipit.url}/apps/${'a'.repeat(26)}`);
      expect(response?.status()).toBe(404);
      expect(await page.locator('h1').innerText()).toMatch(/isn’t available/i);
    } finally {
      await context.close();
    }
  });

  it('are taken over without asking the API again, without an error or a layout shift', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await watchSentPage(context);
    try {
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const apiCalls: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/api/')) apiCalls.push(pathname);
      });
      for (const route of ['/explore', `/${creator.username}`, `/apps/${appId}`]) {
        apiCalls.length = 0;
        await page.goto(`${pipit.url}${route}`);
        await hydrated(page);
        expect(errors, route).toEqual([]);
        expect(await keptSentHeading(page), `${route}: the sent heading is the one on screen`).toBe(
          true,
        );
        // The page's data came with it: none of it asked for again (the session neither).
        expect(
          apiCalls.filter((call) =>
            /^\/api\/(explore|profiles|published|auth\/session)/.test(call),
          ),
          route,
        ).toEqual([]);
        expect(await layoutShiftSoFar(page), `${route}: layout shift`).toBeLessThan(0.01);
        expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
        expect(errors, route).toEqual([]);
      }

      // The hydrated app page works: saving loads the library's storage then, not with the page.
      // Its preview keeps its data in memory: the page loads no Yjs.
      const scripts: Promise<string>[] = [];
      const onScript = (response: Response) => {
        if (response.request().resourceType() === 'script') {
          scripts.push(response.text().catch(() => ''));
        }
      };
      page.on('response', onScript);
      await page.goto(`${pipit.url}/apps/${appId}`);
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      page.off('response', onScript);
      expect(scripts.length).toBeGreaterThan(0);
      const texts = await Promise.all(scripts);
      expect(texts.filter((text) => text.includes('Yjs was already imported'))).toHaveLength(0);
      await page.getByRole('button', { name: 'Save to library' }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'In your library' }).count())
        .toBe(1);

      // Once on screen, the page asks the network as any page does: another sort is fetched.
      await page.goto(`${pipit.url}/explore`);
      await hydrated(page);
      apiCalls.length = 0;
      await page.getByRole('radio', { name: 'Popular' }).click();
      await page.waitForURL((url) => url.searchParams.get('sort') === 'popular');
      await expect.poll(() => apiCalls.includes('/api/explore')).toBe(true);
      await page.goBack();
      await page.waitForURL((url) => url.searchParams.get('sort') !== 'popular');
      await expect.poll(() => apiCalls.filter((c) => c === '/api/explore').length).toBe(2);
      expect(await page.getByRole('link', { name: HOSTILE_TITLE }).count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('hydrate without an error where the reader’s time zone dates things differently', async () => {
    // A zone where it is another day than on the server (UTC) now: the published date differs.
    const timezoneId = new Date().getUTCHours() < 12 ? 'Etc/GMT+12' : 'Etc/GMT-14';
    const context = await browser.newContext({ serviceWorkers: 'block', timezoneId });
    await watchSentPage(context);
    try {
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const sent = await (await fetch(`${pipit.url}/apps/${appId}`)).text();
      await page.goto(`${pipit.url}/apps/${appId}`);
      await hydrated(page);
      // The server dated it in UTC; once hydrated, the page dates it as the reader's clock does.
      const sentDate = /<time[^>]*>([^<]*)<\/time>/.exec(sent)?.[1];
      expect(sentDate).toMatch(/\d{4}$/);
      await expect.poll(() => page.locator('time').first().innerText()).not.toBe(sentDate);
      expect(await keptSentHeading(page)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('are not rendered for someone signed in: they get the shell and their own view', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      await context.addCookies([{ ...sessionCookieOf(creator.api), url: pipit.url }]);
      const page = await context.newPage();
      const response = await page.goto(`${pipit.url}/apps/${appId}`);
      const html = await response?.text();
      expect(html).not.toContain('data-prerendered');
      expect(html).not.toContain('pipit-page-data');
      // Their own app: the page offers to edit it.
      await expect
        .poll(() => page.getByRole('link', { name: /edit/i }).count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});
