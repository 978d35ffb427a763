import { createId } from '@pipit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/storage/types';
import { type ApiClient, errorCode } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { testClock } from '../support/clock';
import { createPublishedApp } from '../support/published-apps';
import { sleep } from '../support/timing';
import {
  type PushServiceStandIn,
  startPushServiceStandIn,
  type StandInSubscription,
} from '../support/push-service';

/*
 * An app's reminders from a visitor's side, on the real server with each engine: the reminders a
 * published app defines, a person turning one on in their own zone, its next occurrence queued on
 * the job scheduler, and a due occurrence reaching the person's device through the push-service
 * stand-in — once, whatever runs it again; late, it is recorded as missed and not sent.
 */

const DAY = 24 * 60 * 60 * 1000;
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];

/** Publishes a new version of `appId` whose definition has these reminders. */
async function publishReminders(storage: Storage, appId: string, reminders: unknown[]) {
  const app = await storage.apps.get(appId);
  const version = await storage.publishing.version(appId, app!.publishedVersion!);
  const definition = JSON.parse(version!.definitionJson) as Record<string, unknown>;
  await storage.publishing.publish({
    appId,
    definitionJson: JSON.stringify({ ...definition, reminders }),
    listing: {
      title: version!.title,
      description: version!.description,
      icon: version!.icon,
      tags: version!.tags,
    },
    publisherId: app!.ownerId,
    publishedAt: Date.now(),
    visibility: 'public',
  });
}

