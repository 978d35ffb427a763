import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { signUp } from './support/people';
import { appScreens, openInstalledApp, publishApp } from './support/visitor';

/** A phone in light mode and a laptop in dark mode: the walk is made on both. */
const DEVICES = [
  { name: 'a phone, light', viewport: { width: 375, height: 740 }, colorScheme: 'light' },
  { name: 'a laptop, dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
] as const;

const fits = screenChecks('relations');

/** The rows of the detail on screen, as "Label: text". */
const detailRows = (page: Page) =>
  page
    .locator('.rt-detail-row')
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          `${row.querySelector('dt')?.textContent ?? ''}: ${[...(row.querySelector('dd')?.querySelectorAll('li') ?? [])].map((li) => li.textContent).join(', ') || (row.querySelector('dd')?.textContent ?? '')}`,
      ),
    );

/**
 * Relations and rollups as a visitor uses them (docs/product/app-definition.md, "Relations and
 * rollups"): the guest list's guests pick the events they come to, each event counts its guests
 * and the people coming and lists them, and removing an event leaves no broken link behind.
 */
describe('records linked to records', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let guestList: string;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    const creator = await signUp(pipit, 'rosa');
    guestList = await publishApp(pipit, creator, definitionOf({}, 'guest-list'));
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await pipit?.close();
  });

  const tab = (page: Page, name: string) =>
    appScreens(page)
      .getByRole('button', { name: new RegExp(name) })
      .click();

  it.each(DEVICES)(
    'links guests to events, counts them on each event both ways, and forgets a removed event, on $name',
    async ({ viewport, colorScheme }) => {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport, colorScheme });
      contexts.push(context);
      const page = await context.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, guestList);

      await tab(page, 'Events');
      for (const name of ['Ceremony', 'Dinner']) {
        await page.getByRole('button', { name: 'Add an event' }).click();
        const form = page.getByRole('form', { name: 'New Events' });
        await form.getByLabel(/^Event/).fill(name);
        await form.getByRole('button', { name: 'Add event' }).click();
        await page.getByText(name, { exact: true }).waitFor();
      }

      await tab(page, 'Guests');
      for (const [name, party, events] of [
        ['Ana', '2', ['Ceremony', 'Dinner']],
        ['Ben', '3', ['Dinner']],
      ] as const) {
        await page.getByRole('button', { name: 'Add a guest' }).click();
        const form = page.getByRole('form', { name: 'New Guests' });
        await form.getByLabel(/^Name/).fill(name);
        await form.getByLabel(/^Party size/).fill(party);
        const picker = form.getByRole('group', { name: 'Events' });
        for (const event of events) await picker.getByLabel(event, { exact: true }).check();
        if (name === 'Ana') await fits(page, 'guest-form', picker);
        await form.getByRole('button', { name: 'Add guest' }).click();
        await page.getByText('Guest added').waitFor();
      }

      await tab(page, 'Events');
      await page.getByText('Dinner', { exact: true }).click();
      await page.locator('.rt-detail').waitFor();
      // The guests linking here list once relations' own chunk is here.
      await expect
        .poll(() => detailRows(page))
        .toEqual([
          'Event: Dinner',
          'When: —',
          'Where: —',
          'Guest count: 2',
          'People invited: 5',
          'Guests: Ana, Ben',
        ]);
      await fits(page, 'event-detail', page.locator('.rt-detail'));

      // A linked guest opens on the guest's own screen, which lists the events they chose.
      await page.locator('.rt-detail').getByRole('button', { name: 'Ana' }).click();
      await page.getByRole('button', { name: 'Coming', exact: true }).waitFor();
      await expect.poll(() => detailRows(page)).toContain('Events: Ceremony, Dinner');
      await fits(page, 'guest-detail', page.locator('.rt-detail'));

      // The ceremony is called off: Ana's link to it goes, without an error in its place.
      await page.locator('.rt-detail').getByRole('button', { name: 'Ceremony' }).click();
      await page.getByRole('button', { name: 'Remove event' }).click();
      await page.getByText('Event removed').waitFor();
      await tab(page, 'Guests');
      await page.getByText('Ana', { exact: true }).first().click();
      await page.getByRole('button', { name: 'Coming', exact: true }).waitFor();
      await expect.poll(() => detailRows(page)).toContain('Events: Dinner');
      expect(await page.locator('.rt-detail').textContent()).not.toContain('Ceremony');
      expect(errors).toEqual([]);
    },
  );
});
