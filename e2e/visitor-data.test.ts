import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own test helper opens a document over a real websocket (e2e has no Yjs of its own).
import { readDataDocumentAs, writeDataDocumentAs } from '../sync-server/test/support/visitor-data';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser, launchPersistent } from './support/browser';
import { deviceOf, type Person, signInContext, signUp } from './support/people';
import { untilControlled } from './support/service-worker';
import {
  addHabit,
  appScreens,
  checkForUpdate,
  goOffline,
  goOnline,
  habitList,
  habitNames,
  libraryEntry,
  openInstalledApp,
  poll,
  publishApp,
  publishHabitTracker,
  republishWithTitle,
  syncNote,
  updateOffer,
} from './support/visitor';

/**
 * Notes every loading screen React draws in the page from its next load on ("Opening the app…",
 * "Opening your data…"); the page's own, in the HTML (the first thing in #root, there before any
 * script runs), is not React's.
 */
async function watchLoadingScreens(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { loadingSeen: string[] }).loadingSeen = seen;
    let fromHtml: Element | null = null;
    new MutationObserver(() => {
      const root = document.getElementById('root');
      if (!root) return;
      fromHtml ??= root.firstElementChild;
      for (const part of root.children) {
        if (part === fromHtml) continue;
        for (const label of ['Opening the app', 'Opening your data'])
          if (part.textContent?.includes(label) && !seen.includes(label)) seen.push(label);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

const loadingScreensSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { loadingSeen: string[] }).loadingSeen);

/**
 * How many records the plain copy of a person's data holds on this device (0: none). Never makes
 * the database (an open without a version would make an empty one), and lets it go after reading.
 */
const copiedRecords = (page: Page) =>
  page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes('pipit-plain-copies')) return 0;
    return new Promise<number>((resolve) => {
      const open = indexedDB.open('pipit-plain-copies');
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('copies')) {
          db.close();
          return resolve(0);
        }
        const all = db.transaction('copies').objectStore('copies').getAll();
        all.onsuccess = () => {
          db.close();
          resolve(
            (all.result as { records: unknown[] }[]).reduce((n, c) => n + c.records.length, 0),
          );
        };
        all.onerror = () => {
          db.close();
          resolve(0);
        };
      };
      open.onerror = () => resolve(0);
    });
  });

/**
 * What a visitor runs (docs/product/routes.md `/apps/{id}/pwa`): the installed app keeps an
 * anonymous visitor's records on the device and works offline; signing in merges them into the
 * account; a signed-in visitor's records reach their other device; a republish is offered, never
 * forced.
 */
