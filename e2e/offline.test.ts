import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, STATIC_ROUTES } from '@pipit/protocol';
import { insertUser, type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { launchPersistent } from './support/browser';
import { untilControlled } from './support/service-worker';

const APP_ID = createId();

describe('offline, after one visit', () => {
  let pipit: RunningPipit;
  let browser: Awaited<ReturnType<typeof launchPersistent>>;
  let page: Page;
  let url: string;

  beforeAll(async () => {
    pipit = await startPipit();
    url = pipit.url;
    await insertUser(pipit.server.storage, { username: 'ada', displayName: 'Ada Lovelace' });
    browser = await launchPersistent();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  it('says, on the first visit, that Pipit is ready to work offline', async () => {
    await page.goto(`${url}/`);
    await page.getByText('Pipit is ready to work offline on this device.').waitFor();
    await untilControlled(page);
    // Seen once while online: this profile's copy is kept for offline use.
    await page.goto(`${url}/ada`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Ada Lovelace');
  });

  it('is installable: Chromium finds no installability error in the platform manifest', async () => {
    const cdp = await browser.context.newCDPSession(page);
    await page.goto(`${url}/`);
    await untilControlled(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: unknown[];
      parsed?: { name?: string; icons?: unknown[] };
    };
    expect(manifest.url).toBe(`${url}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    expect(installabilityErrors).toEqual([]);
    for (const icon of [
      '/icons/pipit-192.png',
      '/icons/pipit-512.png',
      '/icons/pipit-maskable-512.png',
      '/icons/apple-touch-icon.png',
    ]) {
      const response = await page.request.get(`${url}${icon}`);
      expect(response.headers()['content-type'], icon).toBe('image/png');
    }
    await cdp.detach();
  });

  it('reloads every route from the service worker when the server is gone', async () => {
    await pipit.close();
    const paths = [
      ...STATIC_ROUTES,
      '/ada',
      `/apps/${APP_ID}`,
      `/apps/${APP_ID}/edit`,
      `/apps/${APP_ID}/install`,
      `/apps/${APP_ID}/pwa`,
    ];
    for (const path of paths) {
      const response = await page.goto(`${url}${path}`);
      expect(response?.fromServiceWorker(), path).toBe(true);
      expect(response?.status(), path).toBe(200);
      await page.locator('h1').first().waitFor();
      expect(await page.title(), path).toMatch(/Pipit$/);
      expect(await page.locator('h1').count(), path).toBe(1);
    }
    expect(await page.locator('h1').textContent()).toBe('This app isn’t available');

    // Online, but the server is gone: the profile says it is the copy last seen, not fresh.
    await page.goto(`${url}/ada`);
    await page.getByText('Pipit can’t reach the server right now', { exact: false }).waitFor();
  });

  it('says it is offline, shows the last seen copy of a profile, and explains what cannot load', async () => {
    await browser.context.setOffline(true);
    try {
      await page.goto(`${url}/ada`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Ada Lovelace');
      await page
        .getByText('this is the copy of the profile you last saw', { exact: false })
        .waitFor();
      await page.getByText('Pages you have opened before still work.', { exact: false }).waitFor();

      await page.goto(`${url}/grace`);
      await expect.poll(() => page.locator('h1').textContent()).toBe('You’re offline');
      await page.getByText('It will load once you are back online.', { exact: false }).waitFor();

      await page.goto(`${url}/login`);
      await page.getByText('Signing in needs a connection').waitFor();
    } finally {
      await browser.context.setOffline(false);
    }
  });
});
