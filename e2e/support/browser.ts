import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium (docs/library-notes.md#browser-tests); `npx playwright install` cannot download
 * browsers here.
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Without the background-networking flags Chromium floods this machine's closed network. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function assertChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM_PATH}. Install it with "apt-get install -y chromium" (npm test does this when it may) or set CHROME_PATH.`,
    );
  }
}

export function launchBrowser(): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A persistent profile, as an installed PWA has: service workers and IndexedDB survive a restart,
 * and Chromium does not report "in-incognito" as an installability error
 * (docs/library-notes.md#browser-tests).
 */
export async function launchPersistent(
  viewport = { width: 1280, height: 800 },
  /** Reopen this profile (a browser restart) instead of making a new one. */
  existingDir?: string,
): Promise<{
  context: BrowserContext;
  userDataDir: string;
  /** Closes the browser and deletes the profile. */
  close(): Promise<void>;
  /** Closes the browser and keeps the profile, as quitting a browser does. */
  quit(): Promise<void>;
}> {
  assertChromium();
  const userDataDir = existingDir ?? mkdtempSync(path.join(tmpdir(), 'pipit-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport,
  });
  return {
    context,
    userDataDir,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
    quit: () => context.close(),
  };
}

export interface VisitorTab {
  page: Page;
  /** The page's console errors and uncaught exceptions since the last firstVisit(). */
  errors: string[];
  /**
   * Leaves for about:blank and clears what a new context would not have: the origin's cookies
   * (then sets the tab's own again), local and session storage, IndexedDB, caches and service
   * workers.
   */
  firstVisit(): Promise<void>;
}

/**
 * One tab in `context` for many first visits to `origin`. A new context (or page) per visit costs
 * the client's download, compilation and a renderer process again, about half of a short page
 * check; this tab keeps those caches and starts each visit with the origin's data cleared. The
 * context must have no other page of the origin open, or it writes the data back.
 */
export async function openVisitorTab(
  context: BrowserContext,
  origin: string,
  cookies: Array<{ name: string; value: string }> = [],
): Promise<VisitorTab> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const errors = collectPageErrors(page);
  return {
    page,
    errors,
    async firstVisit() {
      await page.goto('about:blank');
      await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      if (cookies.length) await context.addCookies(cookies.map((c) => ({ ...c, url: origin })));
      errors.length = 0;
    },
  };
}

/** Console errors and uncaught exceptions of a page, collected for "no console error" checks. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
