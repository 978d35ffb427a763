import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, STATIC_ROUTES } from '@pipit/protocol';
import { ApiClient, insertUser, type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
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
    // The page asks the server, which answers 404 for an app nobody published.
    expectedConsole: /status of 404/,
  },
  {
    path: `/apps/${APP_ID}/edit`,
    title: 'App not found · Pipit',
    heading: /isn’t available/,
    chrome: true,
    expectedConsole: /status of 404/,
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

describe('every route', () => {
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

  async function visit(page: Page, path: string) {
    const response = await page.goto(`${pipit.url}${path}`);
    await page.locator('h1').first().waitFor();
    return response;
  }

  for (const viewport of [
    { width: 1440, height: 900, colorScheme: 'light' as const },
    { width: 375, height: 800, colorScheme: 'light' as const },
    { width: 1440, height: 900, colorScheme: 'dark' as const },
  ]) {
    describe(`at ${viewport.width} px, ${viewport.colorScheme}`, () => {
      for (const route of ROUTES) {
        it(`${route.path} loads with its title, navigation, no console error, and no axe violation`, async () => {
          // Service workers are the offline suite's subject; here every load must reach the server.
          const context = await browser.newContext({
            viewport: { width: viewport.width, height: viewport.height },
            colorScheme: viewport.colorScheme,
            serviceWorkers: 'block',
          });
          if (SIGNED_IN_ROUTES.has(route.path)) {
            await context.addCookies([{ ...sessionCookie, url: pipit.url }]);
          }
          const page = await context.newPage();
          const errors = collectPageErrors(page);
          // Every Content-Security-Policy violation the page causes, as the browser reports it.
          await page.addInitScript(() => {
            const seen: string[] = [];
            (window as unknown as { __csp: string[] }).__csp = seen;
            document.addEventListener('securitypolicyviolation', (event) => {
              seen.push(`${event.violatedDirective} ${event.blockedURI}`);
            });
          });
          try {
            const response = await visit(page, route.path);
            expect(response?.headers()['content-security-policy']).toContain(
              "frame-ancestors 'none'",
            );
            expect(response?.status()).toBe(route.status ?? 200);

            const title = await page.title();
            expect(title).toMatch(/^(Pipit|.+ · Pipit)$/);
            if (route.title) expect(title).toBe(route.title);
            if (EXPECTED_TITLES[route.path]) expect(title).toBe(EXPECTED_TITLES[route.path]);

            await expect.poll(() => page.locator('h1').count()).toBe(1);
            expect(await page.locator('h1').innerText()).toMatch(route.heading);
            expect(await page.locator('main').count()).toBe(1);
            if (route.chrome) {
              const nav = page.getByRole('navigation', {
                name: viewport.width < 800 ? 'Footer' : 'Main',
              });
              await expect.poll(() => nav.isVisible()).toBe(true);
            } else {
              expect(await page.locator('header').count()).toBe(0);
            }

            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            );
            expect(overflow, 'content wider than the screen').toBeLessThanOrEqual(0);

            // Dark mode changes colours only: the structure was checked at this width in light
            // mode, so here axe runs its colour rules (half the time of all of them).
            expect(
              await axeViolations(
                page,
                undefined,
                viewport.colorScheme === 'dark' ? { rules: DARK_MODE_RULES } : {},
              ),
            ).toEqual([]);
            expect(errors.filter((e) => !route.expectedConsole?.test(e))).toEqual([]);
            const violations = await page.evaluate(
              () => (window as unknown as { __csp: string[] }).__csp,
            );
            expect(violations, 'Content-Security-Policy violations').toEqual([]);
          } finally {
            await context.close();
          }
        });
      }
    });
  }

  it('gives every static route its own title', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.addCookies([{ ...sessionCookie, url: pipit.url }]);
    const page = await context.newPage();
    try {
      const titles = new Set<string>();
      // Signed in, "/" is home and the sign-in pages send you home: those are the same page.
      const distinct = STATIC_ROUTES.filter((p) => !['/', '/login', '/signup'].includes(p));
      for (const path of distinct) {
        await visit(page, path);
        titles.add(await page.title());
      }
      expect(titles.size).toBe(distinct.length);
    } finally {
      await context.close();
    }
  });

  it('sends anonymous visitors of signed-in pages to sign in, remembering where they were going', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    try {
      for (const path of [...SIGNED_IN_ROUTES].filter((p) => p !== '/create')) {
        await page.goto(`${pipit.url}${path}`);
        await page.waitForURL((u) => u.pathname === '/login');
        expect(new URL(page.url()).searchParams.get('redirect')).toBe(path);
        await expect.poll(() => page.locator('h1').textContent()).toBe('Sign in');
      }
      await page.goto(`${pipit.url}/create`);
      await page.waitForURL(`${pipit.url}/demo`);
    } finally {
      await context.close();
    }
  });

  it('opens the menu on a phone and closes it after navigating', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
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
    } finally {
      await page.close();
    }
  });

  it('remembers a light or dark choice across reloads', async () => {
    const page = await browser.newPage({ colorScheme: 'light' });
    try {
      await visit(page, '/about');
      await page.getByRole('radio', { name: 'Dark' }).first().check();
      await page.reload();
      await page.locator('h1').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(15, 21, 18)');
    } finally {
      await page.close();
    }
  });
});

describe('paths that are not pages', () => {
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

  it.each(['/no/such/page', '/docs/unknown', '/apps/not-an-id', `/apps/${APP_ID}/settings`])(
    '%s answers 404 and shows the 404 page',
    async (path) => {
      const page = await browser.newPage();
      try {
        const response = await page.goto(`${pipit.url}${path}`);
        expect(response?.status()).toBe(404);
        await expect.poll(() => page.locator('h1').textContent()).toBe('Page not found');
        expect(await page.title()).toBe('Page not found · Pipit');
        expect(await page.locator('main').innerText()).toContain(path);
        expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
      } finally {
        await page.close();
      }
    },
  );

  it('shows a profile-not-found page for an unknown username', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${pipit.url}/nobody_here`);
      await expect
        .poll(() => page.locator('h1').textContent())
        .toBe('No one is called @nobody_here');
    } finally {
      await page.close();
    }
  });

  it('never lets /{username} shadow a static route', async () => {
    const page = await browser.newPage();
    try {
      for (const [path, heading] of [
        ['/explore', 'Explore'],
        ['/pricing', /free/i],
        ['/About', /About Pipit/],
      ] as const) {
        await page.goto(`${pipit.url}${path}`);
        await expect.poll(() => page.locator('h1').textContent()).toMatch(heading);
      }
    } finally {
      await page.close();
    }
  });
});
