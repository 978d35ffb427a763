import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { launchPersistent } from './support/browser';

/*
 * What a device shows when a push arrives. The message is delivered to Pipit's real service
 * worker through the DevTools protocol (`ServiceWorker.deliverPushMessage`: what the browser does
 * once the push service hands it a message), and the notifications read back are the ones the
 * service worker showed.
 */

const APP = 'abcdefghijklmnopqrstuvwxyz';

interface Shown {
  title: string;
  body: string;
  tag: string;
  icon: string;
  path: unknown;
}

let pipit: RunningPipit;
let browser: Awaited<ReturnType<typeof launchPersistent>>;
let page: Page;
let deliver: (data: string) => Promise<void>;

const shown = (): Promise<Shown[]> =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      icon: n.icon,
      path: (n.data as { path?: unknown } | null)?.path,
    }));
  });

beforeAll(async () => {
  pipit = await startPipit();
  browser = await launchPersistent();
  await browser.context.grantPermissions(['notifications'], { origin: pipit.url });
  page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  const scopeURL = `${pipit.url}/`;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === scopeURL && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  // Whether our worker is running now (Chromium stops an idle one, and under load may not start
  // it in time for a push it is handed: the push is then dropped, as a push service would retry).
  const versions = new Map<string, { registrationId: string; ready: boolean }>();
  cdp.on('ServiceWorker.workerVersionUpdated', (update) => {
    for (const version of update.versions) {
      versions.set(version.versionId, {
        registrationId: version.registrationId,
        ready: version.runningStatus === 'running' && version.status === 'activated',
      });
    }
  });
  const runs = (registration: string) =>
    [...versions.values()].some((v) => v.registrationId === registration && v.ready);
  await cdp.send('ServiceWorker.enable');
  await page.goto(`${pipit.url}/about`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  const id = await registrationId;
  deliver = async (data) => {
    // The worker running first: what the test is about is what it shows, not how soon Chromium
    // starts it.
    await cdp.send('ServiceWorker.startWorker', { scopeURL });
    await expect.poll(() => runs(id), { timeout: 15_000 }).toBe(true);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: pipit.url,
      registrationId: id,
      data,
    });
  };
});

afterAll(async () => {
  await browser?.close();
  await pipit?.close();
});

describe('a push on the device', () => {
  it('shows the message with its app icon, and a second copy replaces the first', async () => {
    const message = {
      title: 'Water the plants',
      body: 'It is 08:00 where you are.',
      path: `/apps/${APP}/pwa`,
      tag: 'reminder-1',
      appId: APP,
    };
    await deliver(JSON.stringify(message));
    await expect.poll(shown).toEqual([
      {
        title: message.title,
        body: message.body,
        tag: message.tag,
        icon: `${pipit.url}/apps/${APP}/icons/192.png`,
        path: message.path,
      },
    ]);

    await deliver(JSON.stringify({ ...message, body: 'Sent again.' }));
    await expect.poll(async () => (await shown()).map((n) => n.body)).toEqual(['Sent again.']);
  });

  it('shows a plain notification, never its text, for a message that is not ours', async () => {
    await deliver(
      JSON.stringify({ title: 'Click me', body: 'x', path: 'javascript:alert(1)', tag: 'x' }),
    );
    await deliver('not json at all');
    await expect
      .poll(async () => (await shown()).filter((n) => n.tag === 'pipit'))
      .toEqual([
        {
          title: 'Pipit',
          body: 'Something new is waiting for you.',
          tag: 'pipit',
          icon: `${pipit.url}/icons/pipit-192.png`,
          path: '/',
        },
      ]);
    expect((await shown()).some((n) => n.title === 'Click me')).toBe(false);
  });
});
