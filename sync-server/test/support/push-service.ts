import { execFile } from 'node:child_process';
import {
  createECDH,
  createDecipheriv,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
  type KeyObject,
} from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/*
 * A local stand-in for a Web Push service (RFC 8030), the counterpart of what Chrome's, Firefox's
 * and Apple's push services do for a browser. It makes subscriptions the way a browser's
 * PushManager does (keeping the private key a device would keep), accepts `POST /push/{id}`,
 * checks the VAPID token for real (RFC 8292: ES256 signature, `aud`, `exp`, `sub`), decrypts the
 * aes128gcm body (RFC 8188 records, RFC 8291 keys) and records what each device would show.
 *
 * It speaks HTTPS because `web-push` only ever sends over `https.request`; the certificate is
 * self-signed and made at start, and `agent` trusts it, so the sender under test runs unchanged
 * and only its agent differs from production. The decryption below is hand-written on purpose:
 * it is the receiving side, written independently of `web-push`'s encryption, so a mistake in
 * either shows up as a failed decryption instead of cancelling out.
 */

const execFileAsync = promisify(execFile);

/** RFC 8030 leaves the limit to the service; 4096 bytes of body is what the big ones accept. */
export const PUSH_MAX_BODY_BYTES = 4096;
/** RFC 8292: a token must not expire more than 24 hours after it is presented. */
const MAX_TOKEN_LIFETIME_S = 24 * 60 * 60;
const URGENCIES = ['very-low', 'low', 'normal', 'high'] as const;
export type PushUrgency = (typeof URGENCIES)[number];

/** What a browser's `PushSubscription.toJSON()` gives the app. */
export interface StandInSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface DeliveredPush {
  subscriptionId: string;
  /** The decrypted payload as UTF-8 text ('' for a push without a body). */
  payload: string;
  ttl: number;
  urgency: PushUrgency;
  topic: string | null;
  /** The VAPID `sub` claim the sender gave. */
  subject: string;
  receivedAt: Date;
}

export interface RefusedPush {
  subscriptionId: string;
  status: number;
  reason: string;
}

export interface ScriptedAnswer {
  status: 404 | 410 | 413 | 429 | 500 | 502 | 503;
  /** Seconds, sent as `Retry-After` (meaningful with 429 and 503). */
  retryAfter?: number;
}

export interface PushServiceStandIn {
  /** `https://127.0.0.1:{port}`: the `aud` a sender's VAPID token must name. */
  origin: string;
  /** An https.Agent that trusts the stand-in's certificate: pass it as web-push's `agent`. */
  agent: Agent;
  /** The stand-in's self-signed certificate (PEM), for a server in another process to trust. */
  certificate: string;
  /** Push requests that arrived, answered or not yet. */
  readonly received: number;
  /**
   * Holds every answer this long after the message is taken (and recorded as delivered): a slow
   * push service, so a sender killed meanwhile never learns its message got through.
   */
  answerDelayMs: number;
  /** Messages decrypted and accepted, in order of arrival. */
  delivered: DeliveredPush[];
  /** Requests answered with an error, scripted or not, in order. */
  refused: RefusedPush[];
  /**
   * A new subscription, as `pushManager.subscribe()` would make one. With an
   * `applicationServerKey` (the VAPID public key, base64url) only tokens signed by that key are
   * accepted for it, and others get 403, as RFC 8292 asks.
   */
  subscribe(options?: { applicationServerKey?: string }): StandInSubscription;
  /** The id in a subscription's endpoint. */
  idOf(subscription: { endpoint: string }): string;
  /** Messages delivered to one subscription. */
  deliveredTo(subscription: { endpoint: string }): DeliveredPush[];
  /** The subscription ends (the person revoked permission): later pushes get 410 Gone. */
  expire(subscription: { endpoint: string }): void;
  /** The next `count` push requests get this answer, whatever they hold. */
  failNext(answer: ScriptedAnswer, count?: number): void;
  close(): Promise<void>;
}

