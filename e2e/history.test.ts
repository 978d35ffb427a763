import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';

/**
 * An app's history as people use it (docs/product/history.md): a named checkpoint, a restore while
 * a collaborator is editing (both see it, the restorer's Undo brings back what was there, the
 * collaborator's later edit survives), a comparison of two checkpoints; and a remix pulling its
 * original's update when both changed the same screen, with the conflict listed.
 */
const poll = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000 });

async function shoot(page: Page, what: string) {
  const folder = process.env.PIPIT_SHOTS;
  if (folder)
    await page.screenshot({ path: `${folder}/${what}-${page.viewportSize()?.width}.png` });
}

describe('history, restore and pulling changes', () => {
  let dataDir: string;
  let pipit: RunningPipit;
  let browser: Browser;
  let ada: Person;
  let ben: Person;
  let adaDevice: BrowserContext;
  let benDevice: BrowserContext;
  let adaPage: Page;
  let benPage: Page;
  let appId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-history-'));
    pipit = await startPipit({ dataDir });
    browser = await launchBrowser();
    ada = await signUp(pipit, 'ada');
    ben = await signUp(pipit, 'ben');
    const desk = { viewport: { width: 1440, height: 900 } };
    adaDevice = await deviceOf(browser, pipit, ada, desk);
    benDevice = await deviceOf(browser, pipit, ben, desk);
    adaPage = await adaDevice.newPage();
    benPage = await benDevice.newPage();
    errors.push(...[adaPage, benPage].flatMap((p) => collectPageErrors(p)));
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const badge = (page: Page) => page.locator('.editor-top-bar .sync-badge');
  const treeRows = (page: Page) =>
    page
      .getByRole('list', { name: /^Components on / })
      .locator('.tree-row__name')
      // A row is the component's type, then its own text ("Heading Field notes"): the type is enough.
      .evaluateAll((rows) => rows.map((row) => (row.textContent?.trim() ?? '').split(' ')[0]));
  async function addComponent(page: Page, type: string) {
    await page.getByRole('button', { name: '+ Add component' }).click();
    await page
      .getByRole('list', { name: 'Component types' })
      .getByRole('button', { name: type, exact: true })
      .click();
  }
  const history = (page: Page) => page.getByRole('dialog', { name: 'History' });

  it('saves a named checkpoint from the History panel', async () => {
    await adaPage.goto(`${pipit.url}/create`);
    await adaPage.getByLabel('App name').fill('Field notes');
    await adaPage.getByRole('button', { name: 'Create blank app' }).click();
    await adaPage.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/);
    appId = /\/apps\/([a-z2-7]{26})\/edit$/.exec(adaPage.url())![1]!;
    await poll(() => badge(adaPage).textContent()).toBe('Saved');
    const invited = await ada.api.request('PUT', `/api/apps/${appId}/collaborators/ben`, {
      body: { role: 'editor' },
    });
    expect(invited.status).toBe(201);

    // A blank app starts with its title as a heading.
    await poll(() => treeRows(adaPage)).toEqual(['Heading']);
    await addComponent(adaPage, 'Text');
    await poll(() => treeRows(adaPage)).toEqual(['Heading', 'Text']);
    await adaPage.getByRole('button', { name: 'History' }).click();
    await history(adaPage).getByLabel('Save a checkpoint').fill('With text');
    await history(adaPage).getByRole('button', { name: 'Save checkpoint' }).click();
    await history(adaPage).getByText('Saved “With text”.').waitFor();
    await history(adaPage).getByRole('listitem').filter({ hasText: 'With text' }).waitFor();
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    await history(adaPage).getByRole('button', { name: 'Close' }).click();
  });

  it('sends a checkpoint saved offline once back online, without History being opened again', async () => {
    const names = async () =>
      (
        await ada.api.get<{ checkpoints: Array<{ name: string | null }> }>(
          `/api/apps/${appId}/checkpoints`,
        )
      ).body.checkpoints.map((c) => c.name);
    await adaDevice.setOffline(true);
    await adaPage.getByRole('button', { name: 'History' }).click();
    await history(adaPage).getByLabel('Save a checkpoint').fill('Before my big change');
    await history(adaPage).getByRole('button', { name: 'Save checkpoint' }).click();
    await history(adaPage)
      .getByText(
        'Saved “Before my big change” on this device. It goes to the server when you’re back online.',
      )
      .waitFor();
    await history(adaPage).getByRole('button', { name: 'Close' }).click();
    expect(await names()).not.toContain('Before my big change');
    // Back online, History stays closed: the checkpoint goes like every other change made offline.
    await adaDevice.setOffline(false);
    await poll(names).toContain('Before my big change');
    await adaPage.getByRole('button', { name: 'History' }).click();
    await history(adaPage)
      .getByRole('listitem')
      .filter({ hasText: 'Before my big change' })
      .waitFor();
    expect(
      await history(adaPage)
        .getByText('On this device only, sent when you’re back online.')
        .count(),
    ).toBe(0);
    await history(adaPage).getByRole('button', { name: 'Close' }).click();
  });

  it('restores it while a collaborator edits: both see it, Undo brings back what was there, the collaborator’s edit survives', async () => {
    await addComponent(adaPage, 'List');
    await addComponent(adaPage, 'Image');
    await poll(() => treeRows(adaPage)).toEqual(['Heading', 'Text', 'List', 'Image']);
    await benPage.goto(`${pipit.url}/apps/${appId}/edit`);
    await poll(() => treeRows(benPage)).toEqual(['Heading', 'Text', 'List', 'Image']);

    await adaPage.getByRole('button', { name: 'History' }).click();
    await history(adaPage).getByRole('button', { name: 'More for With text' }).click();
    await history(adaPage).getByRole('button', { name: 'Restore With text', exact: true }).click();
    await adaPage
      .getByRole('dialog', { name: 'Restore “With text”?' })
      .getByRole('button', { name: 'Restore' })
      .click();
    await history(adaPage).waitFor({ state: 'detached' });
    await poll(() => treeRows(adaPage)).toEqual(['Heading', 'Text']);
    await poll(() => treeRows(benPage)).toEqual(['Heading', 'Text']);

    // The collaborator keeps working after the restore.
    await addComponent(benPage, 'Button');
    await poll(() => treeRows(adaPage)).toEqual(['Heading', 'Text', 'Button']);

    // The restorer's Undo takes back the restore only.
    await adaPage.getByRole('button', { name: 'Undo' }).click();
    // (Where the collaborator's button lands among the components brought back is Yjs's to decide:
    // it was inserted where they were. Every one of them is there, on both screens.)
    const all = ['Button', 'Heading', 'Image', 'List', 'Text'];
    await poll(async () => (await treeRows(adaPage)).sort()).toEqual(all);
    await poll(async () => (await treeRows(benPage)).sort()).toEqual(all);
    expect(await treeRows(benPage)).toEqual(await treeRows(adaPage));
    await poll(() => badge(adaPage).textContent()).toBe('Saved');

    // Nothing in the history was erased; the state before the restore is in it.
    await adaPage.getByRole('button', { name: 'History' }).click();
    const items = history(adaPage).getByRole('listitem');
    await items.filter({ hasText: 'Before restoring “With text”' }).waitFor();
    await items.filter({ hasText: 'With text' }).first().waitFor();
  });

  it('compares two checkpoints, naming what differs', async () => {
    const dialog = history(adaPage);
    await dialog.getByRole('button', { name: 'Compare…' }).click();
    const from = dialog.getByLabel('From');
    const to = dialog.getByLabel('To');
    const optionValue = (label: RegExp) =>
      from
        .locator('option')
        .evaluateAll(
          (options, source) =>
            options
              .find((o) => new RegExp(source).test(o.textContent ?? ''))
              ?.getAttribute('value') ?? '',
          label.source,
        );
    await from.selectOption(await optionValue(/^With text/));
    await to.selectOption(await optionValue(/^Before restoring/));
    const differences = dialog.getByRole('list', { name: 'Differences' });
    await differences.waitFor();
    const lines = await differences.getByRole('listitem').allTextContents();
    expect(lines.some((l) => /^Added a list/.test(l))).toBe(true);
    expect(lines.some((l) => /^Added an image/.test(l))).toBe(true);
    expect(lines.some((l) => /text|heading/i.test(l))).toBe(false);

    // The same two the other way round: what was added is removed.
    await from.selectOption(await optionValue(/^Before restoring/));
    await to.selectOption(await optionValue(/^With text/));
    await poll(async () =>
      (await differences.getByRole('listitem').allTextContents()).some((l) =>
        /^Removed a list/.test(l),
      ),
    ).toBe(true);
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    await dialog.getByRole('button', { name: '← All checkpoints' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('says who changed each thing, a change made offline included, in History and the inspector', async () => {
    const row = (page: Page, name: string) =>
      page
        .getByRole('list', { name: /^Components on / })
        .locator('.tree-row__select')
        .filter({ hasText: name })
        .first();
    // Ben's laptop loses the network; he rewrites the heading there.
    await benDevice.setOffline(true);
    await row(benPage, 'Heading').click();
    const recentOf = (page: Page) => page.getByRole('region', { name: 'Recent changes' });
    // Offline, the inspector says where who changed what comes from.
    await recentOf(benPage)
      .getByText(/shows when you’re online/)
      .waitFor();
    await benPage.getByRole('textbox', { name: 'Text', exact: true }).fill('Notes from the train');
    await benPage.waitForTimeout(300);
    expect(await badge(benPage).textContent()).not.toBe('Saved');
    await benDevice.setOffline(false);
    await poll(() => badge(benPage).textContent()).toBe('Saved');

    // Ada, online all along, selects the heading: Ben changed it (when it reached the server).
    await row(adaPage, 'Heading').click();
    const recent = recentOf(adaPage);
    await poll(() => recent.getByRole('listitem').first().textContent()).toMatch(
      /^ben changed the text (just now|\d+ (second|minute)s? ago)$/,
    );
    expect(await recent.getByRole('listitem').last().textContent()).toMatch(/^ada added it /);
    await shoot(adaPage, 'recent-changes');
    expect(await axeViolations(adaPage)).toEqual([]);
    // On a phone, and dark: the inspector's panel, its changes within the width, axe clean.
    await adaPage.setViewportSize({ width: 375, height: 800 });
    await adaPage.emulateMedia({ colorScheme: 'dark' });
    await adaPage
      .getByRole('tablist', { name: 'Panels' })
      .getByRole('tab', { name: 'Properties' })
      .click();
    await recent.getByRole('listitem').first().waitFor();
    await adaPage.waitForFunction(() =>
      document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
    );
    expect(
      await adaPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shoot(adaPage, 'recent-changes');
    expect(await axeViolations(adaPage)).toEqual([]);
    await adaPage.setViewportSize({ width: 1440, height: 900 });
    await adaPage.emulateMedia({ colorScheme: 'light' });

    // History: since “With text”, each change with who made it.
    await adaPage.getByRole('button', { name: 'History' }).click();
    const dialog = history(adaPage);
    await dialog.getByRole('button', { name: 'Compare…' }).click();
    const from = dialog.getByLabel('From');
    const withText = await from
      .locator('option')
      .evaluateAll(
        (options) =>
          options.find((o) => /^With text/.test(o.textContent ?? ''))?.getAttribute('value') ?? '',
      );
    await from.selectOption(withText);
    await dialog.getByLabel('To').selectOption('now');
    const differences = dialog.getByRole('list', { name: 'Differences' });
    const line = (text: RegExp) => differences.getByRole('listitem').filter({ hasText: text });
    await poll(() => line(/Notes from the train/).textContent()).toMatch(/ — ben, /);
    await poll(() => line(/^Added a button/).textContent()).toMatch(/ — ben, /);
    await shoot(adaPage, 'history-authors');
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    await dialog.getByRole('button', { name: '← All checkpoints' }).click();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('pulls the original’s update into a remix that changed the same screen, listing the conflict', async () => {
    // Ada publishes; Ben remixes it and renames its screen.
    await adaPage.goto(`${pipit.url}/apps/${appId}/edit`);
    await poll(() => badge(adaPage).textContent()).toBe('Saved');
    expect((await ada.api.post(`/api/apps/${appId}/versions`, {})).status).toBe(201);
    await benPage.goto(`${pipit.url}/apps/${appId}`);
    await benPage.getByRole('button', { name: 'Remix' }).click();
    await benPage.waitForURL(
      (url) => url.pathname.endsWith('/edit') && !url.pathname.includes(appId),
    );
    const remixId = /\/apps\/([a-z2-7]{26})\/edit$/.exec(benPage.url())![1]!;
    await poll(() => badge(benPage).textContent()).toBe('Saved');
    const benTitle = benPage.getByLabel('Screen title');
    await benTitle.fill('Ben’s notes');
    await benTitle.press('Enter');

    // Ada renames the same screen, adds a component, and publishes version 2.
    const adaTitle = adaPage.getByLabel('Screen title');
    await adaTitle.fill('Ada’s notes');
    await adaTitle.press('Enter');
    await addComponent(adaPage, 'Divider');
    await poll(() => badge(adaPage).textContent()).toBe('Saved');
    expect((await ada.api.post(`/api/apps/${appId}/versions`, {})).status).toBe(201);

    // Ben's editor says so, shows what changed, and pulls.
    await benPage.reload();
    await benPage.getByText('The original app has a newer version').waitFor();
    await benPage.getByRole('button', { name: 'See what changed' }).click();
    const pull = benPage.getByRole('dialog', { name: 'Pull version 2' });
    await pull
      .getByRole('list', { name: 'Changes in the original' })
      .getByText('Divider')
      .waitFor();
    expect(await axeViolations(benPage, 'dialog')).toEqual([]);
    await pull.getByRole('button', { name: 'Pull changes' }).click();
    const pulled = benPage.getByRole('dialog', { name: 'Changes pulled' });
    const conflicts = pulled.getByRole('list', { name: 'Conflicts' });
    await conflicts.getByText(/yours “Ben’s notes”, the original’s “Ada’s notes”/).waitFor();
    // The original's new component arrived; the remix's own title stayed.
    await poll(() => treeRows(benPage)).toContain('Divider');
    await expect.poll(() => benTitle.inputValue()).toBe('Ben’s notes');

    // Ben takes the original's title instead.
    await conflicts.getByRole('button', { name: /Use the original’s/ }).click();
    await conflicts.getByText('Using the original’s.').waitFor();
    await expect.poll(() => benTitle.inputValue()).toBe('Ada’s notes');
    await pulled.getByRole('button', { name: 'Done' }).click();
    await poll(() => badge(benPage).textContent()).toBe('Saved');
    // The remix is now based on version 2: no more notice.
    expect((await pipit.server.storage.apps.get(remixId))?.forkedFromVersion).toBe(2);
    await benPage.reload();
    await benPage.getByRole('heading', { level: 1 }).waitFor();
    // A fixed wait on purpose: that the notice does not come back is the check.
    await benPage.waitForTimeout(500);
    expect(await benPage.getByText('The original app has a newer version').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
