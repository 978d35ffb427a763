import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { collectPageErrors, launchBrowser, launchPersistent } from './support/browser';
import { untilManifest } from './support/installability';
import { deviceOf, type Person, signUp } from './support/people';
import { untilControlled } from './support/service-worker';
import { goOffline, openInstalledApp, poll, publishHabitTracker } from './support/visitor';

/**
 * Publishing as people do it (docs/product/routes.md, states.md, roles.md): the creator publishes
 * from the editor, anyone can install each published app as its own PWA, a remix keeps its lineage
 * on both pages, a private app is not found for a stranger, and explore finds apps by tag and by
 * author.
 */
describe('publishing and finding apps', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let creator: Person;
  let remixer: Person;
  let stranger: Person;
  let habitsId: string;
  const errors: string[] = [];

  const watch = (page: Page) => {
    errors.push(...collectPageErrors(page));
    return page;
  };

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    creator = await signUp(pipit, 'maya');
    remixer = await signUp(pipit, 'remy');
    stranger = await signUp(pipit, 'sol');
    // A draft with a tag: what the creator publishes from the editor below.
    habitsId = await publishHabitTracker(pipit, creator, {
      title: 'Tiny habits',
      tags: ['wellbeing'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  it('publishes the next version from the editor, and its page shows it', async () => {
    const context = await deviceOf(browser, pipit, creator);
    try {
      const page = watch(await context.newPage());
      await page.goto(`${pipit.url}/apps/${habitsId}/edit`);
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Publish' });
      await expect
        .poll(() => dialog.getByTestId('publish-status').innerText())
        .toMatch(/version 1/);
      // What publishing would change for visitors, before the owner publishes: nothing yet;
      // then, after an edit, that edit, named as History names it.
      await dialog.getByText('No changes since version 1').waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: '+ Add component' }).click();
      await page
        .getByRole('list', { name: 'Component types' })
        .getByRole('button', { name: 'Divider', exact: true })
        .click();
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const since = dialog.locator('details.publish__since');
      await since.getByText('Changes since version 1: 1 component').click();
      const sinceList = since.getByRole('list', { name: 'Changes since version 1' });
      expect(await sinceList.innerText()).toMatch(/^Added a divider in /);
      // With who made it (docs/product/history.md#who-changed-what).
      await expect.poll(() => sinceList.innerText()).toMatch(/ — maya, just now$/);
      if (process.env.PIPIT_SHOTS) {
        await page.screenshot({ path: `${process.env.PIPIT_SHOTS}/publish-since-1280.png` });
      }
      await dialog.getByRole('button', { name: 'Publish version 2' }).click();
      await dialog.getByText('Version 2 is live').waitFor({ timeout: 15_000 });

      await page.goto(`${pipit.url}/apps/${habitsId}`);
      await page.getByRole('heading', { level: 1, name: 'Tiny habits' }).waitFor();
      expect(await page.getByText(/Version 2 · published/).count()).toBe(1);
      await page.getByRole('link', { name: 'Open', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Install', exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('makes each published app installable on its own, online and offline', async () => {
    const secondId = await publishHabitTracker(pipit, creator, { title: 'Water log' });
    const device = await launchPersistent({ width: 390, height: 844 });
    try {
      const page = watch(await device.context.newPage());
      for (const [id, name] of [
        [habitsId, 'Tiny habits'],
        [secondId, 'Water log'],
      ] as const) {
        await openInstalledApp(page, pipit.url, id);
        const report = await untilManifest(page, `${pipit.url}/apps/${id}/manifest.webmanifest`);
        expect(report.manifestErrors).toEqual([]);
        expect(report.installabilityErrors).toEqual([]);
        expect(report.manifest).toMatchObject({
          name,
          id: `/apps/${id}/pwa`,
          start_url: `/apps/${id}/pwa`,
          scope: `/apps/${id}/pwa`,
          display: 'standalone',
        });
      }
      await untilControlled(page);
      await openInstalledApp(page, pipit.url, secondId);
      await device.context.setOffline(true);
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      const offline = await untilManifest(
        page,
        `${pipit.url}/apps/${secondId}/manifest.webmanifest`,
      );
      expect(offline.installabilityErrors).toEqual([]);
      await device.context.setOffline(false);
    } finally {
      await device.close();
    }
  });

  it('remixes a published app into an editable copy, with lineage on both pages', async () => {
    const context = await deviceOf(browser, pipit, remixer);
    try {
      const page = watch(await context.newPage());
      await page.goto(`${pipit.url}/apps/${habitsId}`);
      await page.getByRole('button', { name: 'Remix' }).click();
      await page.waitForURL(/\/apps\/[a-z2-7]+\/edit$/, { timeout: 15_000 });
      const remixId = /\/apps\/([a-z2-7]+)\/edit$/.exec(page.url())?.[1] ?? '';
      expect(remixId).not.toBe(habitsId);
      // The copy is theirs to edit: the editor is not read-only and the server lists it as theirs.
      await page.getByRole('button', { name: '+ Add component' }).waitFor();
      await poll(async () => {
        const apps = await remixer.api.get<{ apps: Array<{ id: string; role: string }> }>(
          '/api/apps',
        );
        return apps.body.apps.find((a) => a.id === remixId)?.role;
      }).toBe('owner');

      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Publish' });
      await dialog.getByRole('button', { name: 'Publish version 1' }).click();
      await dialog.getByText('Version 1 is live').waitFor({ timeout: 15_000 });

      await page.goto(`${pipit.url}/apps/${remixId}`);
      await page.getByText(/Remixed from/).waitFor();
      expect(await page.getByRole('link', { name: 'Tiny habits' }).count()).toBeGreaterThan(0);
      await page.goto(`${pipit.url}/apps/${habitsId}`);
      await page.getByRole('heading', { name: 'Remixes' }).waitFor();
      expect(await page.getByRole('link', { name: /Tiny habits \(remix\)/ }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('shows a private app to nobody but its people', async () => {
    const hidden = await publishHabitTracker(pipit, creator, { title: 'Secret diary' });
    const made = await creator.api.request('PUT', `/api/apps/${hidden}/visibility`, {
      body: { visibility: 'private' },
    });
    expect(made.status).toBe(200);
    const context = await deviceOf(browser, pipit, stranger);
    try {
      const page = await context.newPage();
      for (const path of [`/apps/${hidden}`, `/apps/${hidden}/pwa`]) {
        await page.goto(`${pipit.url}${path}`);
        await page.getByRole('heading', { name: /isn’t available/ }).waitFor();
        expect(await page.getByText('Secret diary').count()).toBe(0);
      }
    } finally {
      await context.close();
    }
    const owner = await deviceOf(browser, pipit, creator);
    try {
      const page = watch(await owner.newPage());
      await page.goto(`${pipit.url}/apps/${hidden}`);
      await page.getByRole('heading', { level: 1, name: 'Secret diary' }).waitFor();
    } finally {
      await owner.close();
    }
  });

  it('takes a private app off a device when its person signs out, and shows a copy to nobody else', async () => {
    const journal = await publishHabitTracker(pipit, creator, { title: 'Private journal' });
    const made = await creator.api.request('PUT', `/api/apps/${journal}/visibility`, {
      body: { visibility: 'private' },
    });
    expect(made.status).toBe(200);
    /** The device's copy of the app (the service worker's cache), with the headers it came with. */
    const keptCopy = (page: Page) =>
      page.evaluate(async (path) => {
        const kept = await (await caches.open('pipit-published')).match(path);
        return kept ? { body: await kept.text(), headers: Object.fromEntries(kept.headers) } : null;
      }, `/api/published/${journal}`);
    const context = await deviceOf(browser, pipit, creator, { serviceWorkers: 'allow' });
    try {
      const page = await context.newPage();
      await page.goto(`${pipit.url}/apps/${journal}`);
      await untilControlled(page);
      await page.goto(`${pipit.url}/apps/${journal}`);
      await page.getByRole('heading', { level: 1, name: 'Private journal' }).waitFor();
      await openInstalledApp(page, pipit.url, journal);
      const copy = await keptCopy(page);
      expect(copy?.headers['x-pipit-viewer']).toBe(creator.id);

      // Signing out takes it off the device.
      await page.goto(`${pipit.url}/about`);
      await page.getByRole('button', { name: /account menu/ }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await poll(() => keptCopy(page)).toBeNull();

      // A copy left behind (kept before that rule, or by a removal that failed) is still no copy
      // for anyone else: offline, neither the app's page nor the installed app shows it.
      await page.evaluate(
        async ({ path, kept }) => {
          const cache = await caches.open('pipit-published');
          await cache.put(path, new Response(kept.body, { headers: kept.headers }));
        },
        { path: `/api/published/${journal}`, kept: copy! },
      );
      await goOffline(context, page);
      await page.goto(`${pipit.url}/apps/${journal}`);
      await page.getByRole('heading', { level: 1, name: 'You’re offline' }).waitFor();
      expect(await page.getByText('Private journal').count()).toBe(0);
      await page.goto(`${pipit.url}/apps/${journal}/pwa`);
      await page.getByText(/this app hasn’t been opened on this device before/).waitFor();
      expect(await page.getByText('Private journal').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('tells an installed app that its creator deleted it, and keeps no copy of it', async () => {
    const doomed = await publishHabitTracker(pipit, creator, { title: 'Short-lived' });
    const context = await deviceOf(browser, pipit, stranger, { serviceWorkers: 'allow' });
    try {
      const page = await context.newPage();
      await page.goto(`${pipit.url}/apps/${doomed}`);
      await untilControlled(page);
      await openInstalledApp(page, pipit.url, doomed);
      for (const [method, path, body] of [
        ['PUT', `/api/apps/${doomed}/archived`, { archived: true }],
        ['DELETE', `/api/apps/${doomed}`, undefined],
      ] as const) {
        const answer = await creator.api.request(method, path, body ? { body } : {});
        expect(answer.status, path).toBe(200);
      }
      // It opens from the device's copy, asks the server, and learns the app is gone for good.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'This app was deleted' }).waitFor();
      await poll(() =>
        page.evaluate(
          async (path) => (await (await caches.open('pipit-published')).match(path)) === undefined,
          `/api/published/${doomed}`,
        ),
      ).toBe(true);
      // Its page says not found, like any app that is not there.
      await page.goto(`${pipit.url}/apps/${doomed}`);
      await page.getByRole('heading', { name: /isn’t available/ }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('finds apps in explore by tag and by author', async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    try {
      const page = watch(await context.newPage());
      await page.goto(`${pipit.url}/explore`);
      await page.getByRole('button', { name: '#wellbeing' }).click();
      // The remix keeps the original's tags; the untagged Water log is left out.
      await poll(async () =>
        (await page.locator('article.app-card h2').allInnerTexts()).sort(),
      ).toEqual(['Tiny habits', 'Tiny habits (remix)']);

      await page.goto(`${pipit.url}/explore`);
      await page.getByRole('searchbox', { name: 'Search apps' }).fill('maya');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await poll(async () =>
        (await page.locator('article.app-card h2').allInnerTexts()).sort(),
      ).toEqual(['Tiny habits', 'Water log']);
      // The remix is remy's: searching for its author finds it, not maya's originals.
      await page.getByRole('searchbox', { name: 'Search apps' }).fill('remy');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await poll(() => page.locator('article.app-card h2').allInnerTexts()).toEqual([
        'Tiny habits (remix)',
      ]);
    } finally {
      await context.close();
    }
  });

  it('logged no console error', () => {
    expect(errors).toEqual([]);
  });
});
