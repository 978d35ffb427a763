import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushServiceStandIn, RunningPipit } from '@pipit/sync-server/testing';
import { createId } from '@pipit/protocol';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { deviceOf, signUp } from './support/people';
import { showOnDevice, startPipitWithPush, usePushStandIn } from './support/push-device';
import { openInstalledApp, publishApp } from './support/visitor';

const DEVICES = [
  { name: 'a phone, light', viewport: { width: 375, height: 740 }, colorScheme: 'light' },
  { name: 'a laptop, dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
] as const;

const fits = screenChecks('reminders');

/** `HH:MM` in UTC, `minutes` from now (the devices are set to UTC). */
function utcTimeIn(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  return `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
}

/**
 * A visitor turns on the habit tracker's daily reminder in the installed app, at their own time:
 * notifications are asked for on that click, the device's subscription reaches the server, and
 * when the occurrence is due the notification the service worker shows has the reminder's text
 * and opens the app.
 */
describe('a reminder in the installed app', () => {
  let pipit: RunningPipit;
  let push: PushServiceStandIn;
  let browser: Browser;
  let appId: string;
  let reminder: { id: string; title: string; body: string };
  /** A reminder counted from a check-in's date, added to the template's for this test. */
  const aboutItems = { id: createId(), title: 'Check-in tomorrow' };
  let dateName: string;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    ({ pipit, push } = await startPipitWithPush());
    browser = await launchBrowser();
    const creator = await signUp(pipit, 'hana');
    const definition = definitionOf({ title: 'Habits' });
    const found = definition.reminders[0];
    if (!found) throw new Error('the habit tracker template has no reminder');
    reminder = found;
    const checkIns = definition.collections.find((c) => c.fields.some((f) => f.type === 'date'));
    const date = checkIns?.fields.find((f) => f.type === 'date');
    if (!checkIns || !date) throw new Error('the habit tracker template has no date field');
    definition.reminders.push({
      ...aboutItems,
      body: '',
      schedule: {
        kind: 'recordDay',
        collectionId: checkIns.id,
        fieldId: date.id,
        days: -1,
        time: '09:00',
      },
    });
    dateName = date.name;
    appId = await publishApp(pipit, creator, definition);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await pipit?.close();
    await push?.close();
  });

  it.each(DEVICES)(
    'is turned on at the person’s own time, and its notification arrives, on $name',
    async ({ name, viewport, colorScheme }) => {
      const visitor = await signUp(pipit, `ada_${viewport.width}`);
      const context = await deviceOf(browser, pipit, visitor, {
        serviceWorkers: 'allow',
        viewport,
        colorScheme,
        timezoneId: 'UTC',
      });
      contexts.push(context);
      const device = await usePushStandIn(context, pipit, push);
      const page = await context.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, appId);

      await page.getByText('Reminders', { exact: true }).click();
      const form = page.locator('form.reminder', { hasText: reminder.title });
      await form.waitFor();
      await fits(page, `off-${name.split(',')[0]}`, form);

      const time = utcTimeIn(3);
      await form.getByRole('switch', { name: 'Remind me' }).check();
      await form.getByLabel('At').fill(time);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText(/^On\. Next reminder/).waitFor();
      await fits(page, `on-${name.split(',')[0]}`, form);

      const stored = await pipit.server.storage.reminderPreferences.get(
        visitor.id,
        appId,
        reminder.id,
      );
      expect(stored?.preferences).toMatchObject({ enabled: true, timeZone: 'UTC', time });
      expect(await pipit.server.storage.pushSubscriptions.listForUser(visitor.id, appId)).toEqual([
        expect.objectContaining({ endpoint: device.endpoint }),
      ]);

      // Its time comes: the job the scheduler runs then, run now.
      const occurrence = await pipit.server.reminders.scheduleNext(visitor.id, appId, reminder.id);
      expect(new Date(occurrence!).toISOString().slice(11, 16)).toBe(time);
      await pipit.server.reminders.deliver({
        id: `e2e-${viewport.width}`,
        kind: 'reminder',
        key: `e2e-${viewport.width}`,
        attempt: 1,
        payload: { userId: visitor.id, appId, reminderId: reminder.id, occurrence: occurrence! },
      });
      const [arrived] = push.deliveredTo(device);
      expect(arrived).toBeDefined();
      await expect
        .poll(await showOnDevice(page, pipit, arrived!.payload))
        .toEqual([{ title: reminder.title, body: reminder.body, path: `/apps/${appId}/pwa` }]);

      // A reminder about items: in words, at the person's time, and names shown only if they say.
      const items = page.locator('form.reminder', { hasText: aboutItems.title });
      await items.getByText(`1 day before ${dateName} at 09:00`).waitFor();
      await items.getByText(/says only how many items/).waitFor();
      await items.getByRole('switch', { name: 'Remind me' }).check();
      await items.getByRole('switch', { name: 'Show item names' }).check();
      await items.getByText(/anyone who sees your lock screen/).waitFor();
      await items.getByRole('button', { name: 'Save' }).click();
      await items.getByText('On. Nothing is due yet.', { exact: true }).waitFor();
      await fits(page, `items-${name.split(',')[0]}`, items);
      expect(
        (await pipit.server.storage.reminderPreferences.get(visitor.id, appId, aboutItems.id))
          ?.preferences,
      ).toMatchObject({ enabled: true, showRecordText: true });

      // Turned off: the next one is not queued, and nothing more is sent.
      await form.getByRole('switch', { name: 'Remind me' }).uncheck();
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText('Off.', { exact: true }).waitFor();
      expect(await pipit.server.reminders.scheduleNext(visitor.id, appId, reminder.id)).toBeNull();
    },
  );

  it('logged no errors in the browser', () => {
    expect(errors).toEqual([]);
  });
});
