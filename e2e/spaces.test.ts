import { documentName } from '@pipit/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
// The server's own test helpers open a document over a real websocket (e2e has no Yjs of its own).
import { definitionOf } from '../sync-server/test/support/publishing';
import { readSpaceDocumentAs } from '../sync-server/test/support/visitor-data';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, PERSON_PASSWORD, type Person, signUp } from './support/people';
import { untilControlled } from './support/service-worker';
import {
  appScreens,
  goOffline,
  goOnline,
  openInstalledApp,
  poll,
  publishApp,
  storedUpdates,
  syncNote,
} from './support/visitor';

/** The items on the shopping list, as its checklist shows them. */
async function shoppingItems(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Items' });
  if ((await list.count()) === 0) return [];
  return (await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim()).sort();
}

async function addItem(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Add an item' }).click();
  const form = page.getByRole('form', { name: /^New / });
  await form.getByLabel(/^Item/).fill(name);
  await form.getByRole('button', { name: 'Add to list' }).click();
  await page.getByRole('list', { name: 'Items' }).getByText(name, { exact: true }).waitFor();
}

const spacesButton = (page: Page) => page.getByRole('button', { name: /Share with people/ });
/** The spaces dialog, whichever of its views shows (its title names the view). */
const spacesDialog = (page: Page) => page.locator('dialog.spaces-dialog');

/**
 * Shared spaces as people use them (docs/product/spaces.md), in the household shopping list
 * template: Ada makes a space and invites Ben by link; both add items, Ben offline for a while, and
 * the lists converge; Ben leaves and no longer sees what Ada adds, his device drops the space; the
 * app's creator never gets in.
 */
