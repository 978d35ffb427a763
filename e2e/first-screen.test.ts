import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';
import { untilControlled } from './support/service-worker';
import {
  addHabit,
  appScreens,
  goOffline,
  goOnline,
  openInstalledApp,
  poll,
  publishHabitTracker,
  syncNote,
} from './support/visitor';

/** A habit whose name is markup: shown as text, kept as text, never run. */
const HABIT = 'Stretch <img src=x onerror="window.__firstScreenRan=1">';

const keptOf = (page: Page, appId: string) =>
  page.evaluate((key) => localStorage.getItem(key), `pipit:first-screen:${appId}`);

/** Where the Today screen's first habit is drawn by the app. */
const habitBox = (page: Page, within: string) =>
  page.evaluate((selector) => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    return box
      ? { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width) }
      : null;
  }, `${within} .rt-screen[data-screen] input[type="checkbox"]`);

interface KeptSeen {
  inert: boolean;
  hidden: string | null;
  text: string;
  ticked: boolean | undefined;
  layout: string;
  box: { x: number; y: number; width: number } | undefined;
  appCodeRan: boolean;
  replaced?: boolean;
}
type Watched = Window & { keptSeen?: KeptSeen };

/** Runs before the page's scripts: notes the kept screen as it is put in, and as it goes. */
function watchKeptScreen() {
  const watched = window as Watched;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof HTMLElement) || node.id !== 'pipit-first-screen') continue;
        const tick = node.querySelector<HTMLInputElement>('input[type="checkbox"]');
        const box = tick?.getBoundingClientRect();
        watched.keptSeen = {
          // The screen is inert, inside an element that takes a tap on it.
          inert: (node.firstElementChild as HTMLElement | null)?.inert === true && !node.inert,
          hidden: node.getAttribute('aria-hidden'),
          text: node.textContent ?? '',
          ticked: tick?.checked,
          layout: getComputedStyle(node.querySelector('.app-host')!).display,
          box: box && { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width) },
          // The app's code has drawn nothing yet: #root holds the page's own loading screen.
          appCodeRan: document.querySelector('#root .app-host') !== null,
        };
      }
      for (const node of record.removedNodes) {
        if (node instanceof HTMLElement && node.id === 'pipit-first-screen' && watched.keptSeen) {
          watched.keptSeen.replaced = document.querySelector('#root .rt-screen') !== null;
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

/** The kept screen put back over the app as the page's script puts it, to look at beside it. */
async function showKeptAgain(page: Page, appId: string) {
  await page.evaluate((key) => {
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as { html: string } | null;
    if (!kept) return;
    const element = document.createElement('div');
    const screen = document.createElement('div');
    element.id = 'pipit-first-screen';
    screen.inert = true;
    screen.innerHTML = kept.html;
    for (const styled of screen.querySelectorAll<HTMLElement>('[data-pipit-style]'))
      styled.style.cssText = styled.getAttribute('data-pipit-style') ?? '';
    element.append(screen);
    document.body.append(element);
  }, `pipit:first-screen:${appId}`);
}

async function shoot(page: Page, what: string) {
  const folder = process.env.PIPIT_SHOTS;
  const width = page.viewportSize()?.width ?? 0;
  if (folder) await page.screenshot({ path: `${folder}/first-screen-${what}-${width}.png` });
}

/**
 * The installed app's first screen as this device last drew it (docs/performance.md, "Records at
 * scale"): shown from the page's HTML while the app's code starts, offline, exactly where the app
 * then draws its own; inert and hidden from assistive technology; a record's markup stays text;
 * forgotten when the person signs out.
 */
describe('the installed app’s first screen, kept on the device', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let visitor: Person;
  let appId: string;

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    const creator = await signUp(pipit, 'fiona');
    visitor = await signUp(pipit, 'felix');
    appId = await publishHabitTracker(pipit, creator, { title: 'Evening habits' });
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  for (const { width, height, colorScheme } of [
    { width: 375, height: 740, colorScheme: 'light' as const },
    { width: 1280, height: 860, colorScheme: 'dark' as const },
  ]) {
    it(`is drawn offline before the app's code runs, then the app's own takes its place (${width} px, ${colorScheme})`, async () => {
      const device = await deviceOf(browser, pipit, visitor, {
        serviceWorkers: 'allow',
        viewport: { width, height },
        colorScheme,
      });
      try {
        const page = await device.newPage();
        const errors = collectPageErrors(page);
        await page.goto(`${pipit.url}/apps/${appId}/pwa`);
        await untilControlled(page);
        await openInstalledApp(page, pipit.url, appId);
        const habit = `${HABIT} ${width}`;
        await addHabit(page, habit);
        await appScreens(page).getByRole('button', { name: /Today/ }).click();
        // Ticked: a checkbox's state is a property, not markup; the kept screen has it too.
        const tick = page.getByRole('checkbox', { name: habit });
        if (!(await tick.isChecked())) await tick.check();
        await poll(() => syncNote(page).innerText()).toBe('Saved');
        // Kept a moment after the screen last changed: this habit, every box ticked, in the
        // scheme the screen is drawn in. (Playwright's emulated scheme can lapse for a moment, and
        // the app then draws light: set again, the app draws dark, and keeps that.)
        await page.emulateMedia({ colorScheme });
        await expect
          .poll(
            async () => {
              const entry = JSON.parse((await keptOf(page, appId)) ?? 'null') as {
                html: string;
                dark: boolean | null;
              } | null;
              if (!entry) return false;
              const unticked = /<input(?![^>]*\schecked)[^>]*type="checkbox"/.test(entry.html);
              return (
                entry.html.includes(habit.replace(/</g, '&lt;').replace(/>/g, '&gt;')) &&
                !unticked &&
                entry.dark === (colorScheme === 'dark')
              );
            },
            { timeout: 10_000 },
          )
          .toBe(true);
        const kept = JSON.parse((await keptOf(page, appId))!) as { html: string; viewer: string };
        expect(kept.viewer).toBe(visitor.id);
        expect(kept.html).not.toMatch(/<img[^>]*onerror/i);
        expect(kept.html).not.toMatch(/\sid="|\sstyle="|Habit added/);

        await goOffline(device, page);
        await page.addInitScript(watchKeptScreen);
        await page.reload();
        await appScreens(page).waitFor();
        // Seen as the page's script put it there, before any of the app's code ran: inert,
        // hidden from assistive technology, styled, the box ticked; then taken away only once the
        // app's own screen was in the page.
        await expect
          .poll(() => page.evaluate(() => (window as Watched).keptSeen?.replaced), {
            timeout: 15_000,
          })
          .toBeDefined();
        const seen = await page.evaluate(() => (window as Watched).keptSeen);
        expect(seen).toEqual({
          inert: true,
          hidden: 'true',
          text: expect.stringContaining(habit),
          ticked: true,
          layout: 'flex',
          box: expect.anything(),
          appCodeRan: false,
          replaced: true,
        });
        // Where the app draws it: the same place, but for a line of the hidden sync badge when
        // the app's says more than the kept one did (offline now, saved then).
        const live = await habitBox(page, '#root');
        expect(live?.x).toBe(seen?.box?.x);
        expect(live?.width).toBe(seen?.box?.width);
        expect(Math.abs((live?.y ?? 0) - (seen?.box?.y ?? 0))).toBeLessThanOrEqual(24);
        await shoot(page, `app-${colorScheme}`);
        await showKeptAgain(page, appId);
        await shoot(page, `kept-${colorScheme}`);
        await page.evaluate(() => document.getElementById('pipit-first-screen')?.remove());
        expect(await page.getByRole('checkbox', { name: habit }).isChecked()).toBe(true);
        expect(await page.evaluate(() => '__firstScreenRan' in window)).toBe(false);
        expect(await axeViolations(page)).toEqual([]);
        expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);

        if (width === 1280) {
          // Signing out forgets what was kept for them (their data is in it).
          await goOnline(device, page);
          await page.goto(`${pipit.url}/`);
          await page.getByRole('button', { name: /account menu/ }).click();
          await page.getByRole('button', { name: 'Sign out' }).click();
          await page.waitForURL(`${pipit.url}/`);
          await poll(() => keptOf(page, appId)).toBe(null);
        }
      } finally {
        await device.close();
      }
    });
  }
});
