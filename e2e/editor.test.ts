import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';

/**
 * The editor as a creator uses it on /demo (no account): build a screen, edit it in the inspector
 * and see the preview follow, reorder by keyboard, duplicate, delete, undo, redo, re-theme, and
 * find everything again after a reload (the app lives in this browser's IndexedDB).
 */
describe('the editor on /demo', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let creatorDevice: BrowserContext;
  let creator: Page;
  let errors: string[];

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    creatorDevice = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      serviceWorkers: 'block',
    });
    creator = await creatorDevice.newPage();
    errors = collectPageErrors(creator);
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  const components = () => creator.getByRole('list', { name: 'Components on Trail notes' });
  /** The component rows as the tree names them, top to bottom. */
  const treeOrder = () =>
    components()
      .locator('.tree-row__select')
      .evaluateAll((rows) => rows.map((row) => row.textContent?.trim() ?? ''));
  const preview = () => creator.getByRole('region', { name: 'Preview of Trail notes' });
  /** The components in the preview, top to bottom, by the name the preview gives each. */
  const previewOrder = () =>
    preview()
      .locator('[data-component-id]')
      .evaluateAll((frames) => frames.map((frame) => frame.getAttribute('aria-label') ?? ''));
  const row = (name: string | RegExp) =>
    components().locator('.tree-row__select').filter({ hasText: name });
  const previewBackground = () =>
    preview()
      .locator('.rt-screen')
      .evaluate((screen) => getComputedStyle(screen).backgroundColor);

  async function addComponent(type: string) {
    await creator.getByRole('button', { name: '+ Add component' }).click();
    await creator
      .getByRole('list', { name: 'Component types' })
      .getByRole('button', { name: type, exact: true })
      .click();
  }

  async function axeClean(label: string) {
    expect(await axeViolations(creator), label).toEqual([]);
  }

  it('opens a first app that lives only in this browser', async () => {
    await creator.goto(`${pipit.url}/demo`);
    await creator.getByRole('heading', { level: 1, name: 'My first app' }).waitFor();
    expect(await creator.locator('h1').count()).toBe(1);
    await creator.getByText('This app lives only in this browser.').waitFor();
    // This server has no AI provider: nothing offers describing an app, or promises AI for later.
    // The page has the server's answer once it keeps a copy for offline use.
    await expect
      .poll(() => creator.evaluate(() => localStorage.getItem('pipit:ai-status')))
      .toContain('"available":false');
    expect(await creator.getByText(/describe an app/i).count()).toBe(0);
    expect(await creator.getByRole('main').innerText()).not.toMatch(/\bAI\b/);
    expect(await creator.getByRole('link', { name: 'Sign up' }).last().getAttribute('href')).toBe(
      '/signup',
    );
    await creator.getByRole('status').filter({ hasText: 'On this device only' }).waitFor();
    // The blank app's Home screen, with a heading of the app's title, in the preview.
    await creator
      .getByRole('region', { name: 'Preview of Home' })
      .getByRole('heading', { name: 'My first app' })
      .waitFor();
  });

  it('adds a screen, then a heading, a list and a form to it', async () => {
    await creator.getByRole('button', { name: '+ Add screen' }).click();
    await creator.getByRole('button', { name: 'Rename Screen 2' }).click();
    await creator.getByRole('textbox', { name: 'Title of Screen 2' }).fill('Trail notes');
    await creator.getByRole('button', { name: 'Save' }).click();
    await preview().getByRole('heading', { name: 'Trail notes' }).waitFor();

    await addComponent('Heading');
    await addComponent('List');
    await addComponent('Form');
    await expect.poll(treeOrder).toEqual(['HHeading Heading', '☰List', '✎Form']);
    await expect
      .poll(previewOrder)
      .toEqual(['Select heading component', 'Select list component', 'Select form component']);
  });

  it('edits the heading in the inspector and sees it in the preview', async () => {
    await row('Heading').click();
    const text = creator.getByRole('textbox', { name: 'Text', exact: true });
    expect(await text.inputValue()).toBe('Heading');
    await text.fill('Birds seen on the trail');
    await preview().getByRole('heading', { name: 'Birds seen on the trail' }).waitFor();
    await expect.poll(treeOrder).toContain('HHeading Birds seen on the trail');

    // Too long: the inspector says so and the app keeps the last good text.
    await text.fill('x'.repeat(201));
    await creator.getByText('Keep it to 200 characters (now 201).').waitFor();
    await preview().getByRole('heading', { name: 'Birds seen on the trail' }).waitFor();
    await text.fill('Birds seen on the trail');
    await creator.getByText('Keep it to 200 characters').waitFor({ state: 'detached' });
  });

  it('reorders components with the keyboard, in the tree and the preview', async () => {
    await row('Form').focus();
    await creator.keyboard.press('Alt+ArrowUp');
    await creator.keyboard.press('Alt+ArrowUp');
    await expect
      .poll(previewOrder)
      .toEqual(['Select form component', 'Select heading component', 'Select list component']);
    await expect.poll(treeOrder).toEqual(['✎Form', 'HHeading Birds seen on the trail', '☰List']);
    // Focus stays on the moved row, so the next press moves it again.
    await creator.keyboard.press('Alt+ArrowDown');
    await expect.poll(treeOrder).toEqual(['HHeading Birds seen on the trail', '✎Form', '☰List']);
  });

  it('duplicates and deletes from the keyboard; undo and redo revert and reapply', async () => {
    await row('Heading').click();
    await creator.keyboard.press('Control+d');
    await expect
      .poll(treeOrder)
      .toEqual([
        'HHeading Birds seen on the trail',
        'HHeading Birds seen on the trail',
        '✎Form',
        '☰List',
      ]);
    // The copy is selected; Delete removes it while focus is in the component list.
    await row('Heading').nth(1).focus();
    await creator.keyboard.press('Delete');
    await expect.poll(treeOrder).toEqual(['HHeading Birds seen on the trail', '✎Form', '☰List']);

    await creator.keyboard.press('Control+z');
    await expect.poll(async () => (await treeOrder()).length).toBe(4);
    await creator.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await treeOrder()).length).toBe(3);
    await creator.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await treeOrder()).length).toBe(4);
    await creator.getByRole('button', { name: 'Redo' }).click();
    await expect.poll(async () => (await treeOrder()).length).toBe(3);
    await expect
      .poll(previewOrder)
      .toEqual(['Select heading component', 'Select form component', 'Select list component']);
  });

  it('reorders by dragging a row by its handle', async () => {
    const handle = creator.getByRole('button', { name: 'Reorder List' });
    const target = await row('Heading').boundingBox();
    const box = await handle.boundingBox();
    if (!box || !target) throw new Error('The rows are not on screen.');
    await creator.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await creator.mouse.down();
    for (let step = 1; step <= 10; step += 1) {
      await creator.mouse.move(box.x + box.width / 2, box.y - ((box.y - target.y) * step) / 10);
    }
    await creator.mouse.up();
    // For 50 ms after a drop, dnd-kit stops every click (its pointer sensor's detach), and Chromium
    // runs queued input before timers: on a busy machine the next test's first click was lost. A
    // page timer as long, set after the drop, runs after dnd-kit's: then clicks count again.
    await creator.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    await expect.poll(treeOrder).toEqual(['☰List', 'HHeading Birds seen on the trail', '✎Form']);
    await creator.keyboard.press('Control+z');
    await expect.poll(treeOrder).toEqual(['HHeading Birds seen on the trail', '✎Form', '☰List']);
  });

  it('asks before deleting a screen', async () => {
    const screens = creator.getByRole('list', { name: 'Screens' });
    await screens.getByRole('button', { name: 'Duplicate Trail notes' }).click();
    await screens.getByText('Trail notes copy').waitFor();
    await screens.getByRole('button', { name: 'Delete Trail notes copy' }).click();
    const dialog = creator.getByRole('dialog', { name: 'Delete “Trail notes copy”?' });
    await dialog.getByText('The screen and its 3 components will be deleted.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await screens.getByRole('button', { name: 'Delete Trail notes copy' }).click();
    await dialog.getByRole('button', { name: 'Delete screen' }).click();
    await screens.getByText('Trail notes copy').waitFor({ state: 'detached' });
    await screens.locator('.tree-row__select').filter({ hasText: 'Trail notes' }).click();
  });

  it('shows the shortcuts on ?, and exports the app as JSON', async () => {
    await row('Form').focus();
    await creator.keyboard.press('?');
    const help = creator.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Duplicate the selected component').waitFor();
    await creator.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    const [download] = await Promise.all([
      creator.waitForEvent('download'),
      creator.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('My first app.pipit.json');
    const path = await download.path();
    const exported = JSON.parse(await readFile(path, 'utf8')) as { definition?: unknown };
    expect(JSON.stringify(exported)).toContain('Birds seen on the trail');
  });

  it('changes the theme preset and the preview changes colour', async () => {
    const before = await previewBackground();
    await creator.getByRole('tab', { name: 'Theme' }).click();
    await creator.getByRole('radio', { name: 'Ember' }).check();
    await expect.poll(previewBackground).not.toBe(before);
    expect(await previewBackground()).toBe('rgb(253, 247, 244)');
  });

  it('finds everything again after a reload (this browser keeps the app)', async () => {
    await creator.reload();
    await creator.getByRole('heading', { level: 1, name: 'My first app' }).waitFor();
    await creator
      .getByRole('list', { name: 'Screens' })
      .locator('.tree-row__select')
      .filter({ hasText: 'Trail notes' })
      .click();
    await expect.poll(treeOrder).toEqual(['HHeading Birds seen on the trail', '✎Form', '☰List']);
    await preview().getByRole('heading', { name: 'Birds seen on the trail' }).waitFor();
    await expect.poll(previewBackground).toBe('rgb(253, 247, 244)');
  });

  it('defines a collection with fields and a record, and the list shows it', async () => {
    await creator.getByRole('tab', { name: 'Collections' }).click();
    await creator.getByRole('button', { name: '+ Add collection' }).click();
    const name = creator.getByRole('textbox', { name: 'Collection name' });
    await name.fill('');
    await creator.getByText('Name the collection.').waitFor();
    await name.fill('Birds');
    await creator.getByRole('button', { name: '+ Add field' }).click();
    await creator.getByRole('textbox', { name: 'Field name' }).fill('Name');
    await creator.getByRole('button', { name: '+ Add field' }).click();
    await creator.getByRole('textbox', { name: 'Field name' }).fill('Count');
    await creator.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Number' });
    await creator.getByRole('button', { name: '+ Add record' }).click();
    const record = creator.getByRole('group', { name: 'Record 1' });
    await record.getByRole('textbox', { name: 'Name' }).fill('Wren');
    await record.getByRole('spinbutton', { name: 'Count' }).fill('3');
    // Shared in a space, each record changed only by whoever added it.
    await creator.getByRole('radio', { name: /Everyone in a shared space/ }).check();
    await creator.getByRole('radio', { name: /Only the person who added it/ }).check();
    expect(await creator.getByRole('radio', { name: /Each visitor, privately/ }).isChecked()).toBe(
      false,
    );

    await creator.getByRole('tab', { name: 'Actions' }).click();
    await creator.getByRole('button', { name: '+ Add action' }).click();
    await creator.getByRole('button', { name: '+ Add step' }).click();
    await creator.getByRole('combobox', { name: 'Screen' }).selectOption({ label: '🏠 Home' });

    await row('List').click();
    await creator
      .getByRole('combobox', { name: 'Collection', exact: true })
      .selectOption({ label: 'Birds' });
    await creator
      .getByRole('combobox', { name: 'Title field', exact: true })
      .selectOption({ label: 'Name' });
    await preview().getByText('Wren').waitFor();
  });

  const fitsWidth = () =>
    creator.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('fits a tablet, either way up: a side panel beside the phone preview', async () => {
    for (const viewport of [
      { width: 1024, height: 768 },
      { width: 768, height: 1024 },
    ]) {
      await creator.setViewportSize(viewport);
      const panels = creator.getByRole('tablist', { name: 'Panels' });
      await panels.getByRole('tab', { name: 'Structure' }).waitFor();
      expect(await panels.getByRole('tab').count()).toBe(2);
      await preview().getByRole('heading', { name: 'Birds seen on the trail' }).waitFor();
      await panels.getByRole('tab', { name: 'Properties' }).click();
      await creator.getByRole('tab', { name: 'Theme' }).waitFor();
      expect(await fitsWidth()).toBe(true);
      await panels.getByRole('tab', { name: 'Structure' }).click();
    }
    await creator.setViewportSize({ width: 1440, height: 900 });
  });

  it('has no axe violation at 1440 px and at 375 px', async () => {
    await row('Heading').click();
    await axeClean('1440 px, inspector');
    await creator.setViewportSize({ width: 375, height: 800 });
    // The editor takes its phone layout when it hears of the new width (a frame or more later on
    // a loaded machine): used before then, its panels are still moving into place.
    await creator.locator('.app-editor--narrow').waitFor();
    const panels = creator.getByRole('tablist', { name: 'Panels' });
    await panels.waitFor();
    await axeClean('375 px, structure');
    expect(await fitsWidth()).toBe(true);
    await panels.getByRole('tab', { name: 'Preview' }).click();
    await preview().waitFor();
    await axeClean('375 px, preview');
    expect(await fitsWidth()).toBe(true);
    await panels.getByRole('tab', { name: 'Properties' }).click();
    await creator.getByRole('textbox', { name: 'Text', exact: true }).waitFor();
    await axeClean('375 px, properties');
    expect(await fitsWidth()).toBe(true);
    await creator.setViewportSize({ width: 1440, height: 900 });
  });

  it('has no axe violation in dark mode, with every properties tab open', async () => {
    await creator.emulateMedia({ colorScheme: 'dark' });
    for (const tab of ['Collections', 'Actions', 'Theme', 'Settings', 'Inspector']) {
      await creator.getByRole('tab', { name: tab, exact: true }).click();
      // With a field's and a step's settings open.
      if (tab === 'Collections')
        await creator.getByRole('button', { name: 'Count Number' }).click();
      if (tab === 'Actions')
        await creator.getByRole('button', { name: 'Go to a screen', exact: true }).click();
      await axeClean(`dark, ${tab}`);
    }
    await creator.emulateMedia({ colorScheme: 'light' });
  });

  it('wrote no console errors', () => {
    expect(errors).toEqual([]);
  });
});
