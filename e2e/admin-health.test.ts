import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOperator, type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { deviceOf, type Person, signUp } from './support/people';

/**
 * The server's health on the operator's `/admin` (docs/operations.md#the-operators-view): this
 * instance with its version and sockets, the database's size, and scheduled backups — none yet,
 * then a real one made and restored in its drill, then a failure said in words — at 1280 px light
 * and 375 px dark, axe clean, never scrolling sideways.
 */
describe('server health on /admin', () => {
  let browser: Browser;
  let pipit: RunningPipit;
  let olga: Person;
  const fits = screenChecks('admin-health');

  beforeAll(async () => {
    browser = await launchBrowser();
    pipit = await startPipit({
      env: {
        HUMAN_CHECK_DIFFICULTY: '500',
        BACKUP_SCHEDULE: '30 3 * * *',
        INSTANCE_NAME: 'pipit-e2e',
      },
    });
    olga = await signUp(pipit, 'olga');
    await makeOperator(pipit.server.storage, 'olga');
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  async function openAdmin(viewport: { width: number; height: number }, dark = false) {
    const context = await deviceOf(browser, pipit, olga, {
      viewport,
      colorScheme: dark ? 'dark' : 'light',
    });
    const page = await context.newPage();
    await page.goto(`${pipit.url}/admin`);
    await page.getByRole('heading', { name: 'Server health', level: 2 }).waitFor();
    return page;
  }

  const card = (page: Page, title: string) =>
    page.locator('.card').filter({ has: page.getByRole('heading', { name: title, level: 3 }) });

  it('shows this instance, the database and that no backup was made yet', async () => {
    await pipit.server.heartbeat.beat();
    const page = await openAdmin({ width: 1280, height: 900 });
    await expect.poll(() => card(page, 'Instances').innerText()).toMatch(/1 up/);
    await expect.poll(() => card(page, 'Backups').innerText()).toMatch(/None yet/);
    expect(await card(page, 'Backups').innerText()).toMatch(/Schedule: 30 3 \* \* \* \(UTC\)/);
    expect(await card(page, 'Database').innerText()).toMatch(/SQLite/);
    const table = page.getByRole('region', { name: 'Instances table' });
    const row = (await table.locator('tbody tr').first().innerText()).split('\t');
    expect(row[0]).toMatch(/^pipit-e2e · started/);
    expect(row[1]).toBe((await (await fetch(`${pipit.url}/api/health`)).json()).version);
    await fits(page, 'no-backup', page.getByRole('heading', { name: 'Server health' }));
    await page.context().close();
  });

  it('shows the last backup restored in its drill, and a failure in words', async () => {
    // A real scheduled run: written, restored in its drill, recorded.
    await pipit.server.backups.run({
      id: 'e2e-backup',
      kind: 'backup',
      key: 'backup:e2e',
      payload: { at: Date.now() },
      attempt: 1,
    });
    let page = await openAdmin({ width: 1280, height: 900 });
    await expect
      .poll(() => card(page, 'Backups').innerText())
      .toMatch(/pipit-.*\.pipit-backup\.gz, [\d.]+ KB, restored in its drill/);
    await fits(page, 'backup', page.getByRole('heading', { name: 'Server health' }));
    await page.context().close();

    await pipit.server.storage.backupRuns.record({
      id: 'e2e-failed',
      instance: 'pipit-e2e',
      startedAt: Date.now(),
      finishedAt: Date.now(),
      status: 'failed',
      file: null,
      bytes: null,
      rows: null,
      drill: null,
      message: 'The disk holding /srv/backups is full, so the backup was not made.',
    });
    page = await openAdmin({ width: 375, height: 800 }, true);
    const alert = page.getByText('The last scheduled backup failed');
    await alert.waitFor();
    expect(await page.getByText(/The disk holding \/srv\/backups is full/).count()).toBe(1);
    // The last good one is still shown.
    expect(await card(page, 'Backups').innerText()).toMatch(/restored in its drill/);
    await fits(page, 'failed', alert);
    await page.context().close();
  });
});
