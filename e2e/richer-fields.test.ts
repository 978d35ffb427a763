import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';

/**
 * The richer field types and a formula as a creator makes them on /demo: money, a rating and a
 * formula field checked as it is typed, a record, and a list whose subtitle is the formula, worked
 * out in the preview. Checked at 1280 px in dark mode and at 375 px in light mode.
 */
describe('richer fields and a formula in the editor', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let device: BrowserContext;
  let page: Page;
  let errors: string[];
  let shots = 0;

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    device = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
      serviceWorkers: 'block',
    });
    page = await device.newPage();
    errors = collectPageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  const preview = () => page.getByRole('region', { name: 'Preview of Home' });

  /** No sideways scrolling and nothing axe finds; saved to PIPIT_SHOTS when it is set. */
  async function fits(label: string) {
    const folder = process.env.PIPIT_SHOTS;
    if (folder) await page.screenshot({ path: `${folder}/richer-fields-${++shots}-${label}.png` });
    // Polled: right after the window is resized or its colour scheme changes, the editor switches
    // layout on its next render and colours finish their transition; what is judged is the page
    // once it has settled.
    await expect
      .poll(
        () =>
          page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          ),
        { message: label },
      )
      .toBeLessThanOrEqual(0);
    await expect.poll(() => axeViolations(page), { message: label }).toEqual([]);
  }

  async function addField(name: string, type?: string) {
    await page.getByRole('button', { name: '+ Add field' }).click();
    await page.getByRole('textbox', { name: 'Field name' }).fill(name);
    if (type) await page.getByRole('combobox', { name: 'Type' }).selectOption({ label: type });
  }

  it('adds money, a number, a rating and a formula that is checked as it is typed', async () => {
    await page.goto(`${pipit.url}/demo`);
    await preview().getByRole('heading', { name: 'My first app' }).waitFor();
    await page.getByRole('tab', { name: 'Collections' }).click();
    await page.getByRole('button', { name: '+ Add collection' }).click();
    await page.getByRole('textbox', { name: 'Collection name' }).fill('Books');
    await addField('Title');
    await addField('Price', 'Money');
    await addField('Copies', 'Number');
    await addField('Stars', 'Rating');
    await page.getByRole('combobox', { name: 'Stars', exact: true }).selectOption('4');
    await addField('Total', 'Formula');

    const formula = page.getByRole('textbox', { name: 'Formula' });
    await formula.fill('{Price} * {Copies');
    await page
      .getByText(/^Missing \} to close|^Missing \)|Unknown field|^Expected/)
      .first()
      .waitFor();
    await formula.fill('{Price} * {Copie}');
    await page
      .getByText(/Unknown field \{Copie\}.*Copies/)
      .first()
      .waitFor();
    await formula.fill('{Price} * {Copies}');
    await page.getByText('Gives a number.', { exact: false }).waitFor();
    await fits('fields-1280-dark');
  });

  it('keeps a record’s typed values and shows the formula worked out in the preview', async () => {
    await page.getByRole('button', { name: '+ Add record' }).click();
    const record = page.getByRole('group', { name: 'Record 1' });
    await record.getByRole('textbox', { name: 'Title' }).fill('Dune');
    await record.getByRole('textbox', { name: 'Price' }).fill('$12.50');
    await record.getByRole('spinbutton', { name: 'Copies' }).fill('3');
    await record.getByRole('combobox', { name: 'Stars' }).selectOption({ label: '★★★★ (4)' });
    await record.getByRole('textbox', { name: 'Price' }).fill('a lot');
    await record.getByText('Price must be an amount, like 12.50.').waitFor();
    await record.getByRole('textbox', { name: 'Price' }).fill('12.50');

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
    await page
      .getByRole('combobox', { name: 'Subtitle field', exact: true })
      .selectOption({ label: 'Total' });
    await preview().getByText('Dune').waitFor();
    // 12.50 × 3, worked out by the formula engine, loaded only now that the app has a formula.
    await preview().getByText('37.5').waitFor();
    await fits('preview-1280-dark');

    await page.setViewportSize({ width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'light' });
    // Measured once the editor has taken its phone layout (it hears of the new width a frame or
    // more later on a loaded machine).
    await page.locator('.app-editor--narrow').waitFor();
    await fits('editor-375-light');
    expect(errors).toEqual([]);
  });
});