const idOf = async (client: ApiClient) =>
  (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

/** `HH:MM` in UTC, `minutes` from now. */
function utcTimeIn(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  return `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
}

describe.each(ENGINES)('reminders on %s', (engine) => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  let cleo: ApiClient;
  let ada: ApiClient;
  let adaId: string;
  let appId: string;
  let device: StandInSubscription;
  const reminderId = createId();
  const storage = (): Storage => h.pipit.server.storage;

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer(engine, {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
    });
    cleo = await h.signup(`cleo_rem_${engine}`);
    ada = await h.signup(`ada_rem_${engine}`);
    adaId = await idOf(ada);
    appId = await createPublishedApp(storage(), cleo, { visibility: 'public' });
    await publishReminders(storage(), appId, [
      {
        id: reminderId,
        title: 'Log your habits',
        body: 'Did you log today’s habits?',
        schedule: { kind: 'weekly', days: EVERY_DAY, time: '20:00' },
      },
    ]);
    const publicKey = (await ada.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
    device = push.subscribe({ applicationServerKey: publicKey });
    const subscribed = await ada.post('/api/push/subscriptions', {
      appId,
      deviceId: createId(),
      subscription: device,
    });
    expect(subscribed.status).toBe(201);
  });
  afterAll(async () => {
    await h.close();
    await push.close();
  });

  const put = (body: unknown, id = reminderId) =>
    ada.request('PUT', `/api/apps/${appId}/reminders/${id}`, { body });

  it('lists the reminders the published app defines, none turned on yet', async () => {
    const listed = await ada.get<{ reminders: { id: string; preferences: unknown }[] }>(
      `/api/apps/${appId}/reminders`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.reminders).toEqual([
      expect.objectContaining({ id: reminderId, title: 'Log your habits', preferences: null }),
    ]);
  });

  it('refuses bad choices, unknown reminders and people who may not see the app, changing nothing', async () => {
    const bad = await put({ enabled: true, timeZone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('validation_failed');
    const badTime = await put({ enabled: true, timeZone: 'UTC', time: '25:00' });
    expect(badTime.status).toBe(400);
    const unknown = await put({ enabled: true, timeZone: 'UTC' }, createId());
    expect(unknown.status).toBe(404);
    const signedOut = await h
      .client()
      .request('PUT', `/api/apps/${appId}/reminders/${reminderId}`, {
        body: { enabled: true, timeZone: 'UTC' },
      });
    expect(signedOut.status).toBe(401);
    const privateApp = await createPublishedApp(storage(), cleo, { publish: false });
    const hidden = await ada.request('PUT', `/api/apps/${privateApp}/reminders/${reminderId}`, {
      body: { enabled: true, timeZone: 'UTC' },
    });
    expect(hidden.status).toBe(404);
    expect(await storage().reminderPreferences.listForUser(adaId)).toEqual([]);
  });

  it('queues the next occurrence at the person’s own time, and sends it once when due', async () => {
    const time = utcTimeIn(3);
    const saved = await put({ enabled: true, timeZone: 'UTC', time });
    expect(saved.status).toBe(200);
    const next = (saved.body as { next: number }).next;
    expect(new Date(next).toISOString().slice(11, 16)).toBe(time);
    expect(next).toBeGreaterThan(Date.now());
    expect(next - Date.now()).toBeLessThanOrEqual(4 * 60_000);

    // The job the scheduler would run at `next`, run now (the queue's own timing is the
    // scheduler's contract suite's).
    const job = (id: string) => ({
      id,
      kind: 'reminder' as const,
      key: `k-${id}`,
      attempt: 1,
      payload: { userId: adaId, appId, reminderId, occurrence: next },
    });
    await h.pipit.server.reminders.deliver(job('job-1'));
    const delivered = push.deliveredTo(device).map((d) => JSON.parse(d.payload) as unknown);
    expect(delivered).toEqual([
      {
        title: 'Log your habits',
        body: 'Did you log today’s habits?',
        path: `/apps/${appId}/pwa`,
        tag: expect.stringMatching(/^r-[A-Za-z0-9_-]{22}$/),
        appId,
      },
    ]);
    // Run again by another job (a second instance, a sweep): nothing more reaches the device.
    await h.pipit.server.reminders.deliver(job('job-2'));
    expect(push.deliveredTo(device)).toHaveLength(1);
    expect(
      await storage().reminderDeliveries.occurrenceStatus({
        userId: adaId,
        appId,
        reminderId,
        occurrence: next,
      }),
    ).toBe('sent');

    // A day late: recorded as missed, not sent.
    const yesterday = {
      ...job('job-3'),
      payload: { ...job('job-3').payload, occurrence: next - DAY },
    };
    await h.pipit.server.reminders.deliver(yesterday);
    expect(push.deliveredTo(device)).toHaveLength(1);
    expect(
      await storage().reminderDeliveries.occurrenceStatus({
        userId: adaId,
        appId,
        reminderId,
        occurrence: next - DAY,
      }),
    ).toBe('missed');
  });

  it('lists the apps that may notify the person, and stops one’s notifications at once', async () => {
    const listed = await ada.get<{ apps: unknown[] }>('/api/account/notifications');
    expect(listed.body.apps).toEqual([
      {
        appId,
        title: 'Habit tracker',
        reminders: [{ id: reminderId, title: 'Log your habits', enabled: true }],
        devices: 1,
      },
    ]);
    // Someone else's list does not have it.
    expect((await cleo.get<{ apps: unknown[] }>('/api/account/notifications')).body.apps).toEqual(
      [],
    );

    const stopped = await ada.request('DELETE', `/api/account/notifications/${appId}`);
    expect(stopped.status).toBe(204);
    expect((await ada.get<{ apps: unknown[] }>('/api/account/notifications')).body.apps).toEqual(
      [],
    );
    expect(await storage().pushSubscriptions.listForUser(adaId, appId)).toEqual([]);
    expect(
      (await storage().reminderPreferences.get(adaId, appId, reminderId))?.preferences,
    ).toMatchObject({ enabled: false });
  });

  it('forgets a person’s reminders with their account', async () => {
    const dora = await h.signup(`dora_rem_${engine}`);
    const doraId = await idOf(dora);
    const saved = await dora.request('PUT', `/api/apps/${appId}/reminders/${reminderId}`, {
      body: { enabled: true, timeZone: 'Asia/Kolkata' },
    });
    expect(saved.status).toBe(200);
    const deleted = await dora.request('DELETE', '/api/account', {
      body: { password: TEST_PASSWORD },
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await storage().reminderPreferences.listForUser(doraId)).toEqual([]);
    // The occurrence already queued finds nothing to send and queues nothing after it.
    expect(await h.pipit.server.reminders.scheduleNext(doraId, appId, reminderId)).toBeNull();
  });

  it('sends nothing for an occurrence the person moved or turned off since it was queued', async () => {
    const moved = await put({ enabled: true, timeZone: 'UTC', time: utcTimeIn(10) });
    const occurrence = (moved.body as { next: number }).next;
    const stale = {
      id: 'job-stale',
      kind: 'reminder' as const,
      key: 'k-stale',
      attempt: 1,
      payload: { userId: adaId, appId, reminderId, occurrence: occurrence - 5 * 60_000 },
    };
    const before = push.deliveredTo(device).length;
    await h.pipit.server.reminders.deliver(stale);
    expect(await put({ enabled: false, timeZone: 'UTC' })).toMatchObject({ status: 200 });
    await h.pipit.server.reminders.deliver({ ...stale, payload: { ...stale.payload, occurrence } });
    expect(push.deliveredTo(device)).toHaveLength(before);
    expect((await put({ enabled: false, timeZone: 'UTC' })).body).toMatchObject({ next: null });

    const removed = await ada.request('DELETE', `/api/apps/${appId}/reminders/${reminderId}`);
    expect(removed.status).toBe(204);
    expect(await storage().reminderPreferences.listForUser(adaId)).toEqual([]);
  });
});

describe('reminders on the in-process queue', () => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  const clock = testClock();

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer('sqlite', {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
      clock,
      schedulerPollMs: 50,
    });
  });
  afterAll(async () => {
    await h.close();
    await push.close();
  });

  it('runs a turned-on reminder when its time comes, and queues the next day’s', async () => {
    const cleo = await h.signup('cleo_queue');
    const ada = await h.signup('ada_queue');
    const storage = h.pipit.server.storage;
    const appId = await createPublishedApp(storage, cleo, { visibility: 'public' });
    const reminderId = createId();
    await publishReminders(storage, appId, [
      {
        id: reminderId,
        title: 'Water the plants',
        body: '',
        schedule: { kind: 'weekly', days: EVERY_DAY, time: '08:00' },
      },
    ]);
    const publicKey = (await ada.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
    const device = push.subscribe({ applicationServerKey: publicKey });
    await ada.post('/api/push/subscriptions', {
      appId,
      deviceId: createId(),
      subscription: device,
    });
    // The person's own time, in UTC so the test can name it: a couple of minutes from now.
    const preferences = { enabled: true, timeZone: 'UTC', time: utcTimeIn(2) };
    const saved = await ada.request('PUT', `/api/apps/${appId}/reminders/${reminderId}`, {
      body: preferences,
    });
    const next = (saved.body as { next: number }).next;
    const adaId = await idOf(ada);
    const key = (occurrence: number) => `reminder:${adaId}:${appId}:${reminderId}:${occurrence}`;
    expect(await storage.jobs.get(key(next))).toMatchObject({ runAt: next, doneAt: null });
    await sleep(200);
    expect(push.deliveredTo(device)).toEqual([]);

    await clock.later(next - Date.now() + 1_000, async () => {
      await expect.poll(() => push.deliveredTo(device).length, { timeout: 10_000 }).toBe(1);
      // The job that sent it queued the next day's.
      await expect
        .poll(async () => (await storage.jobs.get(key(next + DAY)))?.runAt)
        .toBe(next + DAY);
    });
    expect(JSON.parse(push.deliveredTo(device)[0]!.payload)).toMatchObject({
      title: 'Water the plants',
      path: `/apps/${appId}/pwa`,
    });
  });
});
