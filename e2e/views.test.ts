import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { signUp } from './support/people';
import { appScreens, openInEditor, openInstalledApp, poll, publishApp } from './support/visitor';

/** A phone in light mode and a laptop in dark mode: each walk is made on both. */
const DEVICES = [
  { name: 'a phone, light', viewport: { width: 375, height: 740 }, colorScheme: 'light' },
  { name: 'a laptop, dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
] as const;
type Device = (typeof DEVICES)[number];

const fits = screenChecks('views');

/** A board's column, by its choice ("Reading, 2 items"). */
const column = (page: Page, choice: string) =>
  page.getByRole('group', { name: new RegExp(`^${choice}, \\d+ items?$`) });

/**
 * A list's views as a visitor uses them (docs/product/app-definition.md, "Views of a list"): the
 * reading list's board of books by status and gallery of covers, the habit tracker's calendar of
 * check-ins and table of habits, and the budget's tables of expenses and of categories.
 */
describe('a list shown as a board, a calendar and a table', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let readingList: string;
  let habits: string;
  let budget: string;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    const creator = await signUp(pipit, 'vera');
    readingList = await publishApp(pipit, creator, definitionOf({}, 'reading-list'));
    habits = await publishApp(pipit, creator, definitionOf({}, 'habit-tracker'));
    budget = await publishApp(pipit, creator, definitionOf({}, 'budget'));
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await pipit?.close();
  });

  async function visitor(device: Device): Promise<Page> {
    const { viewport, colorScheme } = device;
    const context = await browser.newContext({ serviceWorkers: 'block', viewport, colorScheme });
    contexts.push(context);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    return page;
  }

  async function addBook(page: Page, title: string, author: string) {
    await page.getByRole('button', { name: 'Add a book' }).click();
    const form = page.getByRole('form', { name: 'New Books' });
    await form.getByLabel(/^Title/).fill(title);
    await form.getByLabel(/^Author/).fill(author);
    await form.getByRole('button', { name: 'Add book' }).click();
    // Back on the board, in the status a new book starts with.
    await column(page, 'Want to read').getByText(title, { exact: true }).waitFor();
  }

  it.each(DEVICES)(
    'moves a book to another column by dragging it, and with “Move to…” from the keyboard, on $name',
    async (device) => {
      const page = await visitor(device);
      await openInstalledApp(page, pipit.url, readingList);
      await appScreens(page)
        .getByRole('button', { name: /All books/ })
        .click();
      await page.getByText('No books yet. Add the one you are reading now.').waitFor();
      await addBook(page, 'Dune', 'Frank Herbert');
      await addBook(page, 'Emma', 'Jane Austen');
      await fits(page, 'board', column(page, 'Want to read'));

      // A mouse drags a card to the next column, dropped on the part of it in view (on a phone, its
      // edge beside the first column: the board scrolls sideways inside itself).
      const dune = column(page, 'Want to read').getByRole('listitem').filter({ hasText: 'Dune' });
      await dune.dragTo(column(page, 'Reading'), { targetPosition: { x: 16, y: 48 } });
      await column(page, 'Reading').getByText('Dune', { exact: true }).waitFor();
      await page.getByText('“Dune” moved to Reading.').waitFor();

      // The keyboard (and a touch screen) opens the card's “Move to…” and picks a column.
      await page.locator('summary').filter({ hasText: 'Move “Emma” to…' }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Read');
      await page.keyboard.press('Enter');
      await column(page, 'Read').getByText('Emma', { exact: true }).waitFor();
      // Focus followed the card to its new column, ready to move it again.
      await poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toBe(
        'Move “Emma” to…',
      );
      expect(await column(page, 'Want to read').getByRole('listitem').count()).toBe(0);
      await fits(page, 'board-moved', column(page, 'Read'));

      // The covers: neither book has a photo of one, so each shows the placeholder and its title.
      await appScreens(page)
        .getByRole('button', { name: /Covers/ })
        .click();
      const gallery = page.getByRole('list', { name: 'Books' });
      await gallery.getByText('Dune', { exact: true }).waitFor();
      expect(await gallery.locator('.rt-gallery-none').count()).toBe(2);
      expect(await gallery.locator('img').count()).toBe(0);
      await fits(page, 'gallery', gallery);
      // A card opens its book, whose cover is still to be added.
      await gallery.getByRole('button', { name: /Dune/ }).click();
      await page.getByRole('button', { name: 'Start reading' }).waitFor();
      expect(await page.locator('.rt-detail').innerText()).toMatch(/Cover\s+—/);
      await fits(page, 'book-detail', page.locator('.rt-detail'));
      expect(errors).toEqual([]);
    },
  );

  it.each(DEVICES)(
    'shows check-ins by month and by week, and logs one from a day with its date filled in, on $name',
    async (device) => {
      const page = await visitor(device);
      await openInstalledApp(page, pipit.url, habits);
      // A check-in is for one of the visitor's habits.
      await appScreens(page)
        .getByRole('button', { name: /Habits/ })
        .click();
      await page.getByRole('button', { name: 'Add a habit' }).click();
      await page
        .getByRole('form', { name: 'New Habits' })
        .getByLabel(/^Habit/)
        .fill('Stretch');
      await page.getByRole('button', { name: 'Add habit' }).click();
      await page.getByText('No check-ins yet', { exact: true }).waitFor();
      await appScreens(page)
        .getByRole('button', { name: /Progress/ })
        .click();
      // The day as the page's own locale and time zone say it.
      const today = await page.evaluate(() => {
        const now = new Date();
        const pad = (n: number) => String(n).padStart(2, '0');
        return {
          label: new Intl.DateTimeFormat(undefined, {
            weekday: 'long',
            day: 'numeric',
            month: 'long',
            year: 'numeric',
          }).format(now),
          key: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`,
        };
      });
      const addToday = page.getByRole('button', { name: `Add on ${today.label}` });
      await addToday.waitFor();
      // The month's grid (the screen's other table lists the habits).
      const month = page.locator('.rt-calendar').getByRole('table');
      expect(await month.count()).toBe(1);
      await fits(page, 'calendar-month', month);

      await page.getByRole('button', { name: 'Week', exact: true }).click();
      expect(
        await page.getByRole('button', { name: 'Week', exact: true }).getAttribute('aria-pressed'),
      ).toBe('true');
      expect(await month.count()).toBe(0);
      await page.getByRole('button', { name: 'Next week' }).click();
      await poll(() => addToday.count()).toBe(0);
      // The calendar's own Today (the app has a tab of that name too).
      await page
        .locator('.rt-calendar')
        .getByRole('button', { name: 'Today', exact: true })
        .click();
      await addToday.waitFor();
      await fits(page, 'calendar-week', addToday);

      await addToday.click();
      const form = page.getByRole('form', { name: 'New Check-ins' });
      expect(await form.getByLabel(/^Date/).inputValue()).toBe(today.key);
      await form
        .getByRole('group', { name: /^Habit/ })
        .getByLabel('Stretch', { exact: true })
        .check();
      await form.getByRole('button', { name: 'Log it' }).click();
      // Back on the calendar, the check-in on its day.
      const logged = month.getByText('Stretch', { exact: true });
      await logged.waitFor();
      await fits(page, 'calendar-logged', logged);
      await page.getByRole('button', { name: 'Week', exact: true }).click();
      await page
        .locator('.rt-calendar')
        .getByRole('list')
        .getByText('Stretch', { exact: true })
        .waitFor();
      await fits(page, 'calendar-logged-week', addToday);

      // The habit counts its check-in and says it was today.
      const each = page.getByRole('table', { name: /^Habits/ });
      await poll(() => each.locator('tbody tr').first().innerText()).toMatch(
        /^Stretch\s+Checked in today\s+.+\s+1$/,
      );
      await fits(page, 'habits-table', each);
      await appScreens(page)
        .getByRole('button', { name: /Habits/ })
        .click();
      await page.getByText('Checked in today', { exact: true }).waitFor();
      await fits(page, 'habits-list', page.getByText('Checked in today', { exact: true }));
      expect(errors).toEqual([]);
    },
  );

  it.each(DEVICES)(
    'sorts expenses by a column from the keyboard and opens one, the table scrolling inside itself, on $name',
    async (device) => {
      const page = await visitor(device);
      await openInstalledApp(page, pipit.url, budget);
      await appScreens(page)
        .getByRole('button', { name: /Expenses/ })
        .click();
      for (const [what, amount, category] of [
        ['Rent', '900', 'Housing'],
        ['Bus pass', '45.5', 'Transport'],
        ['Groceries for the week', '120', 'Groceries'],
      ]) {
        await page.getByRole('button', { name: 'Add an expense' }).click();
        const form = page.getByRole('form', { name: 'New Expenses' });
        await form.getByLabel(/^What/).fill(what!);
        await form.getByLabel(/^Amount/).fill(amount!);
        await form
          .getByRole('group', { name: /^Category/ })
          .getByLabel(category!, { exact: true })
          .check();
        await form.getByLabel(/^Month/).selectOption('March');
        if (what === 'Rent') await fits(page, 'expense-form', form);
        await form.getByRole('button', { name: 'Add expense' }).click();
        await page.getByRole('table').getByText(what!, { exact: true }).waitFor();
      }
      const table = page.getByRole('table', { name: /^Expenses/ });
      const rows = () => table.locator('tbody th').allInnerTexts();
      const amount = table.getByRole('columnheader', { name: /^Amount/ });
      await fits(page, 'table', table);

      await amount.getByRole('button').focus();
      await page.keyboard.press('Enter');
      expect(await amount.getAttribute('aria-sort')).toBe('ascending');
      expect(await rows()).toEqual(['Bus pass', 'Groceries for the week', 'Rent']);
      await page.keyboard.press('Enter');
      expect(await amount.getAttribute('aria-sort')).toBe('descending');
      expect(await rows()).toEqual(['Rent', 'Groceries for the week', 'Bus pass']);
      await fits(page, 'table-sorted', table);

      await table.getByRole('button', { name: 'Bus pass' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Expense', level: 2 }).waitFor();

      // Each category adds up its expenses, biggest first, on the overview.
      await appScreens(page)
        .getByRole('button', { name: /Overview/ })
        .click();
      const categories = page.getByRole('table', { name: /^Categories/ });
      await poll(() => categories.locator('tbody tr').allInnerTexts()).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Housing\s+\$900\.00\s+1\s+\$900\.00$/),
          expect.stringMatching(/^Groceries\s+\$120\.00\s+1\s+\$120\.00$/),
        ]),
      );
      expect((await categories.locator('tbody th').allInnerTexts()).slice(0, 3)).toEqual([
        'Housing',
        'Groceries',
        'Transport',
      ]);
      await fits(page, 'categories-table', categories);
      // A category lists the expenses in it under its sums.
      await categories.getByRole('button', { name: 'Housing' }).click();
      const detail = page.locator('.rt-detail');
      await poll(() => detail.innerText()).toMatch(/Spent\s+\$900\.00[\s\S]*Rent/);
      await fits(page, 'category-detail', detail);
      expect(errors).toEqual([]);
    },
  );

  it('lets the creator show a list as a board, a gallery or a table, offering each view the fields it takes', async () => {
    const editor = await openInEditor(pipit, browser, 'rowan', definitionOf({}, 'recipe-book'));
    const { page } = editor;
    const preview = page.getByRole('region', { name: 'Preview of Recipes' });
    await page
      .getByRole('list', { name: 'Components on Recipes' })
      .locator('.tree-row__select')
      .filter({ hasText: 'List' })
      .click();
    const showAs = page.getByRole('combobox', { name: 'Show as', exact: true });
    const picker = (name: string) => page.getByRole('combobox', { name, exact: true });
    const offered = (name: string) => picker(name).locator('option').allInnerTexts();
    const chosen = (name: string) => picker(name).locator('option:checked').innerText();
    expect(await picker('Board columns by').count()).toBe(0);

    // A board: its field is the first choice field, and only choice fields are offered.
    await showAs.selectOption({ label: 'Board' });
    expect(await chosen('Board columns by')).toBe('Course');
    expect(await offered('Board columns by')).toEqual(['None', 'Course', 'Diet']);
    await preview.getByRole('group', { name: 'Dinner, 1 item' }).waitFor();
    await preview.getByRole('group', { name: 'Breakfast, 1 item' }).waitFor();
    // The preview shows the creator's records and moves none.
    expect(await preview.locator('summary').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // A gallery: web address fields only; a recipe without a picture shows a placeholder.
    await showAs.selectOption({ label: 'Gallery' });
    expect(await picker('Board columns by').count()).toBe(0);
    expect(await chosen('Picture field')).toBe('Source');
    expect(await offered('Picture field')).toEqual(['None', 'Source']);
    await preview.getByRole('list', { name: 'Recipes' }).getByText('Overnight oats').waitFor();

    // A table: the columns to show, as a checklist.
    await showAs.selectOption({ label: 'Table' });
    await page
      .getByRole('group', { name: 'Table columns' })
      .getByRole('checkbox', { name: 'Name' })
      .check();
    await page
      .getByRole('group', { name: 'Table columns' })
      .getByRole('checkbox', { name: 'Course' })
      .check();
    const table = preview.getByRole('table', { name: /^Recipes/ });
    // Sorted as the creator's list is, by name.
    await poll(() => table.getByRole('columnheader').allTextContents()).toEqual([
      'Name↑',
      'Course↕',
    ]);
    expect(await axeViolations(page)).toEqual([]);
    expect(editor.errors).toEqual([]);
  });
});
