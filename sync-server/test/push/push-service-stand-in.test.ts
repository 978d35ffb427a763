import { createPrivateKey, sign } from 'node:crypto';
import { request } from 'node:https';
import webpush, { type RequestOptions, type VapidKeys } from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushServiceStandIn, startPushServiceStandIn } from '../support';

/*
 * The push-service stand-in against the real `web-push` sender: what the server will send through
 * in production arrives here encrypted and signed, and the stand-in decrypts and checks it the way
 * a browser's push service and the device would. If either side is wrong, these fail.
 */

const SUBJECT = 'mailto:operator@pipit.test';

let push: PushServiceStandIn;
let vapid: VapidKeys;

function options(extra: RequestOptions = {}): RequestOptions {
  return {
    vapidDetails: { subject: SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    agent: push.agent,
    timeout: 5_000,
    ...extra,
  };
}

async function rejection(promise: Promise<unknown>): Promise<webpush.WebPushError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof webpush.WebPushError) return error;
    throw error;
  }
  throw new Error('expected the push service to refuse');
}

/** A token signed with `keys` (web-push refuses to make a bad one, so this one is made by hand). */
function handSignedToken(keys: VapidKeys, claims: Record<string, unknown>): string {
  const publicKey = Buffer.from(keys.publicKey, 'base64url');
  const privateKey = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: publicKey.subarray(1, 33).toString('base64url'),
      y: publicKey.subarray(33).toString('base64url'),
      d: keys.privateKey,
    },
    format: 'jwk',
  });
  const head = Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'ES256' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = sign('sha256', Buffer.from(`${head}.${body}`), {
    key: privateKey,
    dsaEncoding: 'ieee-p1363',
  });
  return `${head}.${body}.${signature.toString('base64url')}`;
}

beforeAll(async () => {
  push = await startPushServiceStandIn();
  vapid = webpush.generateVAPIDKeys();
});

afterAll(async () => {
  await push.close();
});

describe('delivery', () => {
  it('decrypts what web-push encrypted, with its TTL, urgency and topic', async () => {
    const subscription = push.subscribe({ applicationServerKey: vapid.publicKey });
    const payload = JSON.stringify({ title: 'Water the plants', body: 'Every day at 08:00 ☀️' });
    const result = await webpush.sendNotification(
      subscription,
      payload,
      options({ TTL: 3_600, urgency: 'high', topic: 'reminder-42' }),
    );
    expect(result.statusCode).toBe(201);
    expect(result.headers.location).toMatch(new RegExp(`^${push.origin}/message/`));
    expect(push.deliveredTo(subscription)).toEqual([
      expect.objectContaining({
        payload,
        ttl: 3_600,
        urgency: 'high',
        topic: 'reminder-42',
        subject: SUBJECT,
      }),
    ]);
  });

  it('keeps each device apart: a payload is decrypted only with its own subscription keys', async () => {
    const phone = push.subscribe();
    const laptop = push.subscribe();
    await webpush.sendNotification(phone, 'to the phone', options());
    await webpush.sendNotification(laptop, 'to the laptop', options({ urgency: 'low' }));
    expect(push.deliveredTo(phone).map((d) => [d.payload, d.urgency])).toEqual([
      ['to the phone', 'normal'],
    ]);
    expect(push.deliveredTo(laptop).map((d) => [d.payload, d.urgency])).toEqual([
      ['to the laptop', 'low'],
    ]);

    // The laptop's body, validly signed, sent to the phone's endpoint does not decrypt there.
    const details = webpush.generateRequestDetails(laptop, 'misdirected', options());
    expect(await postRaw(phone.endpoint, details.headers, details.body!)).toBe(400);
    expect(push.refused.at(-1)?.reason).toBe(
      'a record does not decrypt with the subscription keys',
    );
    expect(push.deliveredTo(phone)).toHaveLength(1);
  });

  it('takes a push without a payload and a payload of the largest size a service accepts', async () => {
    const subscription = push.subscribe();
    await webpush.sendNotification(subscription, null, options({ TTL: 0 }));
    // 4096 bytes of body hold 3993 bytes of text: the header takes 86 (salt, record size, the
    // sender's key) and the one record 17 more (delimiter, tag). Reminders must fit in that.
    const largest = 'x'.repeat(4096 - 86 - 17);
    await webpush.sendNotification(subscription, largest, options());
    expect(push.deliveredTo(subscription).map((d) => [d.payload.length, d.ttl])).toEqual([
      [0, 0],
      [largest.length, 2_419_200],
    ]);
    const tooLarge = await rejection(
      webpush.sendNotification(subscription, `${largest}y`, options()),
    );
    expect(tooLarge.statusCode).toBe(413);
  });
});

