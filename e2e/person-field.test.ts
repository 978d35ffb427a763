import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { deviceOf, type Person, signUp } from './support/people';
import { makeSpace, openInstalledApp, poll, publishApp, syncNote } from './support/visitor';

const fits = screenChecks('person');

/**
 * The household shopping list with an "Assigned to" person field on its shared items: on the add
 * and edit forms, the item's detail and the to-buy list's second line.
 */
function withAssignee() {
  const definition = definitionOf({ title: 'Our household' }, 'household-shopping-list');
  const items = definition.collections.find((c) => c.name === 'Items')!;
  items.fields.push({
    id: 'assignee',
    name: 'Assigned to',
    type: 'person',
    required: false,
    default: null,
    options: [],
  });
  for (const screen of definition.screens)
    for (const c of screen.components) {
      const props = c.props as Record<string, unknown>;
      const fieldIds = Array.isArray(props.fieldIds) ? (props.fieldIds as string[]) : [];
      // A detail shows the record its screen was opened with: it names the item's fields only.
      const ofItems = props.collectionId === items.id || fieldIds.includes(items.fields[0]!.id);
      if (!ofItems) continue;
      if ((c.type === 'form' || c.type === 'detail') && fieldIds.length)
        props.fieldIds = [...fieldIds, 'assignee'];
      if (c.type === 'list') props.subtitleFieldId = 'assignee';
    }
  return definition;
}

const spacesDialog = (page: Page) => page.locator('dialog.spaces-dialog');

/** A list's item, by the words it starts with (a list opens items as links or buttons). */
const itemIn = (page: Page, title: string) =>
  page
    .getByRole('link', { name: new RegExp(`^${title}`) })
    .or(page.getByRole('button', { name: new RegExp(`^${title}`) }))
    .first();

/** Shows the space in the app, as a person does from the spaces dialog. */
async function showSpace(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /Share with people/ }).click();
  await spacesDialog(page)
    .getByRole('radio', { name: new RegExp(name) })
    .check();
  await spacesDialog(page).getByRole('button', { name: 'Close' }).click();
}

/**
 * A person field as a household uses it (docs/product/spaces.md, "Assigned to"): Ada assigns an
 * item to Ben in their space, picking him by name; Ben sees it assigned to him, by his name, in the
 * list and the item, and narrows the list to what is his. Ada on a phone (375 px), Ben on a laptop
 * (1280 px), then the other way round, each screen axe clean.
 */
describe('a person field in a shared space', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let ada: Person;
  let ben: Person;
  let appId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    let creator: Person;
    [creator, ada, ben] = await Promise.all([
      signUp(pipit, 'maker'),
      signUp(pipit, 'ada'),
      signUp(pipit, 'ben'),
    ]);
    // The names the space's people know them by, never their ids.
    await pipit.server.storage.users.update(ada.id, { displayName: 'Ada Lovelace' });
    await pipit.server.storage.users.update(ben.id, { displayName: 'Ben Okafor' });
    appId = await publishApp(pipit, creator, withAssignee());
    await makeSpace(ada, appId, 'Our flat', ['ben']);
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  it('Ada assigns an item to Ben, who sees it is his by name', async () => {
    const adaDevice = await deviceOf(browser, pipit, ada, {
      viewport: { width: 375, height: 812 },
    });
    const benDevice = await deviceOf(browser, pipit, ben, {
      viewport: { width: 1280, height: 800 },
    });
    try {
      const adaPage = await adaDevice.newPage();
      const benPage = await benDevice.newPage();
      errors.push(...collectPageErrors(adaPage), ...collectPageErrors(benPage));
      await openInstalledApp(adaPage, pipit.url, appId);
      await showSpace(adaPage, 'Our flat');
      await openInstalledApp(benPage, pipit.url, appId);
      await showSpace(benPage, 'Our flat');

      // Ada's form offers nobody, herself as "Me", then Ben, by the names the space knows.
      await adaPage.getByRole('button', { name: 'Add an item' }).click();
      const form = adaPage.getByRole('form', { name: /^New / });
      const assignee = form.getByLabel('Assigned to');
      await poll(() => assignee.locator('option').allInnerTexts()).toEqual([
        'Nobody',
        'Me (Ada Lovelace)',
        'Ben Okafor',
      ]);
      await form.getByLabel(/^Item/).fill('Bin bags');
      await assignee.selectOption({ label: 'Ben Okafor' });
      await fits(adaPage, 'form', form);
      await form.getByRole('button', { name: /Add/ }).click();
      await poll(() => syncNote(adaPage).innerText()).toBe('Saved');

      // One of Ada's own, to see that Ben's "Me" leaves it out.
      await adaPage.getByRole('button', { name: 'Add an item' }).click();
      await form.getByLabel(/^Item/).fill('Lemons');
      await assignee.selectOption({ label: 'Me (Ada Lovelace)' });
      await form.getByRole('button', { name: /Add/ }).click();
      await poll(() => syncNote(adaPage).innerText()).toBe('Saved');

      // Ben's to-buy list names who each item is assigned to, and "Me" keeps his.
      await benPage.getByRole('button', { name: 'Still to buy, by aisle' }).click();
      const bins = itemIn(benPage, 'Bin bags');
      await poll(() => bins.innerText()).toContain('Ben Okafor');
      await poll(() => itemIn(benPage, 'Lemons').innerText()).toContain('Ada Lovelace');
      await fits(benPage, 'list', bins);
      await benPage
        .getByRole('group', { name: 'Assigned to' })
        .getByRole('button', { name: 'Me' })
        .click();
      await poll(() => itemIn(benPage, 'Lemons').count()).toBe(0);
      await bins.waitFor();
      await fits(benPage, 'list-mine', bins);

      // The item itself: assigned to Ben, by his name.
      await bins.click();
      const row = benPage.locator('.rt-detail-row').filter({ hasText: 'Assigned to' });
      await poll(() => row.locator('dd').innerText()).toBe('Ben Okafor');
      await fits(benPage, 'detail', row);

      // The other way round: Ben on a phone, Ada on a laptop, each still reads it the same.
      await benPage.setViewportSize({ width: 375, height: 812 });
      await fits(benPage, 'detail', row);
      await adaPage.setViewportSize({ width: 1280, height: 800 });
      await adaPage.getByRole('button', { name: 'Add an item' }).click();
      await fits(adaPage, 'form', adaPage.getByRole('form', { name: /^New / }));
      await openInstalledApp(adaPage, pipit.url, appId);
      await adaPage.getByRole('button', { name: 'Still to buy, by aisle' }).click();
      await poll(() => itemIn(adaPage, 'Bin bags').innerText()).toContain('Ben Okafor');
      await fits(adaPage, 'list', itemIn(adaPage, 'Bin bags'));
    } finally {
      await adaDevice.close();
      await benDevice.close();
    }
  });

  it('logs no console errors', () => {
    expect(errors).toEqual([]);
  });
});
