import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PushServiceStandIn,
  type RunningPipit,
  startPipit,
  startPushServiceStandIn,
} from '@pipit/sync-server/testing';
import { createId } from '@pipit/protocol';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchBrowser } from './support/browser';
import { screenChecks } from './support/fits';
import { deviceOf, signUp } from './support/people';
import { openInstalledApp, publishApp } from './support/visitor';

const DEVICES = [
  { name: 'a phone, light', viewport: { width: 375, height: 740 }, colorScheme: 'light' },
  { name: 'a laptop, dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
] as const;

const fits = screenChecks('reminders');

/**
 * The browser's push service is the stand-in: `pushManager.subscribe()` answers with a
 * subscription the stand-in made (Chromium here cannot reach Google's push service), so what the
 * server sends arrives at the stand-in, decrypted with that subscription's keys, as a phone's
 * browser would get it. Everything else — permission, the page, the server, web-push — is real.
 */
function pushServiceScript(subscription: {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}) {
  return `(() => {
    const made = ${JSON.stringify(subscription)};
    let current = null;
    const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4)), (c) => c.charCodeAt(0));
    PushManager.prototype.getSubscription = async function () { return current; };
    PushManager.prototype.subscribe = async function (options) {
      const key = options.applicationServerKey;
      current = {
        endpoint: made.endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: key instanceof ArrayBuffer ? key : key.buffer },
        getKey: (name) => bytes(made.keys[name]).buffer,
        toJSON: () => ({ endpoint: made.endpoint, expirationTime: null, keys: made.keys }),
        unsubscribe: async () => { current = null; return true; },
      };
      return current;
    };
  })();`;
}

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
    push = await startPushServiceStandIn();
    pipit = await startPipit({
      pushAgent: push.agent,
      // The stand-in is on 127.0.0.1, which production refuses (push/endpoints.ts).
      pushEndpoints: (url) => url.origin === push.origin,
    });
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

  /** What the service worker shows once the push service hands the device `payload`. */
  async function showOnDevice(page: Page, payload: string) {
    const cdp = await page.context().newCDPSession(page);
    const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: all }) => resolve(all)),
    );
    await cdp.send('ServiceWorker.enable');
    const ours = (await registrations).find((r) => r.scopeURL === `${pipit.url}/`);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: pipit.url,
      registrationId: ours!.registrationId,
      data: payload,
    });
    return expect.poll(() =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          path: (n.data as { path?: string }).path,
        })),
      ),
    );
  }

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
      await context.grantPermissions(['notifications'], { origin: pipit.url });
      const publicKey = (await visitor.api.get<{ publicKey: string }>('/api/push/key')).body
        .publicKey;
      const device = push.subscribe({ applicationServerKey: publicKey });
      await context.addInitScript({ content: pushServiceScript(device) });
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
      await (
        await showOnDevice(page, arrived!.payload)
      ).toEqual([{ title: reminder.title, body: reminder.body, path: `/apps/${appId}/pwa` }]);

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
