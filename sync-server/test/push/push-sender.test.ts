import { Writable } from 'node:stream';
import { createId } from '@pipit/protocol';
import webpush, { type VapidKeys as WebPushKeys } from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRateLimiter, DEFAULT_RATE_LIMITS } from '../../src/accounts/rate-limits';
import { createLogger } from '../../src/logger';
import { PUSH_RETRY_BASE_MS } from '../../src/push/backoff';
import { PUSH_PAYLOAD_MAX_BYTES, topicForTag } from '../../src/push/payload';
import {
  createPushSender,
  PUSH_KEY_REFUSALS_BEFORE_STOP,
  type PushSender,
} from '../../src/push/sender';
import type { VapidDetails, VapidKeys } from '../../src/push/vapid';
import {
  PUSH_FAILURES_BEFORE_DISABLE,
  type PushSubscriptionRecord,
  type Storage,
} from '../../src/storage/types';
import {
  insertUser,
  type PushServiceStandIn,
  startPushServiceStandIn,
  type StandInSubscription,
} from '../support';
import { ENGINES, openEngine } from '../support/engines';

/*
 * The sender against the push-service stand-in with the real `web-push`: what the stand-in
 * decrypts is what a device would show, and each answer of the push service changes the
 * subscription's row as docs/decisions/0012-web-push-and-scheduler.md says.
 */

const SUBJECT = 'mailto:operator@pipit.test';

interface LogLine {
  level: string;
  msg: string;
  [key: string]: unknown;
}

