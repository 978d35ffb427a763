import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, emojiImagePath, iconLetterColor } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own helpers: a template's definition, and the Twemoji file an emoji is drawn from
// (the manifest's icons are drawn from it too).
import { twemojiSvg } from '../sync-server/src/pwa/twemoji';
import type { AccountsHarness } from '../sync-server/test/support/engines';
import { definitionOf, publishDefinition } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';
import { untilControlled } from './support/service-worker';
import { appScreens, openInstalledApp, poll, publishApp } from './support/visitor';

/*
 * Where people stumbled over an app's face and the layout, as people met them in Chromium at 375 and
 * 1280 px:
 * - an app's emoji icon was the system's emoji in pages (a box where there is no colour-emoji
 *   font, as on this machine) but a Twemoji picture on the home screen: now the same picture
 *   everywhere, the emoji as text only while it loads or if it cannot;
 * - the installed app filled a desktop window: now a phone-sized column, its background around;
 * - `/apps/{unknown}` and its editor answered 200 before saying "not found": now 404, and the
 *   page and the router work all the same;
 * - the editor's properties tabs wrapped at 375 px: now one line that scrolls.
 */

const EMOJI = '🌱';
const PICTURE = emojiImagePath(EMOJI)!;
const LETTER_BACKGROUND = '#224466';

const SCREENS = [
  { width: 375, scheme: 'light' },
  { width: 1280, scheme: 'dark' },
] as const;
type Screen = (typeof SCREENS)[number];

/** What an app icon shows: its picture (drawn or not), its text and whether that text shows. */
interface Face {
  picture: string | null;
  drawn: boolean;
  text: string;
  textShown: boolean;
  hidden: boolean;
  label: string | null;
  alt: string | null;
}

function faceOf(icon: Locator): Promise<Face> {
  return icon.evaluate((element) => {
    const img = element.querySelector('img');
    const text = element.querySelector('.app-icon__text') ?? element;
    return {
      picture: img ? new URL(img.src).pathname : null,
      // Drawn: loaded, decoded and on screen (the text under it then hides).
      drawn: Boolean(img?.complete) && text.getAttribute('data-state') === 'shown',
      text: text.textContent ?? '',
      textShown: getComputedStyle(text).visibility === 'visible',
      hidden: element.getAttribute('aria-hidden') === 'true',
      label: element.getAttribute('aria-label'),
      alt: img?.getAttribute('alt') ?? null,
    };
  });
}

/** Waits until the icon's picture is drawn, and checks it is the emoji's Twemoji picture. */
async function expectPicture(
  icon: Locator,
  { emoji = EMOJI, label = null }: { emoji?: string; label?: string | null } = {},
): Promise<void> {
  await icon.scrollIntoViewIfNeeded();
  await poll(async () => (await faceOf(icon)).drawn).toBe(true);
  const face = await faceOf(icon);
  expect(face).toMatchObject({ picture: emojiImagePath(emoji), textShown: false, alt: '' });
  // Decorative beside the app's name; or an image named for what it shows.
  if (label === null) expect(face.hidden).toBe(true);
  else expect(face.label).toBe(label);
}

/** No sideways scrolling, axe clean. */
async function expectTidy(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
}