describe('VAPID', () => {
  it('refuses a token signed by another key than the one the subscription was made for (403)', async () => {
    const subscription = push.subscribe({ applicationServerKey: vapid.publicKey });
    const other = webpush.generateVAPIDKeys();
    const error = await rejection(
      webpush.sendNotification(subscription, 'hello', {
        ...options(),
        vapidDetails: {
          subject: SUBJECT,
          publicKey: other.publicKey,
          privateKey: other.privateKey,
        },
      }),
    );
    expect(error.statusCode).toBe(403);
    expect(push.deliveredTo(subscription)).toEqual([]);
  });

  it('refuses a signature that does not match the key in k (401)', async () => {
    const subscription = push.subscribe();
    const other = webpush.generateVAPIDKeys();
    const token = handSignedToken(other, {
      aud: push.origin,
      exp: Math.floor(Date.now() / 1000) + 600,
      sub: SUBJECT,
    });
    const error = await rejection(
      webpush.sendNotification(subscription, 'hello', {
        agent: push.agent,
        headers: { Authorization: `vapid t=${token}, k=${vapid.publicKey}` },
      }),
    );
    expect(error.statusCode).toBe(401);
    expect(push.refused.at(-1)?.reason).toBe('the signature does not match k');
  });

  it('refuses a k that is not a point on P-256 (401, not a failure of the service)', async () => {
    const subscription = push.subscribe();
    const token = handSignedToken(vapid, {
      aud: push.origin,
      exp: Math.floor(Date.now() / 1000) + 600,
      sub: SUBJECT,
    });
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
    const error = await rejection(
      webpush.sendNotification(subscription, 'hello', {
        agent: push.agent,
        headers: { Authorization: `vapid t=${token}, k=${offCurve}` },
      }),
    );
    expect(error.statusCode).toBe(401);
    expect(push.refused.at(-1)?.reason).toBe('k is not a P-256 public key');
  });

  it.each([
    ['an expired token', { exp: -60 }, 'the token has expired'],
    ['a token valid for more than 24 hours', { exp: 25 * 3600 }, 'exp is more than 24 hours away'],
    ['a token for another origin', { aud: 'https://push.example.org' }, 'aud is not'],
    ['a token without a contact', { sub: undefined }, 'sub is not'],
  ])('refuses %s (401)', async (_name, change, reason) => {
    const subscription = push.subscribe({ applicationServerKey: vapid.publicKey });
    const nowS = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = { aud: push.origin, exp: nowS + 600, sub: SUBJECT };
    for (const [name, value] of Object.entries(change)) {
      claims[name] = name === 'exp' ? nowS + (value as number) : value;
    }
    const token = handSignedToken(vapid, claims);
    const error = await rejection(
      webpush.sendNotification(subscription, 'hello', {
        agent: push.agent,
        headers: { Authorization: `vapid t=${token}, k=${vapid.publicKey}` },
      }),
    );
    expect(error.statusCode).toBe(401);
    expect(push.refused.at(-1)?.reason).toContain(reason);
    expect(push.deliveredTo(subscription)).toEqual([]);
  });

  it('refuses an expired token made by web-push itself', async () => {
    const subscription = push.subscribe();
    const expired = webpush.getVapidHeaders(
      push.origin,
      SUBJECT,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      Math.floor(Date.now() / 1000) - 1,
    );
    const error = await rejection(
      webpush.sendNotification(subscription, 'hello', {
        agent: push.agent,
        headers: { Authorization: expired.Authorization },
      }),
    );
    expect(error.statusCode).toBe(401);
  });
});

describe('scripted answers surface as WebPushError', () => {
  it('410 for an ended subscription, and 404 for one the service never knew', async () => {
    const subscription = push.subscribe();
    push.expire(subscription);
    const gone = await rejection(webpush.sendNotification(subscription, 'hello', options()));
    expect(gone.statusCode).toBe(410);
    expect(gone.endpoint).toBe(subscription.endpoint);
    const unknown = { ...subscription, endpoint: `${push.origin}/push/never-made` };
    const missing = await rejection(webpush.sendNotification(unknown, 'hello', options()));
    expect(missing.statusCode).toBe(404);
  });

  it('answers the scripted statuses for the next N requests, then delivers again', async () => {
    const subscription = push.subscribe();
    push.failNext({ status: 429, retryAfter: 30 });
    push.failNext({ status: 500 }, 2);
    push.failNext({ status: 410 });

    const limited = await rejection(webpush.sendNotification(subscription, 'a', options()));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('30');
    for (let i = 0; i < 2; i += 1) {
      const failed = await rejection(webpush.sendNotification(subscription, 'b', options()));
      expect(failed.statusCode).toBe(500);
    }
    const gone = await rejection(webpush.sendNotification(subscription, 'c', options()));
    expect(gone.statusCode).toBe(410);

    await webpush.sendNotification(subscription, 'd', options());
    expect(push.deliveredTo(subscription).map((d) => d.payload)).toEqual(['d']);
  });
});

/** Sends a body web-push already encrypted, to an endpoint it was not encrypted for. */
async function postRaw(
  endpoint: string,
  headers: Record<string, unknown>,
  body: Buffer,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      endpoint,
      {
        method: 'POST',
        agent: push.agent,
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
