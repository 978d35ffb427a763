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

/**
 * How many notifications the service worker has finished showing: a spy on its own
 * `registration.showNotification`, put in once per worker, that calls the real one and counts
 * the calls that settled (shown or refused).
 */
function countShows(): number {
  const scope = self as unknown as {
    registration: ServiceWorkerRegistration;
    pipitShows?: { settled: number };
  };
  if (!scope.pipitShows) {
    const shows = { settled: 0 };
    const real = scope.registration.showNotification.bind(scope.registration);
    scope.registration.showNotification = (title, options) =>
      real(title, options).finally(() => {
        shows.settled += 1;
      });
    scope.pipitShows = shows;
  }
  return scope.pipitShows.settled;
}

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
    const worker = browser.context.serviceWorkers().at(-1);
    if (!worker) throw new Error('no service worker to hand the push to');
    const before = await worker.evaluate(countShows);
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: pipit.url,
      registrationId: id,
      data,
    });
    // Chromium drops a notification that getNotifications() reads while it is still being
    // displayed (its list is reconciled with what the platform shows), so the test reads only
    // once the worker's showNotification has settled, as nothing in Pipit reads them at all.
    await expect.poll(() => worker.evaluate(countShows)).toBeGreaterThan(before);
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
