import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, STATIC_ROUTES, THEME_STORAGE_KEY } from '@pipit/protocol';
import { ApiClient, insertUser, type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import {
  collectPageErrors,
  launchBrowser,
  openVisitorTab,
  type VisitorTab,
} from './support/browser';
import { sessionCookieOf } from './support/people';

const APP_ID = createId();

/**
 * Every route of docs/product/routes.md, with what a person sees first: the tab title and the
 * page's heading.
 */
const ROUTES: Array<{
  path: string;
  title: string;
  heading: RegExp;
  chrome: boolean;
  /** A console message the page causes on purpose (the server's 404 for an unknown app). */
  expectedConsole?: RegExp;
  /** The document's status, when not 200. */
  status?: number;
}> = [
  ...STATIC_ROUTES.filter((path) => path !== '/admin').map((path) => ({
    path,
    title: '',
    heading: /./,
    chrome: true,
  })),
  {
    // The operator's inbox: for anyone else, the server's not found and the 404 page.
    path: '/admin',
    title: 'Page not found · Pipit',
    heading: /Page not found/,
    chrome: true,
    expectedConsole: /status of 404/,
  },
  { path: '/ada', title: 'Ada Lovelace (@ada) · Pipit', heading: /Ada Lovelace/, chrome: true },
  {
    path: `/apps/${APP_ID}`,
    title: 'App not found · Pipit',
    heading: /isn’t available/,
    chrome: true,
    // Rendered by the server for a visitor without a session: 404 for an app nobody published.
    expectedConsole: /status of 404/,
    status: 404,
  },
  {
    path: `/apps/${APP_ID}/edit`,
    title: 'App not found · Pipit',
    heading: /isn’t available/,
    chrome: true,
    // The shell comes with 404 for an app this person may not edit, and the
    // page asks the server, which answers 404 too.
    expectedConsole: /status of 404/,
    status: 404,
  },
  {
    path: `/apps/${APP_ID}/install`,
    title: 'App not found · Pipit',
    heading: /isn’t available/,
    chrome: true,
    // The page's shell comes with 404 for an app nobody published, and the page asks the server,
    // which answers 404 too.
    expectedConsole: /status of 404/,
    status: 404,
  },
  {
    path: `/apps/${APP_ID}/pwa`,
    title: 'App not available · Pipit',
    heading: /isn’t available/,
    chrome: false,
    expectedConsole: /status of 404/,
    status: 404,
  },
  {
    // An invitation link nobody made: the page says so (the server answers 404 for it).
    path: `/join/${'x'.repeat(32)}`,
    title: 'Join a shared space · Pipit',
    heading: /Invitation/,
    chrome: true,
    expectedConsole: /status of 404/,
  },
];

/** Pages that belong to a signed-in person (and /create, which sends anonymous people to /demo). */
const SIGNED_IN_ROUTES = new Set([
  '/home',
  '/studio',
  '/archive',
  '/account/edit',
  '/account/settings',
  '/create',
  // Only for people with an account: for them, an app no one created is "not found".
  `/apps/${APP_ID}/edit`,
]);

const EXPECTED_TITLES: Record<string, string> = {
  '/': 'Pipit',
  '/about': 'About · Pipit',
  '/docs/platform': 'The platform · Pipit',
  '/legal/privacy': 'Privacy · Pipit',
  '/explore': 'Explore · Pipit',
  '/login': 'Sign in · Pipit',
};

/** axe's rules that read colours, the only thing dark mode changes. */
const DARK_MODE_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * How every route is checked: at 1440 px in light mode, then in dark mode on the same page; at
 * 375 px in light mode.
 */
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 375, height: 800 };
type Screen = typeof WIDE;

let pipit: RunningPipit;
let browser: Browser;
let sessionCookie: { name: string; value: string };