describe('a shared space in an installed app', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let creator: Person;
  let ada: Person;
  let ben: Person;
  let appId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    [creator, ada, ben] = await Promise.all([
      signUp(pipit, 'maker'),
      signUp(pipit, 'ada'),
      signUp(pipit, 'ben'),
    ]);
    appId = await publishApp(pipit, creator, definitionOf({}, 'household-shopping-list'));
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  it('invites by link, converges after offline edits, and forgets the space on leaving', async () => {
    const adaDevice = await deviceOf(browser, pipit, ada, {
      viewport: { width: 390, height: 844 },
    });
    // Ben's device keeps the app offline (its service worker), as an installed app does.
    const benDevice: BrowserContext = await deviceOf(browser, pipit, ben, {
      serviceWorkers: 'allow',
    });
    try {
      const adaPage = await adaDevice.newPage();
      const benPage = await benDevice.newPage();
      errors.push(...collectPageErrors(adaPage), ...collectPageErrors(benPage));

      // Ada's private list first: one item, which moves into the space she makes.
      await openInstalledApp(adaPage, pipit.url, appId);
      await addItem(adaPage, 'Milk');
      await spacesButton(adaPage).click();
      const dialog = spacesDialog(adaPage);
      await dialog.getByRole('button', { name: 'New space' }).click();
      await dialog.getByLabel('Name of the space').fill('Our flat');
      await expect.poll(() => dialog.getByLabel(/Move my item into it/).isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Make the space' }).click();
      await dialog.getByRole('heading', { name: 'Our flat' }).waitFor();
      expect(await axeViolations(adaPage, '.spaces-dialog')).toEqual([]);
      await dialog.getByRole('button', { name: 'Make a link' }).click();
      const link = await dialog.getByRole('textbox', { name: 'Invitation link' }).inputValue();
      expect(link).toMatch(new RegExp(`^${pipit.url}/join/[A-Za-z0-9_-]{32}$`));
      await dialog.getByRole('button', { name: 'Close' }).click();
      await poll(() => shoppingItems(adaPage)).toEqual(['Milk']);
      await poll(() => syncNote(adaPage).innerText()).toBe('Saved');

      // Ben opens the link, sees whose space it is, joins, and lands in the app on the space.
      await benPage.goto(link);
      await benPage.getByRole('heading', { name: 'Join “Our flat”' }).waitFor();
      await benPage.getByRole('button', { name: 'Join as @ben' }).click();
      await appScreens(benPage).waitFor();
      await poll(() => shoppingItems(benPage)).toEqual(['Milk']);
      await untilControlled(benPage);
      // Presence: each sees the other in the space now.
      await adaPage.getByText('ben is here').waitFor();

      // Ben goes offline (a reload while offline: his socket is gone) and adds an item.
      await goOffline(benDevice, benPage);
      await benPage.reload();
      await appScreens(benPage).waitFor();
      await poll(() => shoppingItems(benPage)).toEqual(['Milk']);
      await addItem(benPage, 'Eggs');
      const listed = await ada.api.get<{ spaces: { id: string }[] }>(`/api/apps/${appId}/spaces`);
      const spaceId = listed.body.spaces[0]!.id;
      const benCopy = `pipit:account:${ben.id}:${documentName({ kind: 'space', spaceId })}`;
      await poll(() => storedUpdates(benPage, benCopy)).toBeGreaterThan(0);
      // Meanwhile Ada adds one: neither sees the other's yet.
      await addItem(adaPage, 'Bread');
      expect(await shoppingItems(adaPage)).toEqual(['Bread', 'Milk']);

      // Back online: both lists hold all three.
      await goOnline(benDevice, benPage);
      await benPage.reload();
      await poll(() => shoppingItems(benPage)).toEqual(['Bread', 'Eggs', 'Milk']);
      await poll(() => shoppingItems(adaPage)).toEqual(['Bread', 'Eggs', 'Milk']);

      // Ben leaves: his app shows his own list again, and Ada's next item never reaches him.
      benPage.on('dialog', (prompt) => void prompt.accept());
      await spacesButton(benPage).click();
      await spacesDialog(benPage)
        .getByRole('button', { name: /^People/ })
        .click();
      await spacesDialog(benPage).getByRole('button', { name: 'Leave space' }).click();
      await benPage
        .getByText('You left “Our flat”. Its items were removed from this device.')
        .waitFor();
      await spacesDialog(benPage).getByRole('button', { name: 'Close' }).click();
      await poll(() => shoppingItems(benPage)).toEqual([]);
      await addItem(adaPage, 'Butter');
      await poll(() => syncNote(adaPage).innerText()).toBe('Saved');
      await benPage.reload();
      await appScreens(benPage).waitFor();
      expect(await shoppingItems(benPage)).toEqual([]);
      // His device no longer holds the space.
      const databases = await benPage.evaluate(async () =>
        (await indexedDB.databases()).map((db) => db.name),
      );
      expect(databases).not.toContain(benCopy);

      // What Ben added stays in the space, as a former member's.
      await adaPage.reload();
      await adaPage.getByRole('button', { name: 'Still to buy, by aisle' }).click();
      await adaPage
        .getByRole('link', { name: /Eggs/ })
        .or(adaPage.getByRole('button', { name: /Eggs/ }))
        .first()
        .click();
      await poll(() =>
        adaPage.locator('.rt-detail-row').filter({ hasText: 'Added by' }).locator('dd').innerText(),
      ).toBe('a former member');

      // The server agrees: Ada reads all four; Ben and the app's creator are refused.
      expect(await readSpaceDocumentAs(pipit.url, spaceId, ada.api.cookie)).toEqual({
        opened: true,
        records: 4,
      });
      for (const outsider of [ben, creator]) {
        expect(await readSpaceDocumentAs(pipit.url, spaceId, outsider.api.cookie)).toEqual({
          opened: false,
          records: 0,
        });
      }
    } finally {
      await adaDevice.close();
      await benDevice.close();
    }
  });

  it('tells a member when the owner deletes their account, and keeps the items they choose to', async () => {
    // Dora makes a space over the API and adds Carl by username.
    const [dora, carl] = await Promise.all([signUp(pipit, 'dora'), signUp(pipit, 'carl')]);
    const made = await dora.api.post<{ space: { id: string } }>(`/api/apps/${appId}/spaces`, {
      name: 'Trip',
    });
    expect(made.status).toBe(201);
    const added = await dora.api.request('PUT', `/api/spaces/${made.body.space.id}/members/carl`, {
      body: { role: 'member' },
    });
    expect(added.status).toBe(201);

    const carlDevice = await deviceOf(browser, pipit, carl);
    try {
      const page = await carlDevice.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, appId);
      await spacesButton(page).click();
      await spacesDialog(page).getByRole('radio', { name: /Trip/ }).check();
      await spacesDialog(page).getByRole('button', { name: 'Close' }).click();
      await addItem(page, 'Sunscreen');
      await poll(() => syncNote(page).innerText()).toBe('Saved');

      const gone = await dora.api.request('DELETE', '/api/account', {
        body: { password: PERSON_PASSWORD },
      });
      expect(gone.status).toBe(204);
      await page.reload();
      const notice = page.getByRole('status').filter({ hasText: '“Trip” was deleted' });
      await notice
        .getByText('its owner deleted their account. Its 1 item is still on this device.')
        .waitFor();
      await notice.getByRole('button', { name: 'Keep them in my list' }).click();
      await notice.waitFor({ state: 'detached' });
      await poll(() => shoppingItems(page)).toEqual(['Sunscreen']);
      // Carl's own now: after a reload it is still there, with no notice.
      await poll(() => syncNote(page).innerText()).toBe('Saved');
      await page.reload();
      await appScreens(page).waitFor();
      await poll(() => shoppingItems(page)).toEqual(['Sunscreen']);
      expect(await page.getByText('was deleted').count()).toBe(0);
    } finally {
      await carlDevice.close();
    }
  });

  it('logs no console errors', () => {
    expect(errors).toEqual([]);
  });
});
