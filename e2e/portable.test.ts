import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own helpers make an app, write a person's records over real sockets, and read
// what a server stores and what a file holds (e2e has no Yjs of its own).
import type { AccountsHarness } from '../sync-server/test/support/engines';
import { pipitFileSummary, storedApp, writeRecords } from '../sync-server/test/support/portable';
import { createApp, definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';
import { poll } from './support/visitor';

const harness = (pipit: RunningPipit) => ({ pipit }) as unknown as AccountsHarness;

async function png(colour: string): Promise<Buffer> {
  return sharp({ create: { width: 90, height: 60, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/**
 * Moving an app between two separately started servers as people do it
 * (docs/product/portable-file.md): on the first, the creator uploads an image and an icon in the
 * editor and exports the app with their data; on the second, they import the file on /create, see
 * what came, open the app with its images, are told a second import is one, and can import a
 * copy; offline, the file still makes the app on the device, and /create says what did not come.
 */
describe('moving an app to another server', () => {
  let first: RunningPipit;
  let second: RunningPipit;
  let browser: Browser;
  let maya: Person;
  let mayaThere: Person;
  let appId: string;
  let file: string;
  const errors: string[] = [];
  const watch = (page: Page) => {
    errors.push(...collectPageErrors(page));
    return page;
  };

  beforeAll(async () => {
    [first, second] = await Promise.all([startPipit(), startPipit()]);
    browser = await launchBrowser();
    maya = await signUp(first, 'maya');
    mayaThere = await signUp(second, 'maya');
    appId = await createApp(harness(first), maya.api, definitionOf({ title: 'Garden log' }));
    await writeRecords(harness(first), maya.api, appId, maya.id, 3);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([first?.close(), second?.close()]);
  });

  it('uploads an image and an icon in the editor, then exports the app with my data', async () => {
    const context = await deviceOf(browser, first, maya);
    try {
      const page = watch(await context.newPage());
      await page.goto(`${first.url}/apps/${appId}/edit`);
      await page.getByRole('heading', { level: 1, name: 'Garden log' }).waitFor();

      await page.getByRole('button', { name: '+ Add component' }).click();
      await page
        .getByRole('list', { name: 'Component types' })
        .getByRole('button', { name: 'Image', exact: true })
        .click();
      await page.getByLabel('Upload an image', { exact: true }).setInputFiles({
        name: 'tomatoes.png',
        mimeType: 'image/png',
        buffer: await png('#cc3300'),
      });
      const shown = page.locator('img[src^="/api/uploads/"]').first();
      await shown.waitFor();
      await poll(() => shown.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(90);

      await page.getByRole('tab', { name: 'Settings', exact: true }).click();
      await page
        .getByLabel('Upload an image as the icon')
        .setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: await png('#0066cc') });
      await page.getByRole('img', { name: 'The app’s icon' }).waitFor();

      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Export this app' });
      await dialog.getByRole('checkbox', { name: 'Include my data in this app' }).check();
      expect(await axeViolations(page, '.editor-dialog')).toEqual([]);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Download .pipit file' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('Garden log.pipit');
      // Kept past the context: its downloads go when it closes.
      file = path.join(mkdtempSync(path.join(tmpdir(), 'pipit-portable-')), 'Garden log.pipit');
      await download.saveAs(file);
      await dialog.getByText('Your browser saved the file.').waitFor();
    } finally {
      await context.close();
    }
    expect(pipitFileSummary(new Uint8Array(await readFile(file)))).toEqual([
      { id: appId, title: 'Garden log', images: 2, versions: 0, records: 3 },
    ]);
  });

  it('imports it on the second server with its images and data, and says what came', async () => {
    const context = await deviceOf(browser, second, mayaThere);
    try {
      const page = watch(await context.newPage());
      await page.goto(`${second.url}/create`);
      const input = page.getByLabel('Choose a .pipit or .json file');
      await input.setInputFiles(file);
      const report = page.getByRole('status').filter({ hasText: 'Imported “Garden log”' });
      await report.waitFor({ timeout: 20_000 });
      await report
        .getByText('Links to the app’s address work here as they did where it came from.')
        .waitFor();
      await report.getByText(/3 records of your data/).waitFor();
      expect(await axeViolations(page, 'main')).toEqual([]);

      // The same app, image bytes and records as on the first server.
      const before = await storedApp(first.server, appId, maya.id);
      const after = await storedApp(second.server, appId, mayaThere.id);
      expect(after.definition).toEqual(before.definition);
      expect(after.records).toEqual(before.records);
      for (const id of (await first.server.storage.uploads.idsForApp(appId)).values()) {
        const there = await second.server.storage.uploads.get(id);
        expect(there?.bytes).toEqual((await first.server.storage.uploads.get(id))?.bytes);
      }

      await report.getByRole('link', { name: 'Open Garden log' }).click();
      await page.getByRole('heading', { level: 1, name: 'Garden log' }).waitFor();
      const shown = page.locator('img[src^="/api/uploads/"]').first();
      await poll(() => shown.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(90);

      // The same file again: said so, with the app to open, and a copy on request.
      await page.goto(`${second.url}/create`);
      await page.getByLabel('Choose a .pipit or .json file').setInputFiles(file);
      const again = page.getByRole('status').filter({ hasText: 'You imported this file already' });
      await again.waitFor();
      expect(await again.getByRole('link', { name: 'Open it' }).getAttribute('href')).toBe(
        `/apps/${appId}/edit`,
      );
      await again.getByRole('button', { name: 'Import again as a copy' }).click();
      const copy = page.getByRole('status').filter({ hasText: 'Imported “Garden log”' });
      await copy.getByText(/This server already had this app/).waitFor({ timeout: 20_000 });
      const apps = await second.server.storage.apps.listForUser(mayaThere.id);
      expect(apps.filter((a) => a.title === 'Garden log')).toHaveLength(2);
    } finally {
      await context.close();
    }
  });

  it('offline, makes the app on the device from its definition and says what did not come', async () => {
    const context = await deviceOf(browser, second, mayaThere);
    try {
      const page = watch(await context.newPage());
      await page.goto(`${second.url}/create`);
      await page.getByRole('heading', { level: 1, name: 'Create an app' }).waitFor();
      await context.setOffline(true);
      await page.getByLabel('Choose a .pipit or .json file').setInputFiles(file);
      const made = page.getByRole('status').filter({ hasText: 'Imported on this device' });
      await made.waitFor();
      await made
        .getByText(/History, images and data come only when you import the file online/)
        .waitFor();
      await made.getByText(/2 images, your data/).waitFor();
      // Back online (the editor's code is fetched when first opened), the app is this device's.
      await context.setOffline(false);
      await made.getByRole('link', { name: 'Open Garden log' }).click();
      await page.getByRole('heading', { level: 1, name: 'Garden log' }).waitFor();
      expect(await page.locator('img[src^="/api/uploads/"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('still imports an old .json export, on the device', async () => {
    const context = await deviceOf(browser, second, mayaThere);
    try {
      const page = watch(await context.newPage());
      await page.goto(`${second.url}/create`);
      const json = JSON.stringify({
        format: 'pipit-app',
        definition: definitionOf({ title: 'From an old export' }),
      });
      await page.getByLabel('Choose a .pipit or .json file').setInputFiles({
        name: 'From an old export.pipit.json',
        mimeType: 'application/json',
        buffer: Buffer.from(json),
      });
      await page.getByRole('heading', { level: 1, name: 'From an old export' }).waitFor();
    } finally {
      await context.close();
    }
    expect(
      errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e)),
    ).toEqual([]);
  });
});
