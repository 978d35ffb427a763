import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOWCASE_PWA } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser, launchPersistent } from './support/browser';
import { untilManifest } from './support/installability';
import { untilControlled } from './support/service-worker';
import { addHabit, habitNames, poll, storedUpdates } from './support/visitor';

/** Where this device keeps the showcase's data (client/sync/device/device-documents.ts). */
const SHOWCASE_DATABASE = 'pipit:demo:data/demo1';

/**
 * `/demo1` (docs/product/routes.md): the habit tracker showcase, usable by anyone, its data on the
 * device.
 */
describe('the showcase', () => {
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

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 375, height: 800 },
  ]) {
    it(`runs the habit tracker with data kept across reloads (${viewport.width} px)`, async () => {
      const context = await browser.newContext({ viewport, serviceWorkers: 'block' });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      try {
        await page.goto(`${pipit.url}/demo1`);
        await page.getByRole('navigation', { name: 'Screens' }).waitFor();
        expect(await page.locator('h1').count()).toBe(1);
        expect(await page.title()).toBe('Habit tracker showcase · Pipit');
        await addHabit(page, 'Stretch for five minutes');
        await page.reload();
        await page.getByRole('navigation', { name: 'Screens' }).waitFor();
        expect(await habitNames(page)).toEqual(['Stretch for five minutes']);
        // Ticking it off on Today.
        await page
          .getByRole('navigation', { name: 'Screens' })
          .getByRole('button', { name: /Today/ })
          .click();
        const tick = page.getByRole('checkbox', { name: 'Stretch for five minutes' });
        const stored = await storedUpdates(page, SHOWCASE_DATABASE);
        await tick.check();
        // On disk before the reload, as it is long before any person could reload.
        await poll(() => storedUpdates(page, SHOWCASE_DATABASE)).toBeGreaterThan(stored);
        await page.reload();
        await page.getByRole('checkbox', { name: 'Stretch for five minutes' }).waitFor();
        expect(
          await page.getByRole('checkbox', { name: 'Stretch for five minutes' }).isChecked(),
        ).toBe(true);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, 'content wider than the screen').toBeLessThanOrEqual(0);
        expect(await axeViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('installs as its own app, online and offline', async () => {
    const device = await launchPersistent({ width: 390, height: 844 });
    try {
      const page = await device.context.newPage();
      const errors = collectPageErrors(page);
      const manifestUrl = `${pipit.url}${SHOWCASE_PWA.manifest}`;
      await page.goto(`${pipit.url}/demo1`);
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      const online = await untilManifest(page, manifestUrl);
      expect(online.manifestErrors).toEqual([]);
      expect(online.installabilityErrors).toEqual([]);
      expect(online.manifest).toMatchObject({
        id: '/demo1',
        start_url: '/demo1',
        scope: '/demo1',
        display: 'standalone',
      });
      // Offline, the service worker's copy of the shell links the showcase's manifest too.
      await untilControlled(page);
      await device.context.setOffline(true);
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      expect((await untilManifest(page, manifestUrl)).installabilityErrors).toEqual([]);
      await device.context.setOffline(false);
      expect(errors).toEqual([]);
    } finally {
      await device.close();
    }
  });
});
