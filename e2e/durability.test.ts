import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';
import { addHabit, openInstalledApp, poll, publishHabitTracker, syncNote } from './support/visitor';

/**
 * Durability you can see (docs/product/durability.md): `/account/settings` and each installed app
 * say whether this device's storage is persistent, how much is used and whether the server has
 * everything; the button asks the browser to keep the data. Chromium decides persistence by its
 * own rules, so each test sets the browser's answer (the "persistent-storage" permission) first.
 */
describe('durability on this device', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let ada: Person;
  let appId: string;
  let device: BrowserContext;
  let page: Page;
  let errors: string[];
  let cdp: CDPSession | undefined;

  beforeAll(async () => {
    pipit = await startPipit();
    ada = await signUp(pipit, 'ada_keeps');
    appId = await publishHabitTracker(pipit, ada, { title: 'Kept habits' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await cdp?.detach();
    await browser?.close();
    await pipit?.close();
  });

  /** What Chromium answers `navigator.storage.persist()` on Pipit's origin, in `page`'s context. */
  async function browserWillPersist(granted: boolean) {
    const session = await page.context().newCDPSession(page);
    const { targetInfo } = await session.send('Target.getTargetInfo');
    await session.detach();
    // Overrides last as long as the DevTools session that set them: one for the whole suite.
    cdp ??= await browser.newBrowserCDPSession();
    const context = targetInfo.browserContextId
      ? { browserContextId: targetInfo.browserContextId }
      : {};
    if (granted) {
      await cdp.send('Browser.grantPermissions', {
        permissions: ['durableStorage'],
        origin: pipit.url,
        ...context,
      });
    } else {
      await cdp.send('Browser.setPermission', {
        permission: { name: 'persistent-storage' },
        setting: 'denied',
        origin: pipit.url,
        ...context,
      });
    }
  }

  async function openSettings() {
    device = await deviceOf(browser, pipit, ada);
    page = await device.newPage();
    errors = collectPageErrors(page);
    await page.goto(`${pipit.url}/account/settings`);
    return page.getByRole('region', { name: 'This device' });
  }

  it('on /account/settings, says the data may be removed and what asking the browser did', async () => {
    const section = await openSettings();
    await browserWillPersist(false);
    await section.getByText(/may remove them if the device runs low on space/).waitFor();
    await section.getByText(/Space used/).waitFor();
    await section
      .getByText('Everything on this device is on the server too.', { exact: false })
      .waitFor();
    await section.getByRole('button', { name: 'Keep Pipit’s data on this device' }).click();
    await section
      .getByRole('status')
      .getByText(/The browser did not agree this time/)
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await device.close();
  });

  it('on /account/settings, says the data stays once the browser agrees', async () => {
    const section = await openSettings();
    await section.getByText(/may remove them if the device runs low on space/).waitFor();
    await browserWillPersist(true);
    await section.getByRole('button', { name: 'Keep Pipit’s data on this device' }).click();
    await section.getByText(/stay until you clear them/).waitFor();
    expect(await section.getByRole('button', { name: /Keep Pipit/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await device.close();
  });

  it('in an installed app, says where the visitor’s data is and when the server last confirmed it', async () => {
    device = await deviceOf(browser, pipit, ada);
    page = await device.newPage();
    errors = collectPageErrors(page);
    await browserWillPersist(false);
    await openInstalledApp(page, pipit.url, appId);
    await addHabit(page, 'Stretch');
    await poll(() => syncNote(page).textContent()).toBe('Saved');
    await page.getByText('Your data on this device').click();
    const panel = page.locator('.app-host__device');
    await panel
      .getByText(/Your data in this app are kept, but the browser may remove them/)
      .waitFor();
    await panel.getByText(/Everything on this device is on the server too/).waitFor();
    await panel.getByText(/Last confirmed by the server (just now|\d+ seconds? ago)/).waitFor();
    await browserWillPersist(true);
    await panel.getByRole('button', { name: 'Keep this app’s data on this device' }).click();
    await panel.getByText(/Your data in this app stay until you clear them/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await device.close();
  });
});