describe('a visitor’s installed app', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let creator: Person;
  let visitor: Person;
  let appId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    creator = await signUp(pipit, 'cleo');
    visitor = await signUp(pipit, 'vince');
    appId = await publishHabitTracker(pipit, creator, { title: 'Morning habits' });
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  it('keeps an anonymous visitor’s records offline, across reloads, then merges them on sign-in', async () => {
    const device = await launchPersistent({ width: 390, height: 844 });
    try {
      const page = await device.context.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, appId);
      expect(await page.title()).toBe('Morning habits');
      await untilControlled(page);
      await openInstalledApp(page, pipit.url, appId);
      await addHabit(page, 'Stretch');
      // Shown at once; "Saved" once the device has it (a first change loads the document's code).
      await poll(() => syncNote(page).innerText()).toBe('Saved on this device');

      await goOffline(device.context, page);
      // The app and the visitor's data are read from this device before the first render: an
      // offline reload draws the app with its data at once, never a loading screen. The page's
      // own, in the HTML (the first thing in #root, there before any script runs), is not React's.
      await watchLoadingScreens(page);
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      expect(await loadingScreensSeen(page)).toEqual([]);
      expect(await habitNames(page)).toEqual(['Stretch']);
      await addHabit(page, 'Water');
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      expect(await habitNames(page)).toEqual(['Stretch', 'Water']);

      // The library lists it, offline too.
      await page.goto(`${pipit.url}/apps`);
      await libraryEntry(page, 'Morning habits').waitFor();
      await goOnline(device.context, page);

      // Signing in: the anonymous records join the account's (on the next open at the latest).
      await signInContext(device.context, pipit, visitor);
      await openInstalledApp(page, pipit.url, appId);
      await poll(() => habitNames(page)).toEqual(['Stretch', 'Water']);
      await poll(() => syncNote(page).innerText()).toBe('Saved');
      await page.close();
    } finally {
      await device.close();
    }
  });

  it('brings a signed-in visitor’s records to their second device', async () => {
    const laptop = await deviceOf(browser, pipit, visitor);
    const phone = await deviceOf(browser, pipit, visitor, {
      viewport: { width: 390, height: 844 },
    });
    try {
      const laptopPage = await laptop.newPage();
      const phonePage = await phone.newPage();
      errors.push(...collectPageErrors(laptopPage), ...collectPageErrors(phonePage));
      await openInstalledApp(laptopPage, pipit.url, appId);
      // What was merged from the anonymous device is already in the account.
      await poll(() => habitNames(laptopPage)).toEqual(['Stretch', 'Water']);
      await addHabit(laptopPage, 'Read ten pages');
      await poll(() => syncNote(laptopPage).innerText()).toBe('Saved');

      await openInstalledApp(phonePage, pipit.url, appId);
      await poll(() => habitNames(phonePage)).toEqual(['Read ten pages', 'Stretch', 'Water']);

      // The data is the visitor's alone: the server gives it to their own session and refuses the
      // app's creator, who receives nothing.
      const data = { appId, userId: visitor.id };
      expect(await readDataDocumentAs(pipit.url, data, visitor.api.cookie)).toEqual({
        opened: true,
        records: 3,
      });
      expect(await readDataDocumentAs(pipit.url, data, creator.api.cookie)).toEqual({
        opened: false,
        records: 0,
      });

      // The library follows the person: the phone's /apps lists the app opened on both devices.
      await phonePage.goto(`${pipit.url}/apps`);
      await libraryEntry(phonePage, 'Morning habits').waitFor();
    } finally {
      await laptop.close();
      await phone.close();
    }
  });

  it('draws a thousand records offline from their plain copy before reading them, then takes a change', async () => {
    const definition = definitionOf({ title: 'A year of habits' });
    const bigApp = await publishApp(pipit, creator, definition);
    const reader = await signUp(pipit, 'lena');
    const habits = definition.collections.find((c) => c.name === 'Habits')!;
    const name = habits.fields[0]!.id;
    const rows = Array.from({ length: 1_200 }, (_, i) => ({
      [name]: `Habit ${String(i + 1).padStart(4, '0')}`,
    }));
    await writeDataDocumentAs(
      pipit.url,
      { appId: bigApp, userId: reader.id },
      reader.api.cookie,
      habits,
      rows,
    );
    const device = await deviceOf(browser, pipit, reader, {
      serviceWorkers: 'allow',
      viewport: { width: 375, height: 740 },
    });
    try {
      const page = await device.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, bigApp);
      await untilControlled(page);
      const habitsTab = appScreens(page).getByRole('button', { name: /Habits/ });
      const more = page.locator('.rt-more-rows');
      await habitsTab.click();
      await poll(() => more.innerText()).toBe('Show 200 more of 1,150');
      await poll(() => syncNote(page).innerText()).toBe('Saved');
      // Copied a moment after the data came to this device.
      await expect.poll(() => copiedRecords(page), { timeout: 10_000 }).toBe(1_200);

      await goOffline(device, page);
      await watchLoadingScreens(page);
      await page.reload();
      await appScreens(page).waitFor();
      // Drawn at once from the copy, never "Opening your data…"; then the document is read, and
      // the badge says where the data is (the copy is never shown as saved).
      expect(await loadingScreensSeen(page)).toEqual([]);
      await habitsTab.click();
      expect(await habitList(page).getByRole('listitem').first().innerText()).toContain(
        'Habit 0001',
      );
      await poll(() => syncNote(page).innerText()).toBe(
        'Saved on this device, will sync when online',
      );
      await page.getByRole('button', { name: 'Add a habit' }).click();
      const form = page.getByRole('form', { name: /^New / });
      await form.getByLabel(/^Habit/).fill('Habit 1201');
      await form.getByRole('button', { name: 'Add habit' }).click();
      await habitsTab.click();
      await poll(() => more.innerText()).toBe('Show 200 more of 1,151');
      await page.reload();
      await habitsTab.click();
      await poll(() => more.innerText()).toBe('Show 200 more of 1,151');
    } finally {
      await device.close();
    }
  });

  it('offers a republished version without switching by itself, and keeps the data', async () => {
    const device = await deviceOf(browser, pipit, visitor);
    try {
      const page: Page = await device.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, appId);
      const version = await republishWithTitle(pipit, creator, appId, 'Evening habits');
      expect(version).toBe(2);
      // Checks are at least two seconds apart and the page checked on opening: ask until one goes
      // through and the offer shows.
      await poll(async () => {
        await checkForUpdate(page);
        return updateOffer(page).isVisible();
      }).toBe(true);
      // Offered, not applied: the app still shows version 1 until the person chooses.
      expect(await page.locator('h1').innerText()).toBe('Morning habits');
      await updateOffer(page).getByRole('button', { name: 'Update' }).click();
      await poll(() => page.locator('h1').innerText()).toBe('Evening habits');
      expect(await page.title()).toBe('Evening habits');
      expect(await habitNames(page)).toEqual(['Read ten pages', 'Stretch', 'Water']);
    } finally {
      await device.close();
    }
  });

  it('draws a first visit from the app its page carried, asking the server for it no more', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const asked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/published/'))
          asked.push(request.url());
      });
      await openInstalledApp(page, pipit.url, appId);
      expect(asked).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('loads no Yjs on a first visit until the visitor changes something, and keeps that change', async () => {
    // A phone's width: Pipit's own message stays clear of the app's tab bar.
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    try {
      const page = await context.newPage();
      errors.push(...collectPageErrors(page));
      const yjsLoaded: string[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() !== 'script') return;
        void response
          .text()
          .then((body) => {
            if (body.includes('Yjs was already imported')) yjsLoaded.push(response.url());
          })
          .catch(() => undefined);
      });
      const database = `pipit:demo:data/${appId}`;
      const databases = () =>
        page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
      await openInstalledApp(page, pipit.url, appId);
      await page.waitForLoadState('networkidle');
      expect(yjsLoaded).toEqual([]);
      expect(await databases()).not.toContain(database);

      // The first change shows at once; it is stored on this device (and the badge says so only
      // then), and a reload draws it from there. The tabs are used with "ready to work offline"
      // still showing.
      const ready = page.getByText('This app now works offline on this device.');
      await ready.waitFor();
      await addHabit(page, 'Read');
      expect(await ready.isVisible()).toBe(true);
      await poll(() => syncNote(page).innerText()).toBe('Saved on this device');
      expect(await databases()).toContain(database);
      expect(yjsLoaded).toHaveLength(1);
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      expect(await habitNames(page)).toEqual(['Read']);
    } finally {
      await context.close();
    }
  });

  it('opens offline from what the service worker read into its page, the app’s content as text', async () => {
    const title = 'Habits </script><script>window.pwned = 1</script>';
    const id = await publishHabitTracker(pipit, creator, { title });
    const device = await launchPersistent({ width: 390, height: 844 });
    try {
      const page = await device.context.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, id);
      await untilControlled(page);
      await openInstalledApp(page, pipit.url, id);
      await goOffline(device.context, page);
      // Counts the page's own reads of the app's copy (Cache Storage) until the app is drawn.
      await page.addInitScript(() => {
        const reads: string[] = [];
        (window as unknown as { copyReads: string[] }).copyReads = reads;
        const open = CacheStorage.prototype.open;
        CacheStorage.prototype.open = function (name: string) {
          if (!document.querySelector('nav[aria-label="Screens"]')) reads.push(name);
          return open.call(this, name);
        };
      });
      const response = await page.reload();
      const html = (await response?.text()) ?? '';
      expect(response?.fromServiceWorker()).toBe(true);
      expect(html).toContain('<script type="application/json" id="pipit-device-start">');
      expect(html).not.toContain('<script>window.pwned');
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      expect(await page.title()).toBe(title);
      expect(
        await page.evaluate(() => ({
          reads: (window as unknown as { copyReads: string[] }).copyReads,
          element: document.getElementById('pipit-device-start') !== null,
          pwned: 'pwned' in window,
        })),
      ).toEqual({ reads: [], element: false, pwned: false });
    } finally {
      await device.close();
    }
  });

  it('says it is opening before its code arrives, and with JavaScript off only that it needs it', async () => {
    // The page as sent, before any script: a loading state, not a blank page.
    const response = await fetch(`${pipit.url}/apps/${appId}/pwa`);
    expect(await response.text()).toContain('Opening the app…');
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${pipit.url}/apps/${appId}/pwa`);
      const text = await page.locator('body').innerText();
      expect(text).toContain('it needs JavaScript');
      expect(text).not.toContain('Opening the app');
    } finally {
      await context.close();
    }
  });

  it('logged no console error', () => {
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