interface KeptSubscription {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
  applicationServerKey: string | null;
  expired: boolean;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

async function selfSignedCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pipit-push-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    await execFileAsync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]);
    return { key: await readFile(keyFile), cert: await readFile(certFile) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An uncompressed P-256 point (65 bytes, base64url) as a key node:crypto can verify with. */
function p256PublicKey(raw: Buffer): KeyObject {
  if (raw.length !== 65 || raw[0] !== 0x04) throw new Refusal(401, 'k is not a P-256 public key');
  try {
    return createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
  } catch {
    // A point off the curve is a sender's mistake, not the service failing: 401, not 500.
    throw new Refusal(401, 'k is not a P-256 public key');
  }
}

function jsonPart(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (value && typeof value === 'object') return value as Record<string, unknown>;
  } catch {
    // Falls through to the refusal below.
  }
  throw new Refusal(401, 'the token is not a JWT');
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`, the JWT signed with ES256 by the key
 * in `k`, for this origin, expiring within 24 hours, with a contact in `sub`.
 */
function checkVapid(header: string | undefined, origin: string, nowMs: number) {
  const match = /^vapid\s+(.*)$/i.exec(header ?? '');
  if (!match) throw new Refusal(401, 'no vapid authorization');
  const params = new Map<string, string>();
  for (const pair of match[1]!.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) params.set(pair.slice(0, at).trim().toLowerCase(), pair.slice(at + 1).trim());
  }
  const token = params.get('t');
  const k = params.get('k');
  if (!token || !k) throw new Refusal(401, 'vapid needs t and k');
  const parts = token.split('.');
  if (parts.length !== 3) throw new Refusal(401, 'the token is not a JWT');
  const [head, body, signature] = parts as [string, string, string];
  if (jsonPart(head).alg !== 'ES256') throw new Refusal(401, 'the token is not ES256');
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: p256PublicKey(Buffer.from(k, 'base64url')), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Refusal(401, 'the signature does not match k');
  const claims = jsonPart(body);
  if (claims.aud !== origin) throw new Refusal(401, `aud is not ${origin}`);
  const nowS = nowMs / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= nowS) {
    throw new Refusal(401, 'the token has expired');
  }
  if (claims.exp > nowS + MAX_TOKEN_LIFETIME_S) {
    throw new Refusal(401, 'exp is more than 24 hours away');
  }
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    throw new Refusal(401, 'sub is not a mailto: or https: contact');
  }
  return { k, subject: claims.sub };
}

function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** RFC 8188's record layout with RFC 8291's key derivation, as a receiving browser does it. */
export function decryptAes128gcm(body: Buffer, ecdh: ReturnType<typeof createECDH>, auth: Buffer) {
  if (body.length < 21) throw new Refusal(400, 'the body is shorter than its header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  if (idLength !== 65 || recordSize < 18) {
    throw new Refusal(400, 'keyid is not a P-256 key or rs is too small');
  }
  let secret: Buffer;
  try {
    secret = ecdh.computeSecret(senderKey);
  } catch {
    throw new Refusal(400, 'keyid is not a point on P-256');
  }
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), senderKey]);
  const ikm = hkdf(auth, secret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const baseNonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const records = body.subarray(21 + idLength);
  const plain: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < records.length; offset += recordSize, seq += 1) {
    const record = records.subarray(offset, offset + recordSize);
    const nonce = Buffer.from(baseNonce);
    // The record sequence number is XORed into the nonce's low bits (RFC 8188, section 2.3).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    let padded: Buffer;
    try {
      padded = Buffer.concat([
        decipher.update(record.subarray(0, record.length - 16)),
        decipher.final(),
      ]);
    } catch {
      throw new Refusal(400, 'a record does not decrypt with the subscription keys');
    }
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    const last = offset + recordSize >= records.length;
    if (padded[end] !== (last ? 2 : 1)) throw new Refusal(400, 'a record has the wrong delimiter');
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain).toString('utf8');
}

function pushHeaders(req: IncomingMessage) {
  const ttlText = req.headers.ttl;
  if (typeof ttlText !== 'string' || !/^\d+$/.test(ttlText)) {
    throw new Refusal(400, 'TTL is missing or not a number');
  }
  const urgency = (req.headers.urgency ?? 'normal') as PushUrgency;
  if (!URGENCIES.includes(urgency)) throw new Refusal(400, `unknown Urgency ${urgency}`);
  const topic = typeof req.headers.topic === 'string' ? req.headers.topic : null;
  if (topic !== null && !/^[A-Za-z0-9_-]{1,32}$/.test(topic)) {
    throw new Refusal(400, 'Topic must be at most 32 base64url characters');
  }
  return { ttl: Number(ttlText), urgency, topic };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Read on past the limit so the sender gets the 413 instead of a reset connection.
    if (size <= PUSH_MAX_BODY_BYTES + 1) chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function startPushServiceStandIn(): Promise<PushServiceStandIn> {
  const tls = await selfSignedCertificate();
  const subscriptions = new Map<string, KeptSubscription>();
  const delivered: DeliveredPush[] = [];
  const refused: RefusedPush[] = [];
  const scripted: ScriptedAnswer[] = [];
  const sockets = new Set<Socket>();
  let origin = '';

  function answer(res: ServerResponse, status: number, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-length': '0', ...headers });
    res.end();
  }

  let received = 0;
  const held = () =>
    self.answerDelayMs > 0
      ? new Promise<void>((resolve) => setTimeout(resolve, self.answerDelayMs))
      : Promise.resolve();

  async function accept(id: string, req: IncomingMessage, res: ServerResponse) {
    received += 1;
    const body = await readBody(req);
    const script = scripted.shift();
    if (script) {
      refused.push({ subscriptionId: id, status: script.status, reason: 'scripted' });
      const headers: Record<string, string> =
        script.retryAfter === undefined ? {} : { 'retry-after': String(script.retryAfter) };
      answer(res, script.status, headers);
      return;
    }
    const kept = subscriptions.get(id);
    if (!kept) throw new Refusal(404, 'no such subscription');
    if (kept.expired) throw new Refusal(410, 'the subscription has expired');
    const vapid = checkVapid(req.headers.authorization, origin, Date.now());
    if (kept.applicationServerKey !== null && vapid.k !== kept.applicationServerKey) {
      throw new Refusal(403, 'k is not the key this subscription was made for');
    }
    const { ttl, urgency, topic } = pushHeaders(req);
    if (body.length > PUSH_MAX_BODY_BYTES) throw new Refusal(413, 'the body is too large');
    let payload = '';
    if (body.length > 0) {
      if (req.headers['content-encoding'] !== 'aes128gcm') {
        throw new Refusal(415, 'Content-Encoding must be aes128gcm');
      }
      payload = decryptAes128gcm(body, kept.ecdh, kept.auth);
    }
    delivered.push({
      subscriptionId: id,
      payload,
      ttl,
      urgency,
      topic,
      subject: vapid.subject,
      receivedAt: new Date(),
    });
    await held();
    answer(res, 201, { location: `${origin}/message/${randomUUID()}` });
  }

  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const match = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      answer(res, 404);
      return;
    }
    const id = match[1]!;
    accept(id, req, res).catch((error: unknown) => {
      const status = error instanceof Refusal ? error.status : 500;
      const reason = error instanceof Error ? error.message : String(error);
      refused.push({ subscriptionId: id, status, reason });
      if (!res.headersSent) answer(res, status);
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new Agent({ ca: tls.cert, keepAlive: false });

  const idOf = (subscription: { endpoint: string }) =>
    subscription.endpoint.slice(`${origin}/push/`.length);

  const self: PushServiceStandIn = {
    origin,
    agent,
    certificate: tls.cert.toString('utf8'),
    get received() {
      return received;
    },
    answerDelayMs: 0,
    delivered,
    refused,
    subscribe(options = {}) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const id = randomBytes(12).toString('base64url');
      const kept: KeptSubscription = {
        ecdh,
        publicKey: ecdh.getPublicKey(),
        auth: randomBytes(16),
        applicationServerKey: options.applicationServerKey ?? null,
        expired: false,
      };
      subscriptions.set(id, kept);
      return {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: {
          p256dh: kept.publicKey.toString('base64url'),
          auth: kept.auth.toString('base64url'),
        },
      };
    },
    idOf,
    deliveredTo(subscription) {
      const id = idOf(subscription);
      return delivered.filter((d) => d.subscriptionId === id);
    },
    expire(subscription) {
      const kept = subscriptions.get(idOf(subscription));
      if (kept) kept.expired = true;
    },
    failNext(scriptedAnswer, count = 1) {
      for (let i = 0; i < count; i += 1) scripted.push(scriptedAnswer);
    },
    async close() {
      agent.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return self;
}
