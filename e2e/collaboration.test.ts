import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser, launchPersistent } from './support/browser';
import { deviceOf, type Person, signInContext, signUp } from './support/people';
import { untilControlled } from './support/service-worker';

/**
 * Co-editing, as people do it: an owner makes an app and invites a collaborator and a
 * viewer by username; owner and collaborator see each other's edits live, concurrent edits to the
 * same screen both survive, each sees the other here, and the viewer can change nothing. Then the
 * owner works with the server gone, reloads, restarts the browser, and the collaborator gets every
 * offline edit once the server is back.
 */
/** Sync crosses a websocket, a durable log and another browser: allow it a few seconds. */
const poll = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000 });

describe('co-editing and offline work', () => {
  let dataDir: string;
  let pipit: RunningPipit;
  let port: number;
  let browser: Browser;
  let owner: Person;
  let collaborator: Person;
  let viewer: Person;
  let ownerDevice: BrowserContext;
  let collaboratorDevice: BrowserContext;
  let ownerPage: Page;
  let collaboratorPage: Page;
  let appId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-collab-'));
    pipit = await startPipit({ dataDir });
    port = pipit.port;
    browser = await launchBrowser();
    owner = await signUp(pipit, 'olive');
    collaborator = await signUp(pipit, 'cole');
    viewer = await signUp(pipit, 'vera');
    const desk = { viewport: { width: 1440, height: 900 } };
    ownerDevice = await deviceOf(browser, pipit, owner, desk);
    collaboratorDevice = await deviceOf(browser, pipit, collaborator, desk);
    ownerPage = await ownerDevice.newPage();
    collaboratorPage = await collaboratorDevice.newPage();
    errors.push(...[ownerPage, collaboratorPage].flatMap((p) => collectPageErrors(p)));
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const badge = (page: Page) => page.locator('.editor-top-bar .sync-badge');
  const tree = (page: Page) => page.getByRole('list', { name: /^Components on / });
  const treeRows = (page: Page) =>
    tree(page)
      .locator('.tree-row__name')
      .evaluateAll((rows) => rows.map((row) => row.textContent?.trim() ?? ''));
  async function addComponent(page: Page, type: string) {
    await page.getByRole('button', { name: '+ Add component' }).click();
    await page
      .getByRole('list', { name: 'Component types' })
      .getByRole('button', { name: type, exact: true })
      .click();
  }
  const editUrl = () => `${pipit.url}/apps/${appId}/edit`;

  it('creates an app on the device; it registers itself and says Saved only once stored', async () => {
    await ownerPage.goto(`${pipit.url}/create`);
    await ownerPage.getByLabel('App name').fill('Field guide');
    await ownerPage.getByRole('button', { name: 'Create blank app' }).click();
    await ownerPage.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/);
    appId = /\/apps\/([a-z2-7]{26})\/edit$/.exec(ownerPage.url())![1]!;
    await ownerPage.getByRole('heading', { level: 1, name: 'Field guide' }).waitFor();
    await poll(() => badge(ownerPage).textContent()).toBe('Saved');
    // Saved means stored: the server has the app and its document.
    expect((await pipit.server.storage.apps.get(appId))?.ownerId).toBe(owner.id);
    const stored = await pipit.server.storage.documents.loadWithLog(`app/${appId}`);
    expect(stored.snapshot !== null || stored.log.length > 0).toBe(true);

    await ownerPage.goto(`${pipit.url}/studio`);
    await ownerPage.getByRole('link', { name: 'Field guide' }).waitFor();
  });

  it('invites a collaborator and a viewer by username from the Share dialog', async () => {
    await ownerPage.goto(editUrl());
    await ownerPage.getByRole('button', { name: 'Share' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Share this app' });
    await dialog.getByLabel('Username').fill('cole');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByText('can now edit this app').waitFor();
    await dialog.getByLabel('Username').fill('nobody_here');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByText('No one goes by that username').waitFor();
    await dialog.getByLabel('Username').fill('vera');
    await dialog.getByLabel('Role').selectOption('viewer');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.getByText('can now view this app').waitFor();
    await dialog.getByText('@cole').waitFor();
    expect(await axeViolations(ownerPage, 'dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('shows each person’s edits to the other, live, with presence', async () => {
    await collaboratorPage.goto(`${pipit.url}/studio`);
    await collaboratorPage.getByRole('link', { name: 'Field guide' }).click();
    await collaboratorPage.getByRole('heading', { level: 1, name: 'Field guide' }).waitFor();
    // Each sees the other here.
    await ownerPage.getByRole('img', { name: 'cole' }).waitFor();
    await collaboratorPage.getByRole('img', { name: 'olive' }).waitFor();

    await addComponent(ownerPage, 'List');
    await poll(() => treeRows(collaboratorPage)).toContain('List');
    await addComponent(collaboratorPage, 'Form');
    await poll(() => treeRows(ownerPage)).toContain('Form');

    // What the collaborator selects shows on the owner's tree with their name.
    await tree(collaboratorPage).locator('.tree-row__select').filter({ hasText: 'Form' }).click();
    await tree(ownerPage).locator('.peer-marks__name', { hasText: 'cole' }).waitFor();
    // … and in the owner's preview, on the component itself.
    await ownerPage
      .getByRole('region', { name: /^Preview of / })
      .locator('[aria-label="Select form component, selected by cole"]')
      .waitFor();
    await poll(() => badge(collaboratorPage).textContent()).toBe('Saved');
  });

  it('keeps both of two concurrent edits to the same screen', async () => {
    // Both offline at once: neither sees the other's edit before making their own.
    await ownerDevice.setOffline(true);
    await collaboratorDevice.setOffline(true);
    try {
      await poll(() => badge(ownerPage).textContent()).toMatch(/^Offline/);
      await addComponent(ownerPage, 'Divider');
      await addComponent(collaboratorPage, 'Counter');
      await poll(() => badge(ownerPage).textContent()).toMatch(/^Offline · \d+ change/);
      expect(await treeRows(ownerPage)).not.toContain('Counter');
    } finally {
      await ownerDevice.setOffline(false);
      await collaboratorDevice.setOffline(false);
    }
    for (const page of [ownerPage, collaboratorPage]) {
      await poll(() => treeRows(page)).toEqual(
        expect.arrayContaining([
          'List',
          'Form',
          expect.stringContaining('Divider'),
          expect.stringContaining('Counter'),
        ]),
      );
      await poll(() => badge(page).textContent()).toBe('Saved');
    }
    expect(await treeRows(ownerPage)).toEqual(await treeRows(collaboratorPage));
  });

  it('undoes only my own edit, never the collaborator’s', async () => {
    await addComponent(ownerPage, 'Image');
    await poll(() => treeRows(collaboratorPage)).toEqual(
      expect.arrayContaining([expect.stringContaining('Image')]),
    );
    await addComponent(collaboratorPage, 'Button');
    await poll(() => treeRows(ownerPage)).toEqual(
      expect.arrayContaining([expect.stringContaining('Button')]),
    );
    // The collaborator's Button is the latest change in the document; the owner's undo skips it.
    await ownerPage.getByRole('button', { name: 'Undo' }).click();
    for (const page of [ownerPage, collaboratorPage]) {
      await poll(async () => (await treeRows(page)).some((r) => r.includes('Image'))).toBe(false);
      expect((await treeRows(page)).some((r) => r.includes('Button'))).toBe(true);
    }
    await poll(() => badge(ownerPage).textContent()).toBe('Saved');
  });

  it('shows the viewer the live app read-only, with nothing to change', async () => {
    const viewerDevice = await deviceOf(browser, pipit, viewer);
    const viewerPage = await viewerDevice.newPage();
    await viewerPage.goto(editUrl());
    await viewerPage.getByText('You can view this app but not edit it.').waitFor();
    await poll(() => badge(viewerPage).textContent()).toBe('Read-only');
    expect(await viewerPage.getByRole('button', { name: '+ Add component' }).count()).toBe(0);
    expect(await viewerPage.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    // The owner's next edit reaches the viewer live.
    await addComponent(ownerPage, 'Timer');
    await poll(() => treeRows(viewerPage)).toEqual(
      expect.arrayContaining([expect.stringContaining('Timer')]),
    );
    // The viewer is not shown as editing. A fixed wait on purpose: it checks that something does
    // not happen (the server drops a viewer's presence), which no event announces.
    await viewerPage.waitForTimeout(300);
    expect(await ownerPage.getByRole('img', { name: 'vera' }).count()).toBe(0);
    await viewerDevice.close();
  });

  it('edits with the server gone, survives reload and browser restart, and syncs after', async () => {
    const profile = await launchPersistent({ width: 1440, height: 900 });
    let device = profile.context;
    await signInContext(device, pipit, owner);
    let page = device.pages()[0] ?? (await device.newPage());
    await page.goto(`${pipit.url}/studio`);
    await untilControlled(page);
    await page.goto(editUrl());
    await page.getByRole('heading', { level: 1, name: 'Field guide' }).waitFor();
    await poll(() => badge(page).textContent()).toBe('Saved');

    await pipit.close();
    await poll(() => badge(page).textContent()).not.toBe('Saved');
    await addComponent(page, 'Stat');
    await addComponent(page, 'Link');
    await poll(() => treeRows(page)).toEqual(
      expect.arrayContaining([expect.stringContaining('Stat'), expect.stringContaining('Link')]),
    );
    expect(await badge(page).textContent()).not.toBe('Saved');

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Field guide' }).waitFor();
    await poll(() => treeRows(page)).toEqual(
      expect.arrayContaining([expect.stringContaining('Stat'), expect.stringContaining('Link')]),
    );

    await profile.quit();
    const restarted = await launchPersistent({ width: 1440, height: 900 }, profile.userDataDir);
    device = restarted.context;
    page = device.pages()[0] ?? (await device.newPage());
    await page.goto(editUrl());
    await page.getByRole('heading', { level: 1, name: 'Field guide' }).waitFor();
    await poll(() => treeRows(page)).toEqual(
      expect.arrayContaining([expect.stringContaining('Stat'), expect.stringContaining('Link')]),
    );
    await page
      .getByText(/change/)
      .first()
      .waitFor();

    pipit = await startPipit({ dataDir, port });
    await poll(() => badge(page).textContent()).toBe('Saved');
    await collaboratorPage.goto(editUrl());
    await poll(() => treeRows(collaboratorPage)).toEqual(
      expect.arrayContaining([expect.stringContaining('Stat'), expect.stringContaining('Link')]),
    );
    await restarted.close();
    expect(
      errors.filter((e) => !/WebSocket|ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e)),
    ).toEqual([]);
  });

  it('syncs an app made offline, without reopening it, and shows it on my other device', async () => {
    // Loaded once online (no service worker in this context): the page's code is all here.
    await ownerPage.goto(editUrl());
    await ownerPage.locator('.editor-top-bar__back').click();
    await ownerPage.getByRole('link', { name: 'New app' }).click();
    await ownerPage.getByLabel('App name').waitFor();
    await ownerDevice.setOffline(true);
    try {
      await ownerPage.getByText('You’re offline').first().waitFor();
      await ownerPage.getByLabel('App name').fill('Offline notes');
      await ownerPage.getByRole('button', { name: 'Create blank app' }).click();
      await ownerPage.getByRole('heading', { level: 1, name: 'Offline notes' }).waitFor();
      await addComponent(ownerPage, 'Chart');
      await poll(() => badge(ownerPage).textContent()).toMatch(/^Offline · \d+ change/);
      // Close the editor: the app is not open anywhere when the network returns.
      await ownerPage.locator('.editor-top-bar__back').click();
      await ownerPage.getByRole('link', { name: 'Offline notes' }).waitFor();
    } finally {
      await ownerDevice.setOffline(false);
    }
    const otherDevice = await deviceOf(browser, pipit, owner);
    const other = await otherDevice.newPage();
    // The other device learns of the app when its studio reconciles with the server, a moment after
    // each load; until the first device has registered it, a load finds nothing. So: load, give that
    // load's reconciliation time to land, and load again if it is not there yet. (Counting at once
    // after each reload raced that reconciliation, and the next reload cut it short.)
    await poll(async () => {
      await other.goto(`${pipit.url}/studio`);
      return other
        .getByRole('link', { name: 'Offline notes' })
        .waitFor({ timeout: 3_000 })
        .then(
          () => true,
          () => false,
        );
    }).toBe(true);
    await other.getByRole('link', { name: 'Offline notes' }).click();
    await poll(() => treeRows(other)).toEqual(
      expect.arrayContaining([expect.stringContaining('Chart')]),
    );
    await poll(() => badge(other).textContent()).toBe('Saved');
    await otherDevice.close();
  });

  it('archives an app offline; the server takes the owner’s choice when back online', async () => {
    const archivedAt = async () => {
      const apps = await pipit.server.storage.apps.listForUser(owner.id);
      return apps.find((a) => a.title === 'Offline notes')?.archivedAt ?? null;
    };
    await ownerPage.goto(`${pipit.url}/studio`);
    const row = ownerPage.getByRole('link', { name: 'Offline notes' });
    await row.waitFor();
    await ownerDevice.setOffline(true);
    try {
      await ownerPage.getByRole('button', { name: 'Archive Offline notes' }).click();
      await row.waitFor({ state: 'detached' });
      await ownerPage.getByText('“Offline notes” is in the archive').waitFor();
      await poll(() => ownerPage.getByRole('link', { name: /^Archive/ }).textContent()).toBe(
        'Archive (1)',
      );
      // Only this device knows yet.
      expect(await archivedAt()).toBeNull();
    } finally {
      await ownerDevice.setOffline(false);
    }
    await poll(archivedAt).not.toBeNull();
    await ownerPage.getByRole('link', { name: /^Archive/ }).click();
    const archivedRow = ownerPage.locator('li', { hasText: 'Offline notes' });
    await poll(() => archivedRow.locator('.sync-badge').textContent()).toBe('Saved');
    await ownerPage.getByRole('button', { name: 'Restore Offline notes' }).click();
    await poll(archivedAt).toBeNull();
  });

  it('keeps the demo app as the new account’s first app on sign-up', async () => {
    const visitorDevice = await browser.newContext({ serviceWorkers: 'block' });
    const visitor = await visitorDevice.newPage();
    await visitor.goto(`${pipit.url}/demo`);
    await visitor.getByRole('heading', { level: 1, name: 'My first app' }).waitFor();
    await addComponent(visitor, 'Checklist');
    await poll(() => treeRows(visitor)).toEqual(
      expect.arrayContaining([expect.stringContaining('Checklist')]),
    );
    await visitor.getByRole('link', { name: 'Sign up' }).first().click();
    await visitor.getByLabel('Username').fill('dana');
    await visitor.getByText('✓ /dana is yours if you want it.').waitFor();
    await visitor.getByLabel('Email').fill('dana@example.org');
    await visitor.getByLabel('Password').fill('a long and unusual passphrase');
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/, { timeout: 60_000 });
    await visitor.getByRole('heading', { level: 1, name: 'My first app' }).waitFor();
    await poll(() => treeRows(visitor)).toEqual(
      expect.arrayContaining([expect.stringContaining('Checklist')]),
    );
    await poll(() => badge(visitor).textContent()).toBe('Saved');
    const keptId = /\/apps\/([a-z2-7]{26})\/edit$/.exec(visitor.url())![1]!;
    const kept = await pipit.server.storage.apps.get(keptId);
    const dana = await pipit.server.storage.users.findByUsername('dana');
    expect(kept?.ownerId).toBe(dana?.id);
    // The demo itself starts over: its app moved to the account.
    await visitor.goto(`${pipit.url}/demo`);
    await visitor.getByRole('heading', { level: 1, name: 'My first app' }).waitFor();
    expect((await treeRows(visitor)).some((r) => r.includes('Checklist'))).toBe(false);
    await visitorDevice.close();
  });
  it('brings back an app deleted offline that another device restored meanwhile', async () => {
    const id = createId();
    expect((await owner.api.post('/api/apps', { id, title: 'Spare notes' })).status).toBe(201);
    const archive = (archived: boolean) =>
      owner.api.request('PUT', `/api/apps/${id}/archived`, { body: { archived } });
    expect((await archive(true)).status).toBe(200);
    await ownerPage.goto(`${pipit.url}/archive`);
    await ownerPage.getByRole('link', { name: 'Spare notes' }).waitFor();
    await ownerDevice.setOffline(true);
    try {
      await ownerPage.getByRole('button', { name: 'Delete Spare notes forever' }).click();
      await ownerPage.getByRole('button', { name: 'Delete forever', exact: true }).click();
      await ownerPage.getByRole('link', { name: 'Spare notes' }).waitFor({ state: 'detached' });
      // Meanwhile, on another device, the owner restores it.
      expect((await archive(false)).status).toBe(200);
    } finally {
      await ownerDevice.setOffline(false);
    }
    // The server refuses to delete an app that is not archived: this device lets its deletion go
    // and takes the server's word — the app is back, in the studio — and its other apps sync on.
    await ownerPage.goto(`${pipit.url}/studio`);
    await ownerPage.getByRole('link', { name: 'Spare notes' }).waitFor();
    expect(await pipit.server.storage.apps.get(id)).not.toBeNull();
  });

  it('shows a person on one device once, however many tabs; a closed tab goes at once', async () => {
    const presenceOf = (name: string) =>
      [
        ...(pipit.server.hocuspocus.documents.get(`app/${appId}`)?.awareness.getStates().values() ??
          []),
      ].filter((state) => (state as { user?: { name?: string } }).user?.name === name).length;
    // Two tabs of the owner on one device (or one tab and the one before its reload, whose
    // connection the server has not seen end when the network went with it): one presence.
    await ownerPage.goto(editUrl());
    const secondTab = await ownerDevice.newPage();
    await secondTab.goto(editUrl());
    await poll(() => badge(secondTab).textContent()).toBe('Saved');
    const colePage = await collaboratorDevice.newPage();
    await collaboratorPage.goto(`${pipit.url}/studio`);
    await colePage.goto(editUrl());
    await poll(() => presenceOf('olive')).toBe(2);
    await poll(() => presenceOf('cole')).toBe(1);
    // Each owner tab is told of the other along with the collaborator, and shows only them.
    for (const tab of [ownerPage, secondTab]) {
      await tab.getByRole('img', { name: 'cole' }).waitFor();
      expect(await tab.getByRole('img', { name: 'olive' }).count()).toBe(0);
      expect(await tab.getByRole('list', { name: 'Also editing: 1' }).count()).toBe(1);
    }
    // The collaborator sees the owner once: the newest tab, whose selection is shown.
    await tree(secondTab).locator('.tree-row__select').filter({ hasText: 'Form' }).click();
    await tree(colePage).locator('.peer-marks__name', { hasText: 'olive' }).waitFor();
    expect(await colePage.getByRole('img', { name: 'olive' }).count()).toBe(1);
    await secondTab.close();

    // A tab closed while online leaves the others' presence at once.
    const closedAt = Date.now();
    await colePage.close();
    await ownerPage
      .getByRole('img', { name: 'cole' })
      .waitFor({ state: 'detached', timeout: 3_000 });
    console.log(`a closed tab left the others' presence in ${Date.now() - closedAt} ms`);
  });

  it('keeps a viewer read-only when they open the app offline', async () => {
    const profile = await launchPersistent({ width: 1440, height: 900 });
    try {
      const device = profile.context;
      await signInContext(device, pipit, viewer);
      const page = device.pages()[0] ?? (await device.newPage());
      await page.goto(`${pipit.url}/studio`);
      await untilControlled(page);
      await page.getByRole('link', { name: 'Field guide' }).waitFor();
      await page.goto(editUrl());
      await poll(() => badge(page).textContent()).toBe('Read-only');
      await device.setOffline(true);
      // Opened again with no connection: the device knows the person only views this app.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Field guide' }).waitFor();
      await page.getByText('You can view this app but not edit it.').waitFor();
      expect(await page.getByRole('button', { name: '+ Add component' }).count()).toBe(0);
      expect(await badge(page).textContent()).toBe('Offline');
    } finally {
      await profile.close();
    }
  });

  it('removes changes the server refused for good (now a viewer), says so, and counts none', async () => {
    await collaboratorPage.goto(editUrl());
    await poll(() => badge(collaboratorPage).textContent()).toBe('Saved');
    const before = await treeRows(collaboratorPage);
    await collaboratorDevice.setOffline(true);
    try {
      await poll(() => badge(collaboratorPage).textContent()).toBe('Offline');
      await addComponent(collaboratorPage, 'Checklist');
      await poll(() => badge(collaboratorPage).textContent()).toMatch(/^Offline · 1 change/);
      // Meanwhile the owner makes the collaborator a viewer.
      const demoted = await owner.api.request('PUT', `/api/apps/${appId}/collaborators/cole`, {
        body: { role: 'viewer' },
      });
      expect(demoted.status).toBe(200);
    } finally {
      await collaboratorDevice.setOffline(false);
    }
    await collaboratorPage.getByText('Your changes here weren’t saved').waitFor();
    await collaboratorPage.getByText('the server could not take a change made on').waitFor();
    await poll(() => badge(collaboratorPage).textContent()).toBe('Read-only');
    await poll(() => treeRows(collaboratorPage)).toEqual(before);
    expect(await collaboratorPage.getByRole('button', { name: '+ Add component' }).count()).toBe(0);
    // Nothing is left waiting to sync: the studio says Saved, after a reload too.
    await collaboratorPage.goto(`${pipit.url}/studio`);
    const row = collaboratorPage.locator('li', { hasText: 'Field guide' });
    await poll(() => row.locator('.sync-badge').textContent()).toBe('Saved');
    await collaboratorPage.goto(editUrl());
    await poll(() => badge(collaboratorPage).textContent()).toBe('Read-only');
    await poll(() => treeRows(collaboratorPage)).toEqual(before);
  });
});
