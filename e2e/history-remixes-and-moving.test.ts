import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own helpers make an app, a file and a remix (e2e has no Yjs of its own).
import type { AccountsHarness } from '../sync-server/test/support/engines';
import { pipitFileWithImages, pngImage, postRaw } from '../sync-server/test/support/portable';
import { createApp, definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';
import { publishApp, republishWithTitle } from './support/visitor';

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

const harness = (pipit: RunningPipit) => ({ pipit }) as unknown as AccountsHarness;

/**
 * History, remixes and moving apps, as people stumbled on them in Chromium at
 * 375 px (light) and 1280 px (dark). Each test fails on the code before its fix.
 */
describe('history, remixes and moving apps', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let ada: Person;
  let ben: Person;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    [ada, ben] = await Promise.all([signUp(pipit, 'ada38'), signUp(pipit, 'ben38')]);
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

  /** The checkpoints the server lists for an app. */
  const checkpointsOf = async (appId: string) =>
    (await ada.api.get<{ checkpoints: unknown[] }>(`/api/apps/${appId}/checkpoints`)).body
      .checkpoints.length;

  /**
   * `count` checkpoints of every kind in `appId`'s history, older than the app's first (the one a
   * new app gets when it is first stored, waited for here), written as the server keeps them.
   */
  async function longHistory(appId: string, count: number): Promise<string[]> {
    await expect.poll(() => checkpointsOf(appId)).toBe(1);
    const kinds = ['manual', 'auto', 'publish', 'auto'] as const;
    const definition = gzipSync(JSON.stringify(definitionOf({ title: 'Menu planner' })));
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const kind = kinds[i % kinds.length]!;
      const name =
        kind !== 'manual'
          ? null
          : i === 0
            ? 'Beforethegrandreorganisationofeverythingintheapplication'
            : `Before the ${i % 8 === 0 ? 'summer' : 'winter'} menu ${i}`;
      if (name) names.push(name);
      await pipit.server.storage.checkpoints.insert({
        id: createId(),
        appId,
        kind,
        name,
        version: kind === 'publish' ? i + 1 : null,
        createdAt: Date.now() - (i + 1) * 20 * 60_000,
        createdById: kind === 'manual' ? ada.id : null,
        authorIds: [ada.id],
        changesJson: JSON.stringify({
          counts: { components: 1 },
          names: [i % 2 ? 'a timer' : 'Heading “Weekly plan”'],
          summary: '1 component',
          first: false,
        }),
        definitionHash: `h${i}`,
        definition: new Uint8Array(definition),
        size: definition.byteLength,
      });
    }
    return names;
  }

  it.each(DEVICES)(
    'History keeps a row compact, filters a long history, and says when the list is this device’s (%s)',
    async (_label, device) => {
      const appId = await createApp(
        harness(pipit),
        ada.api,
        definitionOf({ title: 'Menu planner' }),
      );
      const names = await longHistory(appId, 24);
      const page = await open(ada, device);
      await page.goto(`${pipit.url}/apps/${appId}/edit`);
      await page.getByRole('heading', { level: 1, name: 'Menu planner' }).waitFor();
      await page.getByRole('button', { name: 'History' }).click();
      const dialog = page.getByRole('dialog', { name: 'History' });
      const list = dialog.getByRole('list', { name: 'Checkpoints, newest first' });
      const rows = list.locator(':scope > li');
      // Its 24, and the app as it was first saved.
      await expect.poll(() => rows.count()).toBe(25);
      await dialog.getByText(/^25 checkpoints, /).waitFor();

      // A row is its text, Preview and More: the rest waits behind More, for the keyboard too.
      const first = names[0]!;
      const firstRow = rows.filter({ hasText: first });
      const buttons = await firstRow.getByRole('button').allInnerTexts();
      expect(buttons.map((b) => b.replace(/\s+/g, ' '))).toEqual(['Preview', 'More ▾']);
      // Five buttons in a row stacked to about 320 px on a phone.
      const height = (await rows.filter({ hasText: names[1]! }).boundingBox())!.height;
      expect(height).toBeLessThan(device === PHONE ? 170 : 90);
      const more = dialog.getByRole('button', { name: `More for ${first}` });
      await more.focus();
      await page.keyboard.press('Enter');
      await dialog.getByRole('button', { name: `Restore ${first}`, exact: true }).waitFor();
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      await shot(page, `history-menu-${device.viewport.width}`, firstRow);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: `Restore ${first}`, exact: true }).waitFor({
        state: 'hidden',
      });
      expect(await dialog.isVisible()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        `More for ${first}`,
      );

      // A long history is filtered by what a person remembers: a word, or the kind.
      await dialog.getByRole('searchbox', { name: 'Find' }).fill('summer');
      const summer = names.filter((n) => /summer/.test(n)).length;
      await expect.poll(() => rows.count()).toBe(summer);
      await dialog.getByText(`Showing ${summer} of 25 checkpoints.`).waitFor();
      await dialog.getByRole('button', { name: 'Show all' }).click();
      await dialog.getByLabel('Show').selectOption({ label: 'Saved by hand' });
      await expect.poll(() => rows.count()).toBe(names.length);
      await dialog.getByLabel('Show').selectOption({ label: 'Automatic' });
      await expect.poll(() => rows.count()).toBe(13);
      await dialog.getByText('Showing 13 of 25 checkpoints.').waitFor();
      await fits(page, 'dialog');
      await shot(page, `history-filtered-${device.viewport.width}`);
      await dialog.getByRole('button', { name: 'Show all' }).click();
      await expect.poll(() => rows.count()).toBe(25);
      await shot(page, `history-long-${device.viewport.width}`);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // Made elsewhere meanwhile; the server's answer is held back: the list shown is said to be
      // this device's, then the server's, and a focused row keeps its focus.
      const made = await ada.api.post(`/api/apps/${appId}/checkpoints`, {
        id: createId(),
        name: 'Made on another device',
        definition: definitionOf({ title: 'Menu planner' }),
      });
      expect(made.status).toBe(201);
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(`**/api/apps/${appId}/checkpoints`, async (route) => {
        if (route.request().method() === 'GET') await held;
        await route.continue();
      });
      await page.getByRole('button', { name: 'History' }).click();
      const source = dialog.locator('.history__source');
      await expect
        .poll(() => source.innerText())
        .toMatch(
          /^This is the history as this device last saw it, at \d\d:\d\d\. Checking the server…$/,
        );
      expect(await rows.count()).toBe(25);
      await shot(page, `history-checking-${device.viewport.width}`);
      await dialog.getByRole('button', { name: `More for ${names[1]!}` }).focus();
      release();
      await expect.poll(() => source.innerText()).toBe('Up to date with the server.');
      await expect.poll(() => rows.count()).toBe(26);
      await rows.first().filter({ hasText: 'Made on another device' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
        `More for ${names[1]!}`,
      );
      await page.unroute(`**/api/apps/${appId}/checkpoints`);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // Offline, the same list is said to be this device's, as a sentence.
      await page.context().setOffline(true);
      await page.getByRole('button', { name: 'History' }).click();
      await dialog
        .getByText(/^This is the history as this device last saw it, at \d\d:\d\d, with the/)
        .waitFor();
      await page.context().setOffline(false);
      await dialog.getByRole('button', { name: 'Close' }).click();
    },
  );

  it('says “1 checkpoint”, not “1 checkpoints”', async () => {
    // A new app's history holds one checkpoint: the app as it was first saved.
    const appId = await createApp(harness(pipit), ada.api, definitionOf({ title: 'Single' }));
    await expect.poll(() => checkpointsOf(appId)).toBe(1);
    const page = await open(ada, LAPTOP);
    await page.goto(`${pipit.url}/apps/${appId}/edit`);
    await page.getByRole('button', { name: 'History' }).click();
    await page
      .getByRole('dialog', { name: 'History' })
      .getByText(/^1 checkpoint, /)
      .waitFor();
  });

  it.each(DEVICES)(
    'a remix’s open editor learns of the original’s new version without a reload (%s)',
    async (_label, device) => {
      const original = await publishApp(pipit, ada, definitionOf({ title: 'Original' }));
      const published = await pipit.server.storage.publishing.version(original, 1);
      const remix = await createApp(
        harness(pipit),
        ben.api,
        JSON.parse(published!.definitionJson) as ReturnType<typeof definitionOf>,
        { forkedFrom: { appId: original, version: 1 } },
      );
      const page = await open(ben, device);
      const asked = { whole: 0, versions: 0 };
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname !== `/api/apps/${remix}/upstream`) return;
        if (url.searchParams.get('versions') === '1') asked.versions++;
        else asked.whole++;
      });
      await page.goto(`${pipit.url}/apps/${remix}/edit`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expect.poll(() => asked.whole).toBe(1);
      const offer = page.getByText('The original app has a newer version');
      expect(await offer.count()).toBe(0);

      await republishWithTitle(pipit, ada, original, 'Original, improved');
      // Coming back to the page (a focus) is a chance to check; checks are a few seconds apart.
      await expect
        .poll(async () => {
          await page.evaluate(() => window.dispatchEvent(new Event('focus')));
          return offer.count();
        })
        .toBe(1);
      // The whole answer (two definitions) once more, only because the versions changed.
      expect(asked.whole).toBe(2);
      expect(asked.versions).toBeGreaterThanOrEqual(1);
      await fits(page);
      await shot(page, `remix-offer-${device.viewport.width}`);
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
