import { createId } from '@pipit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicPushEndpoint } from '../../src/push/endpoints';
import type { Storage } from '../../src/storage/types';
import { type ApiClient, errorCode } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { createPublishedApp } from '../support/published-apps';
import {
  type PushServiceStandIn,
  startPushServiceStandIn,
  type StandInSubscription,
} from '../support/push-service';

/*
 * Subscribing over REST, as an app's page does after `pushManager.subscribe()`, on the real
 * server with each engine: who may subscribe for which app, what is refused (changing nothing),
 * listing and deleting, and a push sent to the stored row arriving at the stand-in's device.
 */

describe.each(ENGINES)('push subscriptions over REST on %s', (engine) => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  /** The creator of the apps. */
  let cleo: ApiClient;
  /** A visitor. */
  let ada: ApiClient;
  let publicApp: string;
  let privateApp: string;
  let publicKey: string;
  const storage = (): Storage => h.pipit.server.storage;
  const idOf = async (client: ApiClient) =>
    (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

  const body = (appId: string, device: StandInSubscription, deviceId = createId()) => ({
    appId,
    deviceId,
    subscription: device,
  });
  const subscribe = (client: ApiClient, payload: unknown) =>
    client.post<{ id: string; error?: { fields?: Record<string, string> } }>(
      '/api/push/subscriptions',
      payload,
    );

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer(engine, {
      pushAgent: push.agent,
      // The stand-in is on 127.0.0.1, which production refuses (push/endpoints.ts).
      pushEndpoints: (url) => url.origin === push.origin,
    });
    cleo = await h.signup(`cleo_push_${engine}`);
    ada = await h.signup(`ada_push_${engine}`);
    publicApp = await createPublishedApp(storage(), cleo, { visibility: 'public' });
    privateApp = await createPublishedApp(storage(), cleo, { publish: false });
    publicKey = (await h.client().get<{ publicKey: string }>('/api/push/key')).body.publicKey;
  });
  afterAll(async () => {
    await h.close();
    await push.close();
  });

  it('gives anyone the application server key, the same each time', async () => {
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const again = await ada.get<{ publicKey: string }>('/api/push/key');
    expect(again.body.publicKey).toBe(publicKey);
    expect((await h.pipit.server.push.vapid.get()).publicKey).toBe(publicKey);
  });

  it('stores a visitor’s subscription once, and a push to it reaches the device', async () => {
    const device = push.subscribe({ applicationServerKey: publicKey });
    const request = body(publicApp, device);
    const first = await subscribe(ada, request);
    expect(first.status).toBe(201);
    const again = await subscribe(ada, request);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);

    const row = await storage().pushSubscriptions.get(first.body.id);
    expect(row).toMatchObject({
      userId: await idOf(ada),
      appId: publicApp,
      deviceId: request.deviceId,
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      auth: device.keys.auth,
      vapidPublicKey: publicKey,
    });
    const outcome = await h.pipit.server.push.sender.sendPush(
      row!,
      { title: 'Water the plants', tag: 'plants' },
      { ttl: 60 },
    );
    expect(outcome).toEqual({ kind: 'sent' });
    expect(push.deliveredTo(device).map((d) => JSON.parse(d.payload) as unknown)).toEqual([
      { title: 'Water the plants', tag: 'plants' },
    ]);
  });

  it('replaces a device’s subscription when it subscribes again with a new endpoint', async () => {
    const deviceId = createId();
    const old = push.subscribe({ applicationServerKey: publicKey });
    const renewed = push.subscribe({ applicationServerKey: publicKey });
    const first = await subscribe(ada, body(publicApp, old, deviceId));
    const second = await subscribe(ada, body(publicApp, renewed, deviceId));
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(await storage().pushSubscriptions.getByEndpoint(old.endpoint)).toBeNull();
    expect((await storage().pushSubscriptions.get(first.body.id))?.endpoint).toBe(renewed.endpoint);
  });

  it('lets the creator subscribe for their private app, and nobody else', async () => {
    const device = push.subscribe();
    const refused = await subscribe(ada, body(privateApp, device));
    expect(refused.status).toBe(404);
    expect(errorCode(refused)).toBe('not_found');
    const unknown = await subscribe(ada, body(createId(), device));
    expect(unknown.status).toBe(404);
    expect(await storage().pushSubscriptions.getByEndpoint(device.endpoint)).toBeNull();
    expect((await subscribe(cleo, body(privateApp, device))).status).toBe(201);
  });

  it('refuses someone signed out, and a request from another site', async () => {
    const device = push.subscribe();
    const signedOut = await subscribe(h.client(), body(publicApp, device));
    expect(signedOut.status).toBe(401);
    expect(errorCode(signedOut)).toBe('unauthenticated');
    const crossSite = await ada.request('POST', '/api/push/subscriptions', {
      body: body(publicApp, device),
      headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(errorCode(crossSite)).toBe('forbidden');
    expect((await h.client().get('/api/push/subscriptions')).status).toBe(401);
    expect(await storage().pushSubscriptions.getByEndpoint(device.endpoint)).toBeNull();
  });

  it.each([
    ['an http endpoint', { endpoint: 'http://push.example.org/push/abc' }, 'subscription.endpoint'],
    ['an endpoint that is not a URL', { endpoint: 'push service' }, 'subscription.endpoint'],
    [
      'an endpoint with credentials',
      { endpoint: 'https://user:pass@push.example.org/push/abc' },
      'subscription.endpoint',
    ],
    [
      'an endpoint too long',
      { endpoint: `https://push.example.org/${'a'.repeat(1024)}` },
      'subscription.endpoint',
    ],
    [
      'a p256dh of 64 bytes',
      { p256dh: Buffer.alloc(64, 4).toString('base64url') },
      'subscription.keys.p256dh',
    ],
    [
      'a p256dh of 65 bytes that is not an uncompressed point',
      { p256dh: Buffer.alloc(65, 3).toString('base64url') },
      'subscription.keys.p256dh',
    ],
    [
      'a p256dh that is not on the curve',
      { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url') },
      'subscription.keys.p256dh',
    ],
    [
      'a p256dh that is not base64url',
      { p256dh: `B${'+'.repeat(86)}` },
      'subscription.keys.p256dh',
    ],
    [
      'an auth of 15 bytes',
      { auth: Buffer.alloc(15, 1).toString('base64url') },
      'subscription.keys.auth',
    ],
    [
      'an auth of 17 bytes',
      { auth: Buffer.alloc(17, 1).toString('base64url') },
      'subscription.keys.auth',
    ],
  ])('refuses %s, storing nothing', async (_name, change, field) => {
    const device = push.subscribe();
    const { endpoint = device.endpoint, ...keys } = change as Record<string, string>;
    const payload = body(publicApp, {
      ...device,
      endpoint,
      keys: { ...device.keys, ...keys },
    });
    const refused = await subscribe(ada, payload);
    expect(refused.status).toBe(400);
    expect(errorCode(refused)).toBe('validation_failed');
    expect(Object.keys(refused.body.error?.fields ?? {})).toEqual([field]);
    expect(await storage().pushSubscriptions.getByEndpoint(endpoint)).toBeNull();
    expect(await storage().pushSubscriptions.getByEndpoint(device.endpoint)).toBeNull();
  });

  it('refuses an endpoint its policy does not accept, storing nothing', async () => {
    const device = push.subscribe();
    const elsewhere = {
      ...device,
      endpoint: device.endpoint.replace(push.origin, 'https://127.0.0.2:1'),
    };
    const refused = await subscribe(ada, body(publicApp, elsewhere));
    expect(refused.status).toBe(400);
    expect(refused.body.error?.fields).toEqual({
      'subscription.endpoint': 'That is not the address of a public push service.',
    });
    expect(await storage().pushSubscriptions.getByEndpoint(elsewhere.endpoint)).toBeNull();
  });

  it('refuses a bad app id or device id', async () => {
    const device = push.subscribe();
    const badApp = await subscribe(ada, { ...body(publicApp, device), appId: 'nope' });
    expect(badApp.body.error?.fields).toHaveProperty('appId');
    const badDevice = await subscribe(ada, { ...body(publicApp, device), deviceId: 'a b' });
    expect(badDevice.body.error?.fields).toHaveProperty('deviceId');
    expect(await storage().pushSubscriptions.getByEndpoint(device.endpoint)).toBeNull();
  });

  it('lists a person’s own subscriptions without their endpoints or keys', async () => {
    const ben = await h.signup(`ben_push_${engine}`);
    const phone = push.subscribe({ applicationServerKey: publicKey });
    const laptop = push.subscribe({ applicationServerKey: publicKey });
    const phoneId = createId();
    await subscribe(ben, body(publicApp, phone, phoneId));
    await subscribe(ben, body(publicApp, laptop));
    const listed = await ben.get<{ subscriptions: Array<Record<string, unknown>> }>(
      '/api/push/subscriptions',
    );
    expect(listed.status).toBe(200);
    expect(listed.body.subscriptions).toHaveLength(2);
    expect(listed.body.subscriptions[0]).toEqual({
      id: expect.any(String) as string,
      appId: publicApp,
      deviceId: phoneId,
      createdAt: expect.any(Number) as number,
      lastSuccessAt: null,
      disabledAt: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(phone.keys.auth);
    expect(JSON.stringify(listed.body)).not.toContain(phone.endpoint);
  });

  it('deletes only the person’s own subscription by its endpoint', async () => {
    const device = push.subscribe();
    await subscribe(ada, body(publicApp, device));
    const byCleo = await cleo.request('DELETE', '/api/push/subscriptions', {
      body: { endpoint: device.endpoint },
    });
    expect(byCleo.status).toBe(404);
    expect(await storage().pushSubscriptions.getByEndpoint(device.endpoint)).not.toBeNull();
    const byAda = await ada.request('DELETE', '/api/push/subscriptions', {
      body: { endpoint: device.endpoint },
    });
    expect(byAda.status).toBe(204);
    expect(await storage().pushSubscriptions.getByEndpoint(device.endpoint)).toBeNull();
    const bad = await ada.request('DELETE', '/api/push/subscriptions', { body: {} });
    expect(errorCode(bad)).toBe('validation_failed');
  });

  it('deletes a person’s subscriptions with their account, and an app’s with the app', async () => {
    const dora = await h.signup(`dora_push_${engine}`);
    const device = push.subscribe();
    await subscribe(dora, body(publicApp, device));
    const doraId = await idOf(dora);
    const deleted = await dora.request('DELETE', '/api/account', {
      body: { password: TEST_PASSWORD },
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await storage().pushSubscriptions.listForUser(doraId)).toEqual([]);

    const doomed = await createPublishedApp(storage(), cleo, { visibility: 'public' });
    const visitor = push.subscribe();
    const { body: stored } = await subscribe(ada, body(doomed, visitor));
    expect(
      (await cleo.request('PUT', `/api/apps/${doomed}/archived`, { body: { archived: true } }))
        .status,
    ).toBe(200);
    expect((await cleo.request('DELETE', `/api/apps/${doomed}`)).status).toBe(200);
    expect(await storage().pushSubscriptions.get(stored.id)).toBeNull();
  });
});

describe('push endpoints accepted by default', () => {
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc', true],
    ['https://updates.push.services.mozilla.com/wpush/v2/abc', true],
    ['https://web.push.apple.com/QGx', true],
    ['https://wns2-par02p.notify.windows.com/w/?token=abc', true],
    ['https://127.0.0.1:8443/push/abc', false],
    ['https://[::1]/push/abc', false],
    ['https://10.0.0.5/push', false],
    ['https://localhost/push', false],
    ['https://metadata/computeMetadata', false],
    ['https://printer.local/push', false],
    ['https://db.internal/push', false],
  ])('%s: %s', (endpoint, accepted) => {
    expect(isPublicPushEndpoint(new URL(endpoint))).toBe(accepted);
  });
});

describe('push subscriptions: the rate limit', () => {
  it('refuses subscribing more often than the limit, storing nothing', async () => {
    const push = await startPushServiceStandIn();
    const h = await startAccountsServer('sqlite', {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
      rateLimits: { pushSubscriptionsPerAccount: { limit: 2, windowMs: 60 * 60 * 1000 } },
    });
    try {
      const cleo = await h.signup('cleo_push_limit');
      const appId = await createPublishedApp(h.pipit.server.storage, cleo, {
        visibility: 'public',
      });
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        const device = push.subscribe();
        const answer = await cleo.post('/api/push/subscriptions', {
          appId,
          deviceId: createId(),
          subscription: device,
        });
        statuses.push(answer.status);
        if (answer.status === 429) {
          expect(errorCode(answer)).toBe('rate_limited');
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(
            await h.pipit.server.storage.pushSubscriptions.getByEndpoint(device.endpoint),
          ).toBeNull();
        }
      }
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await h.close();
      await push.close();
    }
  });
});
