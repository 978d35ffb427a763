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

/** Console errors and uncaught exceptions of a page, collected for "no console error" checks. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