beforeAll(async () => {
  pipit = await startPipit({ env: { HUMAN_CHECK_DIFFICULTY: '500' } });
  const member = new ApiClient(pipit.url);
  await member.post(
    '/api/auth/signup',
    { username: 'member', email: 'member@example.org', password: 'a long unusual passphrase' },
    true,
  );
  sessionCookie = sessionCookieOf(member);
  await insertUser(pipit.server.storage, {
    username: 'ada',
    displayName: 'Ada Lovelace',
    bio: 'Writes programs for engines that do not exist yet.',
    links: [{ label: 'Notes', url: 'https://example.org/notes' }],
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await pipit?.close();
});

/**
 * One tab per screen size and sign-in state, kept for the whole file so that each page comes from
 * a warm cache; every check still starts as a first visit (openVisitorTab: no cookie but the
 * member's session, no storage). Checks run one at a time: a tab serves one check at a time.
 */
const tabs = new Map<string, Promise<VisitorTab>>();

function tabFor(screen: Screen, signedIn: boolean): Promise<VisitorTab> {
  const key = `${screen.width} ${signedIn ? 'member' : 'anonymous'}`;
  let tab = tabs.get(key);
  if (!tab) {
    tab = (async () => {
      // Service workers are the offline suite's subject; here every load must reach the server.
      const context = await browser.newContext({
        viewport: screen,
        colorScheme: 'light',
        serviceWorkers: 'block',
      });
      // Every Content-Security-Policy violation the page causes, as the browser reports it.
      await context.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __csp: string[] }).__csp = seen;
        document.addEventListener('securitypolicyviolation', (event) => {
          seen.push(`${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      return openVisitorTab(context, pipit.url, signedIn ? [sessionCookie] : []);
    })();
    tabs.set(key, tab);
  }
  return tab;
}

/** The tab for a first visit in light mode, signed in as the member or anonymous. */
async function visitorTab(screen: Screen, signedIn: boolean): Promise<VisitorTab> {
  const tab = await tabFor(screen, signedIn);
  await tab.firstVisit();
  await tab.page.emulateMedia({ colorScheme: 'light' });
  return tab;
}

async function visit(page: Page, path: string) {
  const response = await page.goto(`${pipit.url}${path}`);
  await page.locator('h1').first().waitFor();
  return response;
}

/**
 * Turns the device to dark mode under a loaded page, and waits until the page has followed: the
 * colour-scheme listeners run before the next frame's animation callbacks, and then the colour
 * transitions (buttons fade over 0.15 s) end, so that axe reads the final colours.
 */
async function turnDark(page: Page) {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(async () => {
    if (!matchMedia('(prefers-color-scheme: dark)').matches) throw new Error('still light');
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (;;) {
      const fading = document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition && a.playState === 'running');
      if (fading.length === 0) break;
      // A transition that is cancelled (its element replaced) rejects; the loop looks again.
      await Promise.all(fading.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

/** What a person sees on the loaded page, in the colour scheme it is in now. */
async function checkShown(
  page: Page,
  errors: string[],
  route: (typeof ROUTES)[number],
  screen: Screen,
  axeOptions: { rules?: string[] },
) {
  const title = await page.title();
  expect(title).toMatch(/^(Pipit|.+ · Pipit)$/);
  if (route.title) expect(title).toBe(route.title);
  if (EXPECTED_TITLES[route.path]) expect(title).toBe(EXPECTED_TITLES[route.path]);

  await expect.poll(() => page.locator('h1').count()).toBe(1);
  expect(await page.locator('h1').innerText()).toMatch(route.heading);
  expect(await page.locator('main').count()).toBe(1);
  if (route.chrome) {
    const nav = page.getByRole('navigation', { name: screen.width < 800 ? 'Footer' : 'Main' });
    await expect.poll(() => nav.isVisible()).toBe(true);
  } else {
    expect(await page.locator('header').count()).toBe(0);
  }

  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, 'content wider than the screen').toBeLessThanOrEqual(0);

  expect(await axeViolations(page, undefined, axeOptions)).toEqual([]);
  expect(errors.filter((e) => !route.expectedConsole?.test(e))).toEqual([]);
  const violations = await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  expect(violations, 'Content-Security-Policy violations').toEqual([]);
}

describe('every route', () => {
  for (const screen of [WIDE, PHONE]) {
    const dark = screen === WIDE;
    describe(`at ${screen.width} px, light${dark ? ' then dark' : ''}`, () => {
      for (const route of ROUTES) {
        it(`${route.path} loads with its title, navigation, no console error, and no axe violation`, async () => {
          const { page, errors } = await visitorTab(screen, SIGNED_IN_ROUTES.has(route.path));
          const response = await visit(page, route.path);
          expect(response?.headers()['content-security-policy']).toContain(
            "frame-ancestors 'none'",
          );
          expect(response?.status()).toBe(route.status ?? 200);
          await checkShown(page, errors, route, screen, {});
          if (dark) {
            // Dark mode changes colours only: the structure was checked in light mode, so here
            // axe runs its colour rules (half the time of all of them).
            await turnDark(page);
            await checkShown(page, errors, route, screen, { rules: DARK_MODE_RULES });
          }
        });
      }
    });
  }

  it('gives every static route its own title', async () => {
    const { page } = await visitorTab(WIDE, true);
    const titles = new Set<string>();
    // Signed in, "/" is home and the sign-in pages send you home: those are the same page.
    const distinct = STATIC_ROUTES.filter((p) => !['/', '/login', '/signup'].includes(p));
    for (const path of distinct) {
      await visit(page, path);
      titles.add(await page.title());
    }
    expect(titles.size).toBe(distinct.length);
  });

  it('sends anonymous visitors of signed-in pages to sign in, remembering where they were going', async () => {
    const { page } = await visitorTab(WIDE, false);
    for (const path of [...SIGNED_IN_ROUTES].filter((p) => p !== '/create')) {
      await page.goto(`${pipit.url}${path}`);
      await page.waitForURL((u) => u.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(path);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in');
    }
    await page.goto(`${pipit.url}/create`);
    await page.waitForURL(`${pipit.url}/demo`);
  });

  it('opens the menu on a phone and closes it after navigating', async () => {
    const { page } = await visitorTab(PHONE, false);
    await visit(page, '/');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page
      .getByRole('navigation', { name: 'Main (menu)' })
      .getByRole('link', { name: 'Pricing' })
      .click();
    // The URL changes before the route's code has loaded: wait for what the person sees.
    await expect.poll(() => page.locator('h1').innerText()).toMatch(/free/i);
    expect(page.url()).toMatch(/\/pricing$/);
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('remembers a light or dark choice across reloads', async () => {
    const { page } = await visitorTab(WIDE, false);
    await visit(page, '/about');
    await page.getByRole('radio', { name: 'Dark' }).first().check();
    await page.reload();
    await page.locator('h1').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(15, 21, 18)');
  });

  it('paints the stored choice before any of the page’s code has run (its inline head script)', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      await context.addInitScript((key) => localStorage.setItem(key, 'dark'), THEME_STORAGE_KEY);
      // None of the page's own code loads: only the script in its <head> can choose the theme.
      await context.route('**/assets/*.js', (route) => route.abort());
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      for (const path of ['/about', `/apps/${APP_ID}/pwa`]) {
        await page.goto(`${pipit.url}${path}`, { waitUntil: 'domcontentloaded' });
        expect(await page.evaluate(() => document.documentElement.dataset.theme), path).toBe(
          'dark',
        );
      }
      // The policy allowed the head scripts (a refused inline script is a console error); the
      // aborted modules are the only failures.
      expect(errors.filter((e) => !/ERR_FAILED|Failed to load/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('paths that are not pages', () => {
  it.each(['/no/such/page', '/docs/unknown', '/apps/not-an-id', `/apps/${APP_ID}/settings`])(
    '%s answers 404 and shows the 404 page',
    async (path) => {
      const { page } = await visitorTab(WIDE, false);
      const response = await page.goto(`${pipit.url}${path}`);
      expect(response?.status()).toBe(404);
      await expect.poll(() => page.locator('h1').textContent()).toBe('Page not found');
      expect(await page.title()).toBe('Page not found · Pipit');
      expect(await page.locator('main').innerText()).toContain(path);
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
    },
  );

  it('shows a profile-not-found page for an unknown username', async () => {
    const { page } = await visitorTab(WIDE, false);
    await page.goto(`${pipit.url}/nobody_here`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('No one is called @nobody_here');
  });

  it('never lets /{username} shadow a static route', async () => {
    const { page } = await visitorTab(WIDE, false);
    for (const [path, heading] of [
      ['/explore', 'Explore'],
      ['/pricing', /free/i],
      ['/About', /About Pipit/],
    ] as const) {
      await page.goto(`${pipit.url}${path}`);
      await expect.poll(() => page.locator('h1').textContent()).toMatch(heading);
    }
  });
});
