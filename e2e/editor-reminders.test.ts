import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own test helper builds a template's definition (e2e has no Yjs of its own).
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { deviceOf, type Person, signUp } from './support/people';
import { publishApp } from './support/visitor';

const fits = screenChecks('editor-reminders');

/**
 * A creator sets up the guest list's reminders in the editor (docs/product/reminders.md, "In the
 * editor"): a daily one and one the day before each event, edits them, meets a value the schema
 * refuses (nothing is written), reorders, deletes and undoes, and follows a publish problem about
 * a reminder back to it; then the same panel on a phone. On a laptop in dark mode and a phone in
 * light mode, nothing scrolls sideways and axe finds nothing.
 */
describe('the Reminders panel in the editor', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let creator: Person;
  let appId: string;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    creator = await signUp(pipit, 'noor');
    appId = await publishApp(pipit, creator, definitionOf({ title: 'Garden party' }, 'guest-list'));
    const laptop = await deviceOf(browser, pipit, creator, {
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
    });
    page = await laptop.newPage();
    errors = collectPageErrors(page);
    await page.goto(`${pipit.url}/apps/${appId}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Garden party' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  const panel = (on: Page = page) => on.locator('.reminders-panel');
  const editor = (on: Page = page) => on.locator('.reminder-editor');
  /** The rows as they read, top to bottom: title, then the schedule in words. */
  const rows = (on: Page = page) =>
    panel(on)
      .getByRole('list', { name: 'Reminders' })
      .locator('.reminder-row')
      .evaluateAll((buttons) =>
        buttons.map((button) =>
          [...button.querySelectorAll('.reminder-row__title, .reminder-row__when')]
            .map((part) => part.textContent)
            .join(' · '),
        ),
      );
  const count = () => panel().locator('.reminders-panel__count').innerText();

  it('shows the panel beside Actions, empty, with what visitors decide', async () => {
    await page.getByRole('tab', { name: 'Reminders' }).click();
    await panel().getByText('No reminders yet.').waitFor();
    expect(await count()).toBe('0 of 10');
    await panel()
      .getByText('Visitors choose their own time and turn each reminder on in the installed app.')
      .waitFor();
    await fits(page, 'empty', panel());
  });

  it('adds a daily reminder, named as it is added', async () => {
    await panel().getByRole('button', { name: '+ Add reminder' }).click();
    const title = editor().getByRole('textbox', { name: 'Title' });
    // Focused and selected: typing names it.
    await expect.poll(() => title.evaluate((input) => input === document.activeElement)).toBe(true);
    await page.keyboard.type('Reply to the invitation');
    await editor().getByRole('textbox', { name: 'Text' }).fill('Will you come? Tap to answer.');
    await expect.poll(() => rows()).toEqual(['Reply to the invitation · Every day at 20:00']);
    expect(await count()).toBe('1 of 10');
  });

  it('adds a reminder the day before each event, at 09:00', async () => {
    await panel().getByRole('button', { name: '+ Add reminder' }).click();
    await editor().getByRole('textbox', { name: 'Title' }).fill('Party tomorrow');
    await editor()
      .getByRole('combobox', { name: 'Remind' })
      .selectOption({ label: 'On a day counted from a record’s date' });
    // The guest list's one collection with a date: its events, counted from When.
    expect(await editor().getByRole('combobox', { name: 'Collection' }).inputValue()).not.toBe('');
    await editor().getByRole('combobox', { name: 'Date field' }).waitFor();
    await editor().getByLabel('At', { exact: true }).fill('09:00');
    await expect
      .poll(() => rows())
      .toEqual([
        'Reply to the invitation · Every day at 20:00',
        'Party tomorrow · 1 day before When at 09:00',
      ]);
    // Its events are the visitor's own and the creator's, not a space's: no word of spaces.
    expect(
      await editor()
        .getByText(/Shared in a space/)
        .count(),
    ).toBe(0);
    await fits(page, 'day-before', editor());
  });

  it('shows the schema’s message for a bad value and writes nothing until it is fixed', async () => {
    const days = editor().getByRole('spinbutton', { name: 'Days' });
    await days.fill('400');
    await editor().getByText('Remind at most 365 days before the date.').waitFor();
    expect(await days.getAttribute('aria-invalid')).toBe('true');
    await editor()
      .getByText('Until this is fixed, it stays “1 day before When at 09:00”.')
      .waitFor();
    expect((await rows())[1]).toBe('Party tomorrow · 1 day before When at 09:00');
    await fits(page, 'invalid', editor());
    await days.fill('2');
    await expect
      .poll(async () => (await rows())[1])
      .toBe('Party tomorrow · 2 days before When at 09:00');
    expect(await editor().getByText('Remind at most 365 days').count()).toBe(0);

    // A title can't be empty either: the last good one stays.
    const title = editor().getByRole('textbox', { name: 'Title' });
    await title.fill('   ');
    await editor().getByText('Give the reminder a title.').waitFor();
    expect((await rows())[1]).toBe('Party tomorrow · 2 days before When at 09:00');
    await title.fill('Party tomorrow');
  });

  it('edits the daily reminder’s days with the weekday chips', async () => {
    await panel()
      .getByRole('button', { name: /^Reply to the invitation/ })
      .click();
    await editor().getByRole('button', { name: 'Weekdays' }).click();
    await expect
      .poll(async () => (await rows())[0])
      .toBe('Reply to the invitation · On Mon, Tue, Wed, Thu, Fri at 20:00');
    expect(
      await editor().getByRole('button', { name: 'Saturday' }).getAttribute('aria-pressed'),
    ).toBe('false');
    await editor().getByRole('button', { name: 'Saturday' }).click();
    await expect
      .poll(async () => (await rows())[0])
      .toBe('Reply to the invitation · On Mon, Tue, Wed, Thu, Fri, Sat at 20:00');
    // Each valid choice is written; no day at all is refused at the chips, and the reminder keeps
    // the last days it had.
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'])
      await editor().getByRole('button', { name: day }).click();
    await expect
      .poll(async () => (await rows())[0])
      .toBe('Reply to the invitation · On Sat at 20:00');
    await editor().getByRole('button', { name: 'Saturday' }).click();
    await editor().getByText('Choose at least one day.').waitFor();
    expect((await rows())[0]).toBe('Reply to the invitation · On Sat at 20:00');
    await editor().getByRole('button', { name: 'Every day' }).click();
    await editor().getByText('Choose at least one day.').waitFor({ state: 'detached' });
  });

  it('reorders with the keyboard', async () => {
    await panel()
      .getByRole('button', { name: /^Party tomorrow/ })
      .focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect
      .poll(() => rows())
      .toEqual([
        'Party tomorrow · 2 days before When at 09:00',
        'Reply to the invitation · Every day at 20:00',
      ]);
    await panel().getByRole('button', { name: 'Move Party tomorrow down' }).click();
    await expect.poll(async () => (await rows())[1]).toMatch(/^Party tomorrow/);
  });

  it('deletes a reminder after asking, and undo brings it back', async () => {
    await panel()
      .getByRole('button', { name: /^Party tomorrow/ })
      .click();
    await editor().getByRole('button', { name: 'Delete reminder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Party tomorrow”?' });
    await dialog.getByRole('button', { name: 'Delete reminder' }).click();
    await expect.poll(() => rows()).toEqual(['Reply to the invitation · Every day at 20:00']);
    expect(await count()).toBe('1 of 10');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(() => rows())
      .toEqual([
        'Reply to the invitation · Every day at 20:00',
        'Party tomorrow · 2 days before When at 09:00',
      ]);
  });

  it('adds a reminder offline, like any other edit, and it syncs once back online', async () => {
    await page.context().setOffline(true);
    await panel().getByRole('button', { name: '+ Add reminder' }).click();
    await editor().getByRole('textbox', { name: 'Title' }).fill('Bring a dish');
    await expect.poll(async () => (await rows())[2]).toBe('Bring a dish · Every day at 20:00');
    await page.context().setOffline(false);
  });

  it('names a reminder in a publish problem, and opens it from there', async () => {
    // The field the reminder counts from is deleted: publishing says which reminder to fix.
    await page.getByRole('tab', { name: 'Collections' }).click();
    await page
      .getByRole('list', { name: 'Collections' })
      .getByRole('button', { name: 'Events' })
      .click();
    await page.getByRole('button', { name: /^When/, expanded: false }).click();
    await page.getByRole('button', { name: 'Delete field' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the field “When”?' })
      .getByRole('button', { name: 'Delete field' })
      .click();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish' });
    await dialog.getByRole('button', { name: /^Publish version 2/ }).click();
    const problem = dialog.getByRole('button', { name: /^Reminder “Party tomorrow”:/ });
    await problem.click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('tab', { name: 'Reminders' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await editor().getByRole('heading', { name: 'Party tomorrow' }).waitFor();
    await editor().getByText('This field is no longer in Events.', { exact: false }).waitFor();
    expect(await panel().getByText('Needs a fix before publishing').count()).toBe(1);
    await fits(page, 'publish-problem', editor());
    // The refused publish's 422 is the browser's own log line.
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });

  it('fits a phone in light mode, where the panel is a tab away', async () => {
    const phone = await deviceOf(browser, pipit, creator, {
      viewport: { width: 375, height: 740 },
      colorScheme: 'light',
      isMobile: true,
      hasTouch: true,
    });
    const small = await phone.newPage();
    const phoneErrors = collectPageErrors(small);
    await small.goto(`${pipit.url}/apps/${appId}/edit`);
    await small.getByRole('tab', { name: 'Properties' }).click();
    await small.getByRole('tab', { name: 'Reminders' }).click();
    // The reminder added offline on the laptop is here too.
    await expect.poll(() => rows(small)).toHaveLength(3);
    expect((await rows(small))[2]).toBe('Bring a dish · Every day at 20:00');
    await fits(small, 'phone-list', panel(small).getByRole('list', { name: 'Reminders' }));
    await panel(small)
      .getByRole('button', { name: /^Reply to the invitation/ })
      .click();
    await editor(small).getByRole('button', { name: 'Monday' }).waitFor();
    await fits(small, 'phone-weekly', editor(small).locator('.reminder-schedule'));
    await panel(small)
      .getByRole('button', { name: /^Party tomorrow/ })
      .click();
    await editor(small).getByRole('spinbutton', { name: 'Days' }).fill('-1');
    await editor(small).getByText('from 0 up', { exact: false }).waitFor();
    await fits(small, 'phone-invalid', editor(small).locator('.reminder-schedule'));
    expect(phoneErrors).toEqual([]);
    await phone.close();
  });

  it('stops adding at ten reminders, and says why', async () => {
    for (let n = 3; n < 10; n++)
      await panel().getByRole('button', { name: '+ Add reminder' }).click();
    await expect.poll(() => count()).toBe('10 of 10');
    const add = panel().getByRole('button', { name: '+ Add reminder' });
    expect(await add.isDisabled()).toBe(true);
    const reason = 'An app can have at most 10 reminders. Delete one to add another.';
    await panel().getByText(reason).waitFor();
    const describedBy = await add.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(reason);
  });
});
