import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { signUp } from './support/people';
import { addHabit, habitNames, openInstalledApp, publishHabitTracker } from './support/visitor';

/**
 * CSV import and export as people use them (docs/product/app-definition.md, CSV): a creator on
 * /demo imports a file with one bad row into a collection, sees that row's error, fixes it, and
 * the records show in the preview (1280 px, dark); a visitor of an installed app exports their
 * habits and imports the file back (375 px, light). Axe finds nothing and nothing scrolls sideways.
 */
describe('CSV import and export', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let shots = 0;
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  /** No sideways scrolling and nothing axe finds (once a colour change has finished fading). */
  async function fits(page: Page, label: string) {
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, label).toBeLessThanOrEqual(0);
    await expect.poll(() => axeViolations(page), { message: label }).toEqual([]);
    const folder = process.env.PIPIT_SHOTS;
    if (folder) await page.screenshot({ path: `${folder}/csv-${++shots}-${label}.png` });
  }

  const BOOKS = [
    'Title,Price,Read,Genre',
    'Dune,12.50,yes,Fiction',
    'Sapiens,abc,no,History',
    'Emma,8,yes,Fiction',
    'Ulysses,15,no,Fiction',
  ].join('\r\n');

  it('lets a creator fix a bad row and import every record at once', async () => {
    const device = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
      serviceWorkers: 'block',
    });
    const page = await device.newPage();
    errors.push(...collectPageErrors(page));
    const preview = page.getByRole('region', { name: 'Preview of Home' });
    await page.goto(`${pipit.url}/demo`);
    await preview.getByRole('heading', { name: 'My first app' }).waitFor();
    await page.getByRole('tab', { name: 'Collections' }).click();
    await page.getByRole('button', { name: '+ Add collection' }).click();
    await page.getByRole('textbox', { name: 'Collection name' }).fill('Books');
    await page.getByRole('button', { name: '+ Add field' }).click();
    await page.getByRole('textbox', { name: 'Field name' }).fill('Price');
    await page.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Number' });

    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import a CSV file into Books' });
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'books.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(BOOKS),
    });
    // Title and Read become new fields of the types their values suggest; Price goes into Price.
    await expect
      .poll(() => dialog.getByRole('combobox', { name: /Price/ }).inputValue())
      .toMatch(/^field:/);
    expect(
      await dialog.getByRole('combobox', { name: 'New field type for column 3' }).inputValue(),
    ).toBe('boolean');
    await dialog.getByText('Row 3: “abc” — Price must be a number, like 12 or 3.5.').waitFor();
    await dialog
      .getByText('1 row has an error. Fix it in the preview, or choose to skip it.')
      .waitFor();
    expect(await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(
      true,
    );
    await fits(page, 'creator-error-1280-dark');

    await dialog.getByRole('textbox', { name: 'Fix row 3, Price' }).fill('20');
    await dialog.getByRole('button', { name: 'Import 4 records' }).click();
    await page.getByText('Imported 4 records. Undo takes the import back.').waitFor();
    const second = page.getByRole('group', { name: 'Record 2' });
    expect(await second.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Sapiens');
    expect(await second.getByRole('spinbutton', { name: 'Price' }).inputValue()).toBe('20');

    await page.getByRole('button', { name: '+ Add component' }).click();
    await page
      .getByRole('list', { name: 'Component types' })
      .getByRole('button', { name: 'List', exact: true })
      .click();
    await page
      .getByRole('combobox', { name: 'Collection', exact: true })
      .selectOption({ label: 'Books' });
    await page
      .getByRole('combobox', { name: 'Title field', exact: true })
      .selectOption({ label: 'Title' });
    for (const title of ['Dune', 'Sapiens', 'Emma', 'Ulysses'])
      await preview.getByText(title, { exact: true }).waitFor();
    await fits(page, 'creator-preview-1280-dark');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'light' });
    // The editor takes its phone layout when it hears of the new width (a frame or more later on
    // a loaded machine): measured before then, it is the wide layout in a narrow window.
    await page.locator('.app-editor--narrow').waitFor();
    await fits(page, 'creator-editor-375-light');
    // On a phone the same dialog, over the Properties tab's collections.
    await page.getByRole('tab', { name: 'Properties' }).click();
    await page.getByRole('tab', { name: 'Collections' }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'books.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(BOOKS),
    });
    await dialog.getByText('Row 3: “abc” — Price must be a number, like 12 or 3.5.').waitFor();
    await fits(page, 'creator-dialog-375-light');
    await device.close();
  });

  it('lets a visitor export their habits and import the file back', async () => {
    const creator = await signUp(pipit, 'csvcreator');
    const appId = await publishHabitTracker(pipit, creator, { title: 'Habits to keep' });
    const device = await browser.newContext({
      viewport: { width: 375, height: 740 },
      colorScheme: 'light',
      serviceWorkers: 'block',
      acceptDownloads: true,
    });
    const page = await device.newPage();
    errors.push(...collectPageErrors(page));
    await openInstalledApp(page, pipit.url, appId);
    await addHabit(page, '=Stretch');
    await page.getByText('Your data on this device').click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Habits (1)' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('Habits.csv');
    const csv = await readFile((await file.path())!, 'utf8');
    // The habit that starts with = is protected against running as a spreadsheet formula.
    expect(csv.split('\r\n')[1]).toMatch(/^'=Stretch,/);

    await page.getByRole('button', { name: 'Import a CSV file…' }).click();
    await page.locator('.csv-data input[type=file]').setInputFiles({
      name: 'Habits.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByRole('button', { name: 'Import 1 record' }).waitFor();
    await fits(page, 'visitor-import-375-light');
    await page.getByRole('button', { name: 'Import 1 record' }).click();
    await page.getByText('Imported 1 item into Habits.').waitFor();
    expect(await habitNames(page)).toEqual(['=Stretch', '=Stretch']);
    await device.close();
    expect(errors).toEqual([]);
  });
});
