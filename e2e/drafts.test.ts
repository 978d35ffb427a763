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
 * Drafts of an app as two editors use them (docs/product/drafts.md): Ada starts a draft offline,
 * Ben joins it live, then edits the app while Ada edits the draft; Ada takes the app's changes in
 * ("Update draft", a conflict keeps the draft's), and merges the draft back with one conflict
 * resolved the draft's way. The app holds exactly both sides' changes; History has the merge.
 */
const poll = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000 });

async function shoot(page: Page, what: string) {
  const folder = process.env.PIPIT_SHOTS;
  if (folder) {
    await page.screenshot({ path: `${folder}/${what}-${page.viewportSize()?.width}.png` });
  }
}

describe('drafts of an app', () => {
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
  let draftUrl: string;
  const errors: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-drafts-'));
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
      .evaluateAll((rows) => rows.map((row) => row.textContent?.trim() ?? ''));
  async function addComponent(page: Page, type: string) {
    await page.getByRole('button', { name: '+ Add component' }).click();
    await page
      .getByRole('list', { name: 'Component types' })
      .getByRole('button', { name: type, exact: true })
      .click();
  }
  /** Selects the component whose row starts with `type` and sets its text. */
  async function setText(page: Page, type: string, text: string) {
    await page
      .getByRole('list', { name: /^Components on / })
      .locator('.tree-row__select')
      .filter({ has: page.locator('.tree-row__name', { hasText: new RegExp(`^${type}`) }) })
      .first()
      .click();
    // A heading's text is one line; a text's is Markdown.
    await page.getByRole('textbox', { name: /^Text( \(Markdown\))?$/ }).fill(text);
  }
  const draftBar = (page: Page) => page.getByRole('region', { name: 'Draft “Try a new layout”' });
  const drafts = (page: Page) => page.getByRole('dialog', { name: 'Drafts' });

  it('starts a draft offline; it syncs when back online and a collaborator joins it live', async () => {
    await adaPage.goto(`${pipit.url}/create`);
    await adaPage.getByLabel('App name').fill('Field notes');
    await adaPage.getByRole('button', { name: 'Create blank app' }).click();
    await adaPage.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/);
    appId = /\/apps\/([a-z2-7]{26})\/edit$/.exec(adaPage.url())![1]!;
    await addComponent(adaPage, 'Text');
    await setText(adaPage, 'Text', 'First note');
    await poll(() => badge(adaPage).textContent()).toBe('Saved');
    const invited = await ada.api.request('PUT', `/api/apps/${appId}/collaborators/ben`, {
      body: { role: 'editor' },
    });
    expect(invited.status).toBe(201);
    await benPage.goto(`${pipit.url}/apps/${appId}/edit`);
    await poll(() => treeRows(benPage)).toEqual(['Heading Field notes', 'Text First note']);

    // Offline, Ada starts a draft: it opens from her device and takes edits.
    await adaDevice.setOffline(true);
    await adaPage.getByRole('button', { name: 'Drafts' }).click();
    await drafts(adaPage)
      .getByText(/You’re offline: a draft you start now/)
      .waitFor();
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    await drafts(adaPage).getByLabel('New draft').fill('Try a new layout');
    await drafts(adaPage).getByRole('button', { name: 'Start draft' }).click();
    await adaPage.waitForURL(/\?draft=[a-z2-7]{26}$/);
    draftUrl = adaPage.url();
    await draftBar(adaPage).waitFor();
    await poll(() => treeRows(adaPage)).toEqual(['Heading Field notes', 'Text First note']);
    await addComponent(adaPage, 'List');
    await poll(() => treeRows(adaPage)).toContain('List');
    expect(await badge(adaPage).textContent()).not.toBe('Saved');

    // Back online, the draft is shared and its edits stored.
    await adaDevice.setOffline(false);
    await poll(() => badge(adaPage).textContent()).toBe('Saved');
    await poll(async () => (await draftBar(adaPage).textContent()) ?? '').toMatch(
      /In this draft: 1 component/,
    );

    // Ben finds it in the app's Drafts and joins: his edit there reaches Ada's draft live.
    await benPage.getByRole('button', { name: /^Drafts/ }).click();
    await drafts(benPage).getByRole('link', { name: 'Open the draft “Try a new layout”' }).click();
    await draftBar(benPage).waitFor();
    await poll(() => treeRows(benPage)).toContain('List');
    await addComponent(benPage, 'Image');
    await poll(() => treeRows(adaPage)).toContain('Image');
    // The app itself has neither.
    const app = await ada.api.get<{ app: { title: string } }>(`/api/apps/${appId}`);
    expect(app.status).toBe(200);
    await shoot(adaPage, 'draft-editor');
    expect(await axeViolations(adaPage)).toEqual([]);
    // On a phone, in dark: the draft's bar within the width, axe clean.
    await adaPage.setViewportSize({ width: 375, height: 800 });
    await adaPage.emulateMedia({ colorScheme: 'dark' });
    await draftBar(adaPage)
      .getByText(/In this draft: 2 components/)
      .click();
    await draftBar(adaPage).getByRole('list', { name: 'In this draft' }).waitFor();
    expect(
      await draftBar(adaPage).getByRole('button', { name: 'Merge into the app…' }).isEnabled(),
    ).toBe(true);
    // (The switch to dark is a transition: the picture is taken once it has ended.)
    await adaPage.waitForFunction(() =>
      document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
    );
    expect(
      await adaPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shoot(adaPage, 'draft-editor');
    expect(await axeViolations(adaPage)).toEqual([]);
    await adaPage.setViewportSize({ width: 1440, height: 900 });
    await adaPage.emulateMedia({ colorScheme: 'light' });
  });

  it('takes the app’s changes in while the draft keeps its own, then merges back with a conflict resolved', async () => {
    // Ben goes back to the app and changes it; Ada changes the draft's heading too.
    await benPage.getByRole('link', { name: 'App', exact: true }).click();
    await benPage.waitForURL(/\/edit$/);
    await poll(() => treeRows(benPage)).toEqual(['Heading Field notes', 'Text First note']);
    await addComponent(benPage, 'Button');
    await setText(benPage, 'Heading', 'Ben’s notes');
    await setText(adaPage, 'Heading', 'Notes, new layout');
    await poll(() => badge(benPage).textContent()).toBe('Saved');
    await poll(async () => (await draftBar(adaPage).textContent()) ?? '').toMatch(
      /In the app since: 2 components/,
    );

    // Update draft: Ben's button comes in; the heading both changed keeps the draft's.
    await draftBar(adaPage).getByRole('button', { name: 'Update draft' }).click();
    const update = adaPage.getByRole('dialog', { name: 'Update the draft' });
    await update.getByRole('list', { name: 'Changes in the app' }).waitFor();
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    await update.getByRole('button', { name: 'Update draft' }).click();
    const updated = adaPage.getByRole('dialog', { name: 'Draft updated' });
    await updated.getByText(/One thing was changed both in the draft and in the app/).waitFor();
    await updated.getByRole('button', { name: 'Done' }).click();
    // (Ben's button lands where he put it in the app, after the note.)
    await poll(async () => (await treeRows(adaPage)).map((r) => r.split(' ')[0]).sort()).toEqual([
      'Button',
      'Heading',
      'Image',
      'List',
      'Text',
    ]);
    expect((await treeRows(adaPage))[0]).toBe('Heading Notes, new layout');
    await poll(async () => (await draftBar(adaPage).textContent()) ?? '').toMatch(
      /In the app since: no changes/,
    );

    // Both change the note's text again: the merge finds that conflict.
    await setText(benPage, 'Text', 'From Ben');
    await setText(adaPage, 'Text', 'From the draft');
    await poll(() => badge(benPage).textContent()).toBe('Saved');
    await poll(() => badge(adaPage).textContent()).toBe('Saved');
    await poll(async () => (await draftBar(adaPage).textContent()) ?? '').toMatch(
      /In the app since: 1 component/,
    );

    await draftBar(adaPage).getByRole('button', { name: 'Merge into the app…' }).click();
    const merge = adaPage.getByRole('dialog', { name: 'Merge “Try a new layout” into the app' });
    const parts = merge.getByRole('group', { name: /^Take \d+ of \d+ changes?$/ });
    await parts.waitFor();
    const labels = await parts.locator('label').allTextContents();
    expect(labels.some((l) => /^Added a list/.test(l))).toBe(true);
    expect(labels.some((l) => /^Added an image/.test(l))).toBe(true);
    // Ben's button came from the app: it is not the draft's to merge.
    expect(labels.some((l) => /button/i.test(l))).toBe(false);
    // Ada leaves the image out.
    await parts.getByRole('checkbox', { name: /^Added an image/ }).uncheck();
    await shoot(adaPage, 'draft-merge');
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    await merge.getByRole('button', { name: /^Merge \d+ of \d+$/ }).click();
    const merged = adaPage.getByRole('dialog', { name: 'Draft merged' });
    await merged.getByText(/One thing was changed both in the draft and in the app/).waitFor();
    await merged.getByRole('button', { name: /^Use the draft’s .* for Text “From Ben”/ }).click();
    await merged.getByText('Using the draft’s.').waitFor();
    await merged.getByRole('button', { name: 'Done' }).click();
    await adaPage.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/);

    // The app, on both screens: the draft's heading, list and text, Ben's button; no image.
    const expected = ['Heading Notes, new layout', 'Text From the draft', 'List', 'Button Button'];
    const sorted = async (page: Page) =>
      (await treeRows(page)).map((r) => (r.startsWith('List') ? 'List' : r)).sort();
    await poll(() => sorted(adaPage)).toEqual([...expected].sort());
    await poll(() => sorted(benPage)).toEqual([...expected].sort());
  });

  it('shows the merge in History and the Drafts list, and a merged draft opens no more', async () => {
    await adaPage.getByRole('button', { name: 'History' }).click();
    const history = adaPage.getByRole('dialog', { name: 'History' });
    await history
      .getByRole('listitem')
      .filter({ hasText: 'Before merging the draft “Try a new layout”' })
      .waitFor();
    // Compared with now, the merge's changes are Ada's draft's, the conflict she settled too.
    await history.getByRole('button', { name: 'Compare…' }).click();
    const from = history.getByLabel('From');
    const before = await from
      .locator('option')
      .evaluateAll(
        (options) =>
          options
            .find((o) => /^Before merging the draft/.test(o.textContent ?? ''))
            ?.getAttribute('value') ?? '',
      );
    await from.selectOption(before);
    await history.getByLabel('To').selectOption('now');
    const differences = history.getByRole('list', { name: 'Differences' });
    const line = (text: RegExp) => differences.getByRole('listitem').filter({ hasText: text });
    await poll(() => line(/^Added a list/).textContent()).toMatch(/ — ada’s draft, /);
    await poll(() => line(/From the draft/).textContent()).toMatch(/ — ada’s draft, /);
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    await history.getByRole('button', { name: '← All checkpoints' }).click();
    await history.getByRole('button', { name: 'Close' }).click();

    await benPage.getByRole('button', { name: /^Drafts/ }).click();
    const list = drafts(benPage).getByRole('list', { name: 'Merged and deleted drafts' });
    await poll(() => list.textContent()).toMatch(/Try a new layout merged by ada/);
    await drafts(benPage).getByRole('button', { name: 'Close' }).click();

    // The draft's address now says where its changes went.
    await benPage.goto(draftUrl);
    await benPage.getByText('This draft was merged or deleted').waitFor();

    // On a phone, in dark: the app's Drafts dialog fits and is accessible.
    await adaPage.setViewportSize({ width: 375, height: 800 });
    await adaPage.emulateMedia({ colorScheme: 'dark' });
    await adaPage.getByRole('button', { name: /^Drafts/ }).click();
    await drafts(adaPage).getByRole('list', { name: 'Merged and deleted drafts' }).waitFor();
    expect(
      await adaPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shoot(adaPage, 'drafts-dialog');
    expect(await axeViolations(adaPage, 'dialog')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