describe('one face per app, the installed app on a desktop, app pages not there', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let maker: Person;
  let bea: Person;
  let appId: string;
  let privateAppId: string;

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    [maker, bea] = await Promise.all([signUp(pipit, 'maker'), signUp(pipit, 'bea')]);
    appId = await publishApp(pipit, maker, definitionOf({ title: 'Habit tracker' }));
    // An icon that is a letter: Twemoji has no picture for it, the manifest draws the letter.
    await publishApp(
      pipit,
      bea,
      definitionOf(
        {
          title: 'Alphabet',
          icon: { kind: 'emoji', emoji: 'A', background: LETTER_BACKGROUND },
        },
        'reading-list',
      ),
    );
    privateAppId = await publishDefinition(
      { pipit } as unknown as AccountsHarness,
      bea.api,
      definitionOf({ title: 'Diary' }, 'reading-list'),
      'private',
    );
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  const anonymous = (screen: Screen, options: Parameters<Browser['newContext']>[0] = {}) =>
    browser.newContext({
      viewport: { width: screen.width, height: 800 },
      colorScheme: screen.scheme,
      serviceWorkers: 'block',
      ...options,
    });

  it('serves the picture the manifest’s icons are drawn from, in the page as sent', async () => {
    const picture = await fetch(`${pipit.url}${PICTURE}`);
    expect(picture.status).toBe(200);
    expect(await picture.text()).toBe(twemojiSvg(EMOJI));
    // Server-rendered public pages carry the picture: it shows before (and without) their script.
    for (const path of ['/explore', '/maker', `/apps/${appId}`]) {
      const html = await (await fetch(`${pipit.url}${path}`)).text();
      expect(html, path).toMatch(new RegExp(`<img class="app-icon__picture" src="${PICTURE}"`));
    }
  });

  for (const screen of SCREENS) {
    describe(`at ${screen.width} px (${screen.scheme})`, () => {
      it('shows the app’s Twemoji picture on every public page that shows its face', async () => {
        const context = await anonymous(screen);
        try {
          const page = await context.newPage();
          const errors = collectPageErrors(page);
          await page.goto(`${pipit.url}/explore`);
          const card = page.locator('.app-card').filter({ hasText: 'Habit tracker' });
          await expectPicture(card.locator('.app-icon'));
          // A letter has no picture: it is text, in the colour the manifest draws it in.
          const letter = page
            .locator('.app-card')
            .filter({ hasText: 'Alphabet' })
            .locator('.app-icon');
          expect(await faceOf(letter)).toMatchObject({ picture: null, text: 'A', textShown: true });
          const white = iconLetterColor(LETTER_BACKGROUND) === '#ffffff';
          expect(await letter.evaluate((e) => getComputedStyle(e).color)).toBe(
            white ? 'rgb(255, 255, 255)' : 'rgb(17, 17, 17)',
          );
          await expectTidy(page);

          for (const path of ['/maker', `/apps/${appId}`, `/apps/${appId}/install`]) {
            await page.goto(`${pipit.url}${path}`);
            await page.locator('h1').first().waitFor();
            await expectPicture(page.locator('main .app-icon').first());
            await expectTidy(page);
          }

          await openInstalledApp(page, pipit.url, appId);
          await expectPicture(page.getByRole('banner').locator('.app-icon'));
          await expectTidy(page);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('shows the same picture in the studio, on the home page and in the editor', async () => {
        const device = await deviceOf(browser, pipit, maker, {
          viewport: { width: screen.width, height: 800 },
          colorScheme: screen.scheme,
        });
        try {
          const page = await device.newPage();
          const errors = collectPageErrors(page);
          for (const path of ['/studio', '/home']) {
            await page.goto(`${pipit.url}${path}`);
            const row = page.locator('li').filter({ hasText: 'Habit tracker' }).first();
            await expectPicture(row.locator('.app-icon'));
            await expectTidy(page);
          }

          await page.goto(`${pipit.url}/apps/${appId}/edit`);
          const title = page.getByRole('heading', { level: 1, name: 'Habit tracker' });
          await expectPicture(title.locator('.app-icon'));
          if (screen.width < 720) {
            await page
              .getByRole('tablist', { name: 'Panels' })
              .getByRole('tab', { name: 'Properties' })
              .click();
          }
          await page.getByRole('tab', { name: 'Settings' }).click();
          const preview = `Icon preview: ${EMOJI}`;
          await expectPicture(page.getByRole('img', { name: preview }), { label: preview });
          await expectTidy(page);
          expect(errors).toEqual([]);
        } finally {
          await device.close();
        }
      });

      it('keeps the editor’s properties tabs on one line, in view and usable from the keyboard', async () => {
        const device = await deviceOf(browser, pipit, maker, {
          viewport: { width: screen.width, height: 800 },
          colorScheme: screen.scheme,
        });
        try {
          const page = await device.newPage();
          const errors = collectPageErrors(page);
          await page.goto(`${pipit.url}/apps/${appId}/edit`);
          await page.getByRole('heading', { level: 1, name: 'Habit tracker' }).waitFor();
          if (screen.width < 720) {
            await page
              .getByRole('tablist', { name: 'Panels' })
              .getByRole('tab', { name: 'Properties' })
              .click();
          }
          const strip = page.getByRole('tablist', { name: 'Edit' });
          const tabs = strip.getByRole('tab');
          expect(await tabs.allInnerTexts()).toEqual([
            'Inspector',
            'Collections',
            'Actions',
            'Reminders',
            'Theme',
            'Settings',
          ]);
          const layout = () =>
            strip.evaluate((list) => {
              const box = list.getBoundingClientRect();
              const tabBoxes = Array.from(list.querySelectorAll('[role="tab"]')).map((tab) =>
                tab.getBoundingClientRect(),
              );
              const selected = list
                .querySelector('[aria-selected="true"]')!
                .getBoundingClientRect();
              return {
                lines: new Set(tabBoxes.map((tab) => Math.round(tab.top))).size,
                selectedInView: selected.left >= box.left - 1 && selected.right <= box.right + 1,
                selected: list.querySelector('[aria-selected="true"]')!.textContent,
                focused: document.activeElement?.textContent,
              };
            });
          expect((await layout()).lines).toBe(1);

          // The tablist pattern: one tab stop, arrows, Home and End; the selected tab in view.
          await tabs.filter({ hasText: 'Inspector' }).focus();
          await page.keyboard.press('End');
          expect(await layout()).toMatchObject({
            lines: 1,
            selected: 'Settings',
            focused: 'Settings',
            selectedInView: true,
          });
          await page.keyboard.press('Home');
          expect(await layout()).toMatchObject({ selected: 'Inspector', selectedInView: true });
          await page.keyboard.press('ArrowLeft');
          expect(await layout()).toMatchObject({ selected: 'Settings', selectedInView: true });
          await page.keyboard.press('ArrowRight');
          expect(await layout()).toMatchObject({ selected: 'Inspector', selectedInView: true });
          expect(
            await tabs.evaluateAll((all) => all.map((t) => t.getAttribute('tabindex'))),
          ).toEqual(['0', '-1', '-1', '-1', '-1', '-1']);
          // A click on a tab half out of view brings it into view.
          await tabs.filter({ hasText: 'Theme' }).click();
          expect(await layout()).toMatchObject({ selected: 'Theme', selectedInView: true });
          await page.getByRole('tabpanel').getByRole('heading').first().waitFor();
          await expectTidy(page);
          expect(errors).toEqual([]);
        } finally {
          await device.close();
        }
      });

      it('shows the installed app in a column no wider than a phone’s, its background around it', async () => {
        const context = await anonymous(screen);
        try {
          const page = await context.newPage();
          const errors = collectPageErrors(page);
          await openInstalledApp(page, pipit.url, appId);
          const geometry = await page.evaluate(() => {
            const main = document.querySelector('main')!.getBoundingClientRect();
            const bar = document.querySelector('header')!.getBoundingClientRect();
            const width = document.documentElement.clientWidth;
            const outside = document.elementFromPoint(4, window.innerHeight / 2)!;
            return {
              width,
              main: { left: main.left, right: width - main.right, width: main.width },
              bar: { left: bar.left, right: width - bar.right },
              outside: getComputedStyle(outside).backgroundColor,
              app: getComputedStyle(document.querySelector('.rt-screen')!).backgroundColor,
            };
          });
          if (screen.width <= 560) {
            // A phone: the app is the whole width, as before.
            expect(geometry.main).toMatchObject({ left: 0, right: 0 });
          } else {
            expect(geometry.main.width).toBeLessThanOrEqual(560);
            expect(geometry.main.width).toBeGreaterThanOrEqual(480);
            expect(Math.abs(geometry.main.left - geometry.main.right)).toBeLessThanOrEqual(1);
            expect(geometry.bar).toEqual({ left: geometry.main.left, right: geometry.main.right });
            // Around the column, the app's own background, not Pipit's.
            expect(geometry.outside).toBe(geometry.app);
          }
          await appScreens(page)
            .getByRole('button', { name: /Habits/ })
            .click();
          await page.getByRole('button', { name: 'Add a habit' }).waitFor();
          await expectTidy(page);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    });
  }

  it('shows the emoji as text where its picture cannot load, on a page as sent and drawn by the app', async () => {
    const context = await anonymous(SCREENS[0]);
    try {
      await context.route('**/emoji/**', (route) => route.abort());
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      // Server-rendered: the picture fails before the page's script runs.
      await page.goto(`${pipit.url}/apps/${appId}`);
      const icon = page.locator('main .app-icon').first();
      await poll(async () => (await faceOf(icon)).textShown).toBe(true);
      expect(await faceOf(icon)).toMatchObject({ picture: null, text: EMOJI });
      // Drawn by the installed app's script.
      await openInstalledApp(page, pipit.url, appId);
      const bar = page.getByRole('banner').locator('.app-icon');
      await poll(async () => (await faceOf(bar)).textShown).toBe(true);
      expect(await faceOf(bar)).toMatchObject({ picture: null, text: EMOJI });
      expect(errors.filter((e) => !/ERR_FAILED|Failed to load resource/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the pictures offline: those seen, and the templates’ from the first visit', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    try {
      const page = await context.newPage();
      await openInstalledApp(page, pipit.url, appId);
      await untilControlled(page);
      await expectPicture(page.getByRole('banner').locator('.app-icon'));
      await context.setOffline(true);
      await page.reload();
      await appScreens(page).waitFor();
      await expectPicture(page.getByRole('banner').locator('.app-icon'));
      // Precached: the default icon's picture and every template's, though no page showed them.
      const statuses = await page.evaluate(
        (paths) => Promise.all(paths.map(async (path) => (await fetch(path)).status)),
        ['🐦', '🧳', '🛒', '🏋️'].map((emoji) => emojiImagePath(emoji)!),
      );
      expect(statuses).toEqual([200, 200, 200, 200]);
      // Navigation through the service worker, offline: an app page not there still renders.
      await page.goto(`${pipit.url}/apps/${createId()}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
    } finally {
      await context.close();
    }
  });

  describe('app pages that are not there', () => {
    let device: BrowserContext;
    let page: Page;
    let errors: string[];
    beforeAll(async () => {
      device = await deviceOf(browser, pipit, maker, { viewport: { width: 1280, height: 800 } });
      page = await device.newPage();
      errors = collectPageErrors(page);
    });
    afterAll(async () => {
      await device?.close();
    });

    it('answers 404 for an unknown app and someone else’s private app; the page and links work', async () => {
      for (const path of [
        `/apps/${createId()}`,
        `/apps/${createId()}/edit`,
        `/apps/${privateAppId}`,
        `/apps/${privateAppId}/edit`,
      ]) {
        const response = await page.goto(`${pipit.url}${path}`);
        expect(response?.status(), path).toBe(404);
        await poll(() => page.locator('h1').textContent()).toBe('This app isn’t available');
        expect(await page.title()).toBe('App not found · Pipit');
      }
      // The router keeps working after a 404 document.
      await page.getByRole('link', { name: 'Explore apps' }).first().click();
      await page.getByRole('heading', { level: 1, name: 'Explore' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/explore');
      // The app's owner gets its pages.
      expect((await page.goto(`${pipit.url}/apps/${appId}/edit`))?.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Habit tracker' }).waitFor();
      expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    });

    it('opens the editor of an app this device made that the server does not know yet', async () => {
      // Its registration never reaches the server, as on a device that made it offline.
      await device.route(
        (url) => url.pathname === '/api/apps',
        (route) => (route.request().method() === 'POST' ? route.abort() : route.continue()),
      );
      await page.goto(`${pipit.url}/create`);
      await page.getByLabel('App name').fill('Field notes');
      await page.getByRole('button', { name: 'Create blank app' }).click();
      await page.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/);
      const id = /\/apps\/([a-z2-7]{26})\/edit$/.exec(page.url())![1]!;
      expect(await pipit.server.storage.apps.get(id)).toBeNull();
      const response = await page.reload();
      expect(response?.status()).toBe(404);
      const title = page.getByRole('heading', { level: 1, name: 'Field notes' });
      // A blank app has the default icon, the bird: its picture is precached.
      await expectPicture(title.locator('.app-icon'), { emoji: '🐦' });
    });
  });
});
