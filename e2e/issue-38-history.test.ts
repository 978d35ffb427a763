import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own helpers make a file (e2e has no Yjs of its own).
import { pipitFileWithImages, pngImage, postRaw } from '../sync-server/test/support/portable';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';

/** A phone in light mode, and a laptop in dark mode: each flow is checked on both. */
const PHONE = { viewport: { width: 375, height: 740 }, colorScheme: 'light' } as const;
const LAPTOP = { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' } as const;
const DEVICES = [
  ['375 px, light', PHONE],
  ['1280 px, dark', LAPTOP],
] as const;

/** `PIPIT_SHOTS_DIR=/tmp/shots-history` keeps a screenshot of each state checked. */
const SHOTS = process.env.PIPIT_SHOTS_DIR;
async function shot(page: Page, name: string, of?: Locator): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await of?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** No sideways scrolling, and axe finds nothing (in `include`, when given). */
async function fits(page: Page, include?: string): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page, include)).toEqual([]);
}

/** One word, as long as a title may be: what overflowed the import's box on a phone. */
const LONG_TITLE = 'Grandmothersextraordinarilylongchristmascookierecipebook';

/**
 * Issue 38, point 9: history, remixes and moving apps, as people stumbled on them in Chromium at
 * 375 px (light) and 1280 px (dark). Each test fails on the code before its fix.
 */
describe('history, remixes and moving apps (issue 38)', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let ada: Person;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    ada = await signUp(pipit, 'ada38');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await pipit?.close();
  });

  async function open(person: Person, device: (typeof DEVICES)[number][1]): Promise<Page> {
    const context = await deviceOf(browser, pipit, person, device);
    contexts.push(context);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    return page;
  }

  it.each(DEVICES)(
    '/create says one thing of a file that is not Pipit’s, names the parts of a refused one, and wraps long words (%s)',
    async (label, device) => {
      const page = await open(ada, device);
      await page.goto(`${pipit.url}/create`);
      const input = page.getByLabel('Choose a .pipit or .json file');
      const refusal = page.getByRole('alert').filter({ hasText: 'That file couldn’t be imported' });

      // Not a zip, not JSON: the words the import endpoint answers with for the same bytes.
      const notes = Buffer.from('Shopping: milk, eggs, flour');
      await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: notes });
      await refusal.waitFor();
      const server = await postRaw<{ error: { message: string } }>(
        ada.api,
        '/api/apps/import',
        new Uint8Array(notes),
        'application/zip',
      );
      expect(await refusal.locator('.notice__content p:not(.notice__title)').innerText()).toBe(
        server.body.error.message,
      );
      expect(server.body.error.message).toBe(
        'This file isn’t a Pipit file. Choose a .pipit or .json file exported from Pipit.',
      );

      // A refused file names its app and the image, never a path inside the zip or an id.
      const imageId = createId();
      const broken = pipitFileWithImages(
        [{ id: imageId, bytes: new Uint8Array(64).fill(9) }],
        LONG_TITLE,
      );
      await input.setInputFiles({
        name: 'broken.pipit',
        mimeType: 'application/zip',
        buffer: Buffer.from(broken),
      });
      await refusal.filter({ hasText: LONG_TITLE }).waitFor();
      const said = await refusal.innerText();
      expect(said).toContain(`Image 1 of the app “${LONG_TITLE}”`);
      expect(said).not.toMatch(/apps\/|images\/|\.json|\.png|\.webp/);
      expect(said).not.toContain(imageId);
      await fits(page);
      await shot(page, `import-refusal-${device.viewport.width}`, refusal);

      // A report of a long title wraps inside its box too.
      const good = pipitFileWithImages(
        [{ bytes: await pngImage(20, 20, '#336699') }],
        `${LONG_TITLE.slice(0, 50)}${label.slice(0, 3)}`,
      );
      await input.setInputFiles({
        name: 'good.pipit',
        mimeType: 'application/zip',
        buffer: Buffer.from(good),
      });
      const report = page.getByRole('status').filter({ hasText: 'Imported “' });
      await report.waitFor({ timeout: 20_000 });
      await fits(page);
      await shot(page, `import-report-${device.viewport.width}`, report);
    },
  );

  it('logs no error but the refusals it asked for', () => {
    expect(
      errors.filter(
        (e) => !/Failed to load resource: the server responded with a status of 400/.test(e),
      ),
    ).toEqual([]);
  });
});
