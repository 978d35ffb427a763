import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushServiceStandIn, RunningPipit } from '@pipit/sync-server/testing';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { deviceOf, type Person, signUp } from './support/people';
import { showOnDevice, startPipitWithPush, usePushStandIn } from './support/push-device';
import { makeSpace, openInstalledApp, poll, publishApp, syncNote } from './support/visitor';

const fits = screenChecks('notification-settings');

async function addItem(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Add an item' }).click();
  const form = page.getByRole('form', { name: /^New / });
  await form.getByLabel(/^Item/).fill(name);
  await form.getByRole('button', { name: 'Add to list' }).click();
  await page.getByRole('list', { name: 'Items' }).getByText(name, { exact: true }).waitFor();
}

const spacesDialog = (page: Page) => page.locator('dialog.spaces-dialog');

/** Opens the spaces dialog on `space` and its people and notifications. */
async function openSpace(page: Page, space: string) {
  await page.getByRole('button', { name: /Share with people/ }).click();
  const dialog = spacesDialog(page);
  await dialog.getByRole('radio', { name: new RegExp(space) }).check();
  await dialog.getByRole('button', { name: new RegExp(`in “${space}”`) }).click();
  return dialog;
}

/**
 * The choices that let Pipit speak up, as people make them in a browser: a member of a space turns
 * its activity on and gets one notification for a burst of another member's items; a creator turns
 * on Pipit's own notifications about their apps and chooses their daily email.
 */
describe('notification choices in the browser', () => {
  let pipit: RunningPipit;
  let push: PushServiceStandIn;
  let browser: Browser;
  let creator: Person;
  let ada: Person;
  let ben: Person;
  let appId: string;
  let spaceId: string;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    ({ pipit, push } = await startPipitWithPush({
      // A burst's batch closes after two seconds here, not two minutes.
      activityBatchMs: 2_000,
      schedulerPollMs: 200,
    }));
    browser = await launchBrowser();
    [creator, ada, ben] = await Promise.all([
      signUp(pipit, 'maker'),
      signUp(pipit, 'ada'),
      signUp(pipit, 'ben'),
    ]);
    appId = await publishApp(pipit, creator, definitionOf({}, 'household-shopping-list'));
    spaceId = await makeSpace(ada, appId, 'Our flat', ['ben']);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await pipit?.close();
    await push?.close();
  });

  /** A device of `person` whose push subscription is the stand-in's. */
  async function deviceWithPush(
    person: Person,
    viewport: { width: number; height: number },
    colorScheme: 'light' | 'dark',
  ) {
    const context = await deviceOf(browser, pipit, person, {
      serviceWorkers: 'allow',
      viewport,
      colorScheme,
    });
    contexts.push(context);
    const subscription = await usePushStandIn(context, pipit, push);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    return { page, subscription };
  }

  it('tells Ben of Ada’s burst of items in one notification, and Ada of nothing', async () => {
    const benSide = await deviceWithPush(ben, { width: 375, height: 740 }, 'light');
    await openInstalledApp(benSide.page, pipit.url, appId);
    const dialog = await openSpace(benSide.page, 'Our flat');
    const tellMe = dialog.getByRole('switch', { name: /Tell me when others add or complete/ });
    await fits(benSide.page, 'space-off', tellMe);
    // The switch shows the stored choice: it turns once the server has it.
    await tellMe.click();
    await poll(
      async () =>
        (await pipit.server.storage.spaceActivity.getPreference(spaceId, ben.id))?.enabled,
    ).toBe(true);
    await poll(() => tellMe.isChecked()).toBe(true);
    await fits(benSide.page, 'space-on', tellMe);
    expect(await pipit.server.storage.pushSubscriptions.listForUser(ben.id, appId)).toEqual([
      expect.objectContaining({ endpoint: benSide.subscription.endpoint }),
    ]);

    // Ada, on a laptop in the dark, sees the same choice (off for her) and adds three items.
    const adaSide = await deviceWithPush(ada, { width: 1280, height: 800 }, 'dark');
    await openInstalledApp(adaSide.page, pipit.url, appId);
    const adaDialog = await openSpace(adaSide.page, 'Our flat');
    const adaSwitch = adaDialog.getByRole('switch', {
      name: /Tell me when others add or complete/,
    });
    expect(await adaSwitch.isChecked()).toBe(false);
    await fits(adaSide.page, 'space-owner', adaSwitch);
    await adaDialog.getByRole('button', { name: 'Close' }).click();
    for (const item of ['Eggs', 'Milk', 'Bread']) await addItem(adaSide.page, item);
    await poll(() => syncNote(adaSide.page).innerText()).toBe('Saved');

    // One notification for the burst, once its two-second batch closes; nothing for Ada.
    await expect
      .poll(() => push.deliveredTo(benSide.subscription).length, { timeout: 20_000 })
      .toBe(1);
    const [arrived] = push.deliveredTo(benSide.subscription);
    const message = JSON.parse(arrived!.payload) as { title: string; body: string; path: string };
    expect(message.title).toBe('Our flat');
    expect(message.body).toBe('ada added 3 items to Our flat');
    expect(message.path).toBe(`/apps/${appId}/pwa`);
    expect(push.deliveredTo(adaSide.subscription)).toEqual([]);

    // Ben's service worker shows it as it came.
    await expect
      .poll(await showOnDevice(benSide.page, pipit, arrived!.payload))
      .toEqual([{ title: 'Our flat', body: message.body, path: message.path }]);
  });

  it.each([
    { name: 'phone', viewport: { width: 375, height: 740 }, colorScheme: 'light' },
    { name: 'laptop', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
  ] as const)(
    'lets a creator turn on Pipit’s own notifications and choose the daily email, on a $name',
    async ({ name, viewport, colorScheme }) => {
      const person = await signUp(pipit, `maker_${name}`);
      const { page, subscription } = await deviceWithPush(person, viewport, colorScheme);
      await page.goto(`${pipit.url}/account/settings`);
      const section = page.locator('.creator-notifications');
      await section.getByRole('heading', { name: 'About your apps' }).waitFor();
      await fits(page, `creator-${name}`, section);

      await section.getByRole('button', { name: 'Notify me on this device' }).click();
      await poll(async () =>
        (await pipit.server.storage.creatorNotifications.listPlatformSubscriptions(person.id)).map(
          (s) => s.endpoint,
        ),
      ).toEqual([subscription.endpoint]);

      await section.getByLabel('Email me a daily summary').selectOption('off');
      await poll(() => pipit.server.storage.creatorNotifications.emailDigest(person.id)).toBe(
        'off',
      );
      // The choice carries the device's zone, which the daily email's 17:00 keeps to.
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(await pipit.server.storage.creatorNotifications.digestTimeZone(person.id)).toBe(zone);
      await fits(page, `creator-on-${name}`, section);
    },
  );

  it('logs no console errors', () => {
    expect(errors).toEqual([]);
  });
});
