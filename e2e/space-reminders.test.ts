import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushServiceStandIn, RunningPipit } from '@pipit/sync-server/testing';
import { createId } from '@pipit/protocol';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { deviceOf, type Person, signUp } from './support/people';
import { showOnDevice, startPipitWithPush, usePushStandIn } from './support/push-device';
import {
  appScreens,
  makeSpace,
  openInstalledApp,
  poll,
  publishApp,
  syncNote,
} from './support/visitor';

const fits = screenChecks('space-reminders');
const DAY = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` `days` from today in UTC (the devices are set to UTC). */
const utcDate = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** Shows `space` in the installed app, as a member picks it from the app's bar. */
async function showSpace(page: Page, space: string) {
  await page.getByRole('button', { name: /Share with people/ }).click();
  const dialog = page.locator('dialog.spaces-dialog');
  await dialog.getByRole('radio', { name: new RegExp(space) }).check();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

/**
 * A reminder about a collection shared in a space (docs/product/reminders.md, "Reminders about
 * records"): Ada turns on "the day before a chore is due" in the household app's installed PWA;
 * Ben, in their space on his phone, takes on a chore due the day after tomorrow; the server queues
 * Ada's reminder from Ben's item, and when it is due her service worker shows it.
 */
describe('a reminder about a space’s items', () => {
  let pipit: RunningPipit;
  let push: PushServiceStandIn;
  let browser: Browser;
  let ada: Person;
  let ben: Person;
  let appId: string;
  const reminder = { id: createId(), title: 'Chores tomorrow' };
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    ({ pipit, push } = await startPipitWithPush());
    browser = await launchBrowser();
    const [creator, a, b] = await Promise.all([
      signUp(pipit, 'maker'),
      signUp(pipit, 'ada'),
      signUp(pipit, 'ben'),
    ]);
    [ada, ben] = [a, b];
    // The household app, its chores with a due date, and a reminder the day before one is due.
    const definition = definitionOf({ title: 'Household' }, 'household-shopping-list');
    const chores = definition.collections.find((c) => c.name === 'Chores');
    const form = definition.screens
      .flatMap((s) => s.components)
      .find((c) => c.type === 'form' && c.props.collectionId === chores?.id);
    if (!chores || !form || form.type !== 'form')
      throw new Error('the template has no chores form');
    const named = chores.fields.find((f) => f.type === 'text')!;
    const due: typeof named = {
      ...named,
      id: createId(),
      name: 'Due',
      type: 'date',
      required: false,
    };
    chores.fields.push(due);
    form.props.fieldIds.push(due.id);
    definition.reminders.push({
      ...reminder,
      body: 'Have a look at the chores.',
      schedule: {
        kind: 'recordDay',
        collectionId: chores.id,
        fieldId: due.id,
        days: -1,
        time: '09:00',
      },
    });
    appId = await publishApp(pipit, creator, definition);
    await makeSpace(ada, appId, 'Our flat', ['ben']);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await pipit?.close();
    await push?.close();
  });

  it('reminds Ada of the chore Ben took on in their space', async () => {
    const adaContext = await deviceOf(browser, pipit, ada, {
      serviceWorkers: 'allow',
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
      timezoneId: 'UTC',
    });
    contexts.push(adaContext);
    const adaDevice = await usePushStandIn(adaContext, pipit, push);
    const adaPage = await adaContext.newPage();
    errors.push(...collectPageErrors(adaPage));
    await openInstalledApp(adaPage, pipit.url, appId);
    await adaPage.getByText('Reminders', { exact: true }).click();
    const form = adaPage.locator('form.reminder', { hasText: reminder.title });
    await form.getByText('1 day before Due at 09:00').waitFor();
    await form.getByRole('switch', { name: 'Remind me' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('On. Nothing is due yet.', { exact: true }).waitFor();
    await fits(adaPage, 'on-laptop', form);

    // Ben, on his phone, shows the space and takes on a chore due the day after tomorrow.
    const benContext = await deviceOf(browser, pipit, ben, {
      viewport: { width: 375, height: 740 },
      colorScheme: 'light',
      timezoneId: 'UTC',
    });
    contexts.push(benContext);
    const benPage = await benContext.newPage();
    errors.push(...collectPageErrors(benPage));
    await openInstalledApp(benPage, pipit.url, appId);
    await showSpace(benPage, 'Our flat');
    await appScreens(benPage)
      .getByRole('button', { name: /Chores/ })
      .click();
    await benPage.getByRole('button', { name: 'Take on a chore' }).click();
    const chore = benPage.getByRole('form', { name: /^New / });
    await chore.getByLabel(/^Chore/).fill('Take the bins out');
    await chore.getByLabel(/^Due/).fill(utcDate(2));
    await fits(benPage, 'chore-phone', chore);
    await chore.getByRole('button', { name: 'I’ll do it' }).click();
    await poll(() => syncNote(benPage).innerText()).toBe('Saved');

    // Stored, the space's document queues Ada's reminder: tomorrow at 09:00, her time.
    const tomorrowAtNine = Date.parse(`${utcDate(1)}T09:00:00Z`);
    await poll(() =>
      pipit.server.storage.jobs
        .get(`reminder:${ada.id}:${appId}:${reminder.id}:${tomorrowAtNine}`)
        .then((job) => job?.runAt ?? null),
    ).toBe(tomorrowAtNine);

    // Its time comes: the job the scheduler runs then, run now.
    await pipit.server.reminders.deliver({
      id: 'e2e-space-reminder',
      kind: 'reminder',
      key: 'e2e-space-reminder',
      attempt: 1,
      payload: { userId: ada.id, appId, reminderId: reminder.id, occurrence: tomorrowAtNine },
    });
    const [arrived] = push.deliveredTo(adaDevice);
    expect(arrived).toBeDefined();
    await expect.poll(await showOnDevice(adaPage, pipit, arrived!.payload)).toEqual([
      {
        title: reminder.title,
        body: '1 item · Have a look at the chores.',
        path: `/apps/${appId}/pwa`,
      },
    ]);
  });

  it('logged no errors in the browser', () => {
    expect(errors).toEqual([]);
  });
});