describe.each(ENGINES)('push sender on %s', (engine) => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let push: PushServiceStandIn;
  let pair: WebPushKeys;
  let logs: LogLine[];

  const keysOf = (details: VapidDetails): VapidKeys => ({ get: () => Promise.resolve(details) });
  const vapid = () => keysOf({ subject: SUBJECT, ...pair });

  function sender(
    options: { keys?: VapidKeys; limits?: Partial<typeof DEFAULT_RATE_LIMITS> } = {},
  ): PushSender {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line.trim()) logs.push(JSON.parse(line) as LogLine);
        }
        done();
      },
    });
    const clock = { now: () => Date.now() };
    const roomy = { limit: 10_000, windowMs: 60_000 };
    return createPushSender({
      storage,
      vapid: options.keys ?? vapid(),
      rateLimiter: createRateLimiter(
        storage,
        {
          ...DEFAULT_RATE_LIMITS,
          pushesPerPerson: roomy,
          pushesPerPersonApp: roomy,
          ...options.limits,
        },
        clock,
      ),
      clock,
      logger: createLogger('info', sink),
      agent: push.agent,
      random: () => 0.5,
    });
  }

  /** A person, an app, and a device subscribed through the stand-in, stored as the route would. */
  async function subscribed(
    made: StandInSubscription = push.subscribe({ applicationServerKey: pair.publicKey }),
    userId?: string,
  ): Promise<{ row: PushSubscriptionRecord; device: StandInSubscription }> {
    const owner = userId ?? (await insertUser(storage)).id;
    const appId = createId();
    await storage.apps.insert({
      id: appId,
      ownerId: owner,
      title: 'Plants',
      description: '',
      icon: null,
      createdAt: 1,
    });
    const { subscription } = await storage.pushSubscriptions.upsert({
      id: createId(),
      userId: owner,
      appId,
      deviceId: createId(),
      endpoint: made.endpoint,
      p256dh: made.keys.p256dh,
      auth: made.keys.auth,
      vapidPublicKey: pair.publicKey,
      createdAt: Date.now(),
    });
    return { row: subscription, device: made };
  }

  const reminder = {
    title: 'Water the plants',
    body: 'It is 08:00 ☀️',
    path: '/apps/x',
    tag: 'r1',
  };

  beforeAll(async () => {
    ({ storage, cleanup } = await openEngine(engine));
    push = await startPushServiceStandIn();
    pair = webpush.generateVAPIDKeys();
  });
  afterAll(async () => {
    await push.close();
    await storage.close();
    await cleanup();
  });
  beforeEach(() => {
    logs = [];
  });

  it('sends a payload the device decrypts, with TTL, urgency and a topic from its tag', async () => {
    const { row, device } = await subscribed();
    const outcome = await sender().sendPush(row, reminder, { ttl: 3_600, urgency: 'high' });
    expect(outcome).toEqual({ kind: 'sent' });
    const [delivered, ...more] = push.deliveredTo(device);
    expect(more).toEqual([]);
    expect(JSON.parse(delivered!.payload)).toEqual(reminder);
    expect(delivered).toMatchObject({
      ttl: 3_600,
      urgency: 'high',
      topic: topicForTag('r1'),
      subject: SUBJECT,
    });
    expect(delivered!.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const stored = await storage.pushSubscriptions.get(row.id);
    expect(stored?.lastSuccessAt).not.toBeNull();
    expect(stored?.failures).toBe(0);
  });

  it('sends an explicit topic as given, and refuses one that is not a Topic before sending', async () => {
    const { row, device } = await subscribed();
    await sender().sendPush(row, { title: 'a' }, { ttl: 60, topic: 'reminder-42' });
    expect(push.deliveredTo(device).map((d) => [d.topic, d.urgency])).toEqual([
      ['reminder-42', 'normal'],
    ]);
    await expect(
      sender().sendPush(row, { title: 'b' }, { ttl: 60, topic: 'not a topic!' }),
    ).rejects.toThrow(/1 to 32 characters/);
    expect(push.deliveredTo(device)).toHaveLength(1);
  });

  it.each([
    [404, 'not_found'],
    [410, 'expired'],
  ] as const)('deletes the subscription when the push service answers %i', async (status, why) => {
    const { row } = await subscribed();
    push.failNext({ status });
    expect(await sender().sendPush(row, reminder, { ttl: 60 })).toEqual({ kind: 'gone', why });
    expect(await storage.pushSubscriptions.get(row.id)).toBeNull();
  });

  it('deletes a subscription the person revoked (the service’s own 410)', async () => {
    const { row, device } = await subscribed();
    push.expire(device);
    expect(await sender().sendPush(row, reminder, { ttl: 60 })).toEqual({
      kind: 'gone',
      why: 'expired',
    });
    expect(await storage.pushSubscriptions.getByEndpoint(device.endpoint)).toBeNull();
  });

  it('retries after the Retry-After of a 429, counting a failure', async () => {
    const { row } = await subscribed();
    push.failNext({ status: 429, retryAfter: 42 });
    expect(await sender().sendPush(row, reminder, { ttl: 60 })).toMatchObject({
      kind: 'retry_later',
      delayMs: 42_000,
      failures: 1,
      disabled: false,
    });
    expect((await storage.pushSubscriptions.get(row.id))?.failures).toBe(1);
  });

  it('backs off after a 500, twice as long after a 503, then a 201 resets the failures', async () => {
    const { row, device } = await subscribed();
    const send = sender();
    push.failNext({ status: 500 });
    // random() is 0.5: three quarters of the ceiling.
    expect(await send.sendPush(row, reminder, { ttl: 60 })).toMatchObject({
      kind: 'retry_later',
      delayMs: PUSH_RETRY_BASE_MS * 0.75,
      failures: 1,
    });
    push.failNext({ status: 503 });
    expect(await send.sendPush(row, reminder, { ttl: 60 })).toMatchObject({
      kind: 'retry_later',
      delayMs: PUSH_RETRY_BASE_MS * 2 * 0.75,
      failures: 2,
    });
    expect(await send.sendPush(row, reminder, { ttl: 60 })).toEqual({ kind: 'sent' });
    expect((await storage.pushSubscriptions.get(row.id))?.failures).toBe(0);
    expect(push.deliveredTo(device)).toHaveLength(1);
  });

  it('retries later when the push service does not answer at all', async () => {
    const { row } = await subscribed();
    const unreachable = { ...row, endpoint: 'https://127.0.0.1:1/push/nowhere' };
    expect(await sender().sendPush(unreachable, reminder, { ttl: 60 })).toMatchObject({
      kind: 'retry_later',
      failures: 1,
      reason: expect.stringContaining('no answer') as string,
    });
  });

  it('disables a subscription after too many failures in a row, and sends to it no more', async () => {
    const { row, device } = await subscribed();
    const send = sender();
    push.failNext({ status: 502 }, PUSH_FAILURES_BEFORE_DISABLE);
    let last;
    for (let i = 0; i < PUSH_FAILURES_BEFORE_DISABLE; i += 1) {
      last = await send.sendPush(row, reminder, { ttl: 60 });
    }
    expect(last).toMatchObject({ kind: 'retry_later', disabled: true });
    const disabled = await storage.pushSubscriptions.get(row.id);
    expect(disabled?.disabledAt).not.toBeNull();
    expect(await send.sendPush(disabled!, reminder, { ttl: 60 })).toEqual({ kind: 'disabled' });
    expect(push.deliveredTo(device)).toEqual([]);
    expect(logs.some((l) => l.msg.includes('disabled'))).toBe(true);
  });

  /** A subscription a browser made for another application server key: the stand-in says 403. */
  const foreign = (other: WebPushKeys) =>
    subscribed(push.subscribe({ applicationServerKey: other.publicKey }));

  it('stops sending to a push service that refuses our keys (403) for several subscriptions in a row, loudly', async () => {
    const other = webpush.generateVAPIDKeys();
    const refusing = [];
    for (let i = 0; i < PUSH_KEY_REFUSALS_BEFORE_STOP; i += 1) refusing.push(await foreign(other));
    const fine = await subscribed();
    const send = sender();
    const outcomes = [];
    for (const { row } of refusing) outcomes.push(await send.sendPush(row, reminder, { ttl: 60 }));
    expect(outcomes).toEqual([
      { kind: 'keys_refused', status: 403, stopped: false },
      { kind: 'keys_refused', status: 403, stopped: false },
      { kind: 'keys_refused', status: 403, stopped: true },
    ]);
    expect([...send.stoppedServices]).toEqual([push.origin]);
    expect(logs.find((l) => l.level === 'error')?.msg).toMatch(/refused our VAPID keys/);
    const requests = push.refused.length + push.delivered.length;
    expect(await send.sendPush(fine.row, reminder, { ttl: 60 })).toEqual({ kind: 'stopped' });
    expect(push.refused.length + push.delivered.length).toBe(requests);
    expect(push.deliveredTo(fine.device)).toEqual([]);
    // Each refused subscription counts one failure; the one that was fine is untouched.
    expect((await storage.pushSubscriptions.get(refusing[0]!.row.id))?.failures).toBe(1);
    expect((await storage.pushSubscriptions.get(fine.row.id))?.failures).toBe(0);
    // Another push service is still sent to (here one that does not answer).
    const elsewhere = { ...fine.row, endpoint: 'https://127.0.0.1:1/push/elsewhere' };
    expect(await send.sendPush(elsewhere, reminder, { ttl: 60 })).toMatchObject({
      kind: 'retry_later',
    });
  });

  it('does not stop for refusals that an accepted message interrupts, nor for one subscription again and again', async () => {
    const other = webpush.generateVAPIDKeys();
    const a = await foreign(other);
    const b = await foreign(other);
    const c = await foreign(other);
    const fine = await subscribed();
    const send = sender();
    await send.sendPush(a.row, reminder, { ttl: 60 });
    await send.sendPush(a.row, reminder, { ttl: 60 });
    await send.sendPush(b.row, reminder, { ttl: 60 });
    expect(await send.sendPush(fine.row, reminder, { ttl: 60 })).toEqual({ kind: 'sent' });
    expect(await send.sendPush(c.row, reminder, { ttl: 60 })).toEqual({
      kind: 'keys_refused',
      status: 403,
      stopped: false,
    });
    expect(send.stoppedServices.size).toBe(0);
    expect(await send.sendPush(fine.row, reminder, { ttl: 60 })).toEqual({ kind: 'sent' });
  });

  it('stops sending when the push service answers 401 (a token that does not verify)', async () => {
    const rows = [await subscribed(), await subscribed(), await subscribed()];
    const mismatched = keysOf({
      subject: SUBJECT,
      publicKey: pair.publicKey,
      privateKey: webpush.generateVAPIDKeys().privateKey,
    });
    const send = sender({ keys: mismatched });
    const outcomes = [];
    for (const { row } of rows) outcomes.push(await send.sendPush(row, reminder, { ttl: 60 }));
    expect(outcomes.map((o) => o.kind === 'keys_refused' && [o.status, o.stopped])).toEqual([
      [401, false],
      [401, false],
      [401, true],
    ]);
    expect(push.refused.at(-1)?.reason).toBe('the signature does not match k');
    expect(await send.sendPush(rows[0]!.row, reminder, { ttl: 60 })).toEqual({ kind: 'stopped' });
  });

  it('logs a 413 and does not retry it', async () => {
    const { row } = await subscribed();
    push.failNext({ status: 413 });
    expect(await sender().sendPush(row, reminder, { ttl: 60 })).toEqual({
      kind: 'refused',
      status: 413,
    });
    expect(logs.some((l) => l.level === 'error' && /refused a message/.test(l.msg))).toBe(true);
    expect((await storage.pushSubscriptions.get(row.id))?.failures).toBe(0);
  });

  it('refuses a payload too large for one push before sending it', async () => {
    const { row, device } = await subscribed();
    const refusedBefore = push.refused.length;
    const envelope = JSON.stringify({ title: '' }).length;
    const fits = { title: 'x'.repeat(PUSH_PAYLOAD_MAX_BYTES - envelope) };
    expect(await sender().sendPush(row, fits, { ttl: 60 })).toEqual({ kind: 'sent' });
    const tooLarge = { title: 'x'.repeat(PUSH_PAYLOAD_MAX_BYTES - envelope + 1) };
    expect(await sender().sendPush(row, tooLarge, { ttl: 60 })).toEqual({
      kind: 'too_large',
      bytes: PUSH_PAYLOAD_MAX_BYTES + 1,
      limit: PUSH_PAYLOAD_MAX_BYTES,
    });
    // The largest payload arrived whole; the larger one never reached the push service.
    expect(push.deliveredTo(device).map((d) => d.payload.length)).toEqual([PUSH_PAYLOAD_MAX_BYTES]);
    expect(push.refused.length).toBe(refusedBefore);
  });

  it('limits the pushes one app sends one person, and all apps together', async () => {
    const person = await insertUser(storage);
    const first = await subscribed(undefined, person.id);
    const second = await subscribed(undefined, person.id);
    const hour = 60 * 60 * 1000;
    const send = sender({
      limits: {
        pushesPerPersonApp: { limit: 2, windowMs: hour },
        pushesPerPerson: { limit: 3, windowMs: hour },
      },
    });
    const kinds = [];
    for (let i = 0; i < 3; i += 1)
      kinds.push((await send.sendPush(first.row, reminder, { ttl: 60 })).kind);
    expect(kinds).toEqual(['sent', 'sent', 'rate_limited']);
    expect(await send.sendPush(second.row, reminder, { ttl: 60 })).toEqual({ kind: 'sent' });
    const refused = await send.sendPush(second.row, reminder, { ttl: 60 });
    expect(refused).toMatchObject({ kind: 'rate_limited', limit: 'pushesPerPerson' });
    expect(refused.kind === 'rate_limited' && refused.retryAfterMs).toBeGreaterThan(0);
    expect(push.deliveredTo(first.device)).toHaveLength(2);
    expect(push.deliveredTo(second.device)).toHaveLength(1);
  });

  it('sends with the stored row when the caller’s copy predates subscribing with the current key', async () => {
    const { row, device } = await subscribed();
    const older = { ...row, vapidPublicKey: webpush.generateVAPIDKeys().publicKey };
    expect(await sender().sendPush(older, reminder, { ttl: 60 })).toEqual({ kind: 'sent' });
    expect(push.deliveredTo(device)).toHaveLength(1);
  });

  it('deletes instead of sending to a subscription made with another application server key', async () => {
    const { row: made, device } = await subscribed();
    const oldKey = webpush.generateVAPIDKeys().publicKey;
    const { subscription: row } = await storage.pushSubscriptions.upsert({
      ...made,
      vapidPublicKey: oldKey,
    });
    const stale = { ...row, vapidPublicKey: oldKey };
    expect(await sender().sendPush(stale, reminder, { ttl: 60 })).toEqual({
      kind: 'gone',
      why: 'other_key',
    });
    expect(await storage.pushSubscriptions.get(row.id)).toBeNull();
    expect(push.deliveredTo(device)).toEqual([]);
  });
});
