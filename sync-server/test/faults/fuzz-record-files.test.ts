import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_FILE_LIMITS } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { pngHeaderOnly, pngImage } from '../support/portable';
import { createPublishedApp, verifyEmail } from '../support/publishing';

/**
 * Photos and files on records (docs/product/records.md#photos-and-files-on-records) under hostile
 * input: hashes that are not one, kinds that are not one, bodies whose type lies, that are cut
 * short, too large or not the bytes named, and callers who may not add or read them. Every answer
 * is a 4xx in the error shape, and nothing is kept: no row, no byte counted against anyone's plan.
 * A hand-made table first (each case's exact answer), then seeded random mixes of the same parts
 * (`FUZZ_RUNS`, `FUZZ_SEED` as in fuzz-api.test.ts).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : 20261129;

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const text = (s: string) => new TextEncoder().encode(s);

type Caller = 'anonymous' | 'forged' | 'visitor' | 'other' | 'reader' | 'member';
type Scope = 'data' | 'space' | 'privateApp' | 'deletedSpace' | 'notAnId';

interface Attempt {
  caller: Caller;
  scope: Scope;
  method: 'PUT' | 'GET';
  /** The path's last part(s) after `files/`, exactly as sent (already encoded). */
  hash: string;
  thumbnail?: boolean;
  query?: string;
  type?: string | null;
  body?: Uint8Array;
  origin?: 'same' | 'evil' | 'none';
}

const errorShape = {
  error: { code: expect.any(String) as unknown, message: expect.any(String) as unknown },
};

/** A raw HTTP exchange: what the server answers a request whose Content-Length lies. */
function rawExchange(port: number, head: string, body: Uint8Array, halfClose: boolean) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(answer);
    }, 3_000);
    socket.on('connect', () => {
      socket.write(head);
      socket.write(body);
      if (halfClose) socket.end();
    });
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on('error', (error) => (answer ? undefined : reject(error)));
  });
}

describe.each(ENGINES)('photos and files on records under hostile input (%s)', (engine) => {
  let h: AccountsHarness;
  const clients = {} as Record<Exclude<Caller, 'anonymous' | 'forged'>, ApiClient>;
  let appId: string;
  let privateAppId: string;
  let spaceId: string;
  let deletedSpaceId: string;
  /** A file (not a photo) the visitor keeps: its thumbnail is asked for. */
  let keptFile: Uint8Array;
  let png: Uint8Array;
  let jpeg: Uint8Array;
  const people: string[] = [];
  const storage = () => h.pipit.server.storage;

  /** Every row of record_files and every person's bytes counted: what no refusal may change. */
  async function snapshot(): Promise<string> {
    const rows = await storage().recordFiles.storedBefore(Number.MAX_SAFE_INTEGER, 10_000);
    const used = await Promise.all(people.map((id) => storage().uploads.totalBytesForUser(id)));
    return JSON.stringify({ rows, used });
  }

  const idOf = async (client: ApiClient) =>
    (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    const creator = await h.signup(`rf_creator_${engine}`);
    await verifyEmail(h, creator);
    for (const who of ['visitor', 'other', 'reader', 'member'] as const) {
      clients[who] = await h.signup(`rf_${who}_${engine}`);
      people.push(await idOf(clients[who]));
    }
    people.push(await idOf(creator));
    appId = await createPublishedApp(h, creator, { title: 'Files' });
    privateAppId = await createPublishedApp(h, creator, { title: 'Hidden' }, 'private');
    const space = await clients.visitor.post<{ space: { id: string } }>(
      `/api/apps/${appId}/spaces`,
      { name: 'Shared' },
    );
    expect(space.status).toBe(201);
    spaceId = space.body.space.id;
    for (const [who, role] of [
      ['member', 'member'],
      ['reader', 'reader'],
    ] as const) {
      const added = await clients.visitor.request(
        'PUT',
        `/api/spaces/${spaceId}/members/rf_${who}_${engine}`,
        { body: { role } },
      );
      expect(added.status).toBe(201);
    }
    const gone = await clients.visitor.post<{ space: { id: string } }>(
      `/api/apps/${appId}/spaces`,
      { name: 'Gone' },
    );
    deletedSpaceId = gone.body.space.id;
    expect((await clients.visitor.request('DELETE', `/api/spaces/${deletedSpaceId}`)).status).toBe(
      200,
    );
    png = await pngImage(64, 48, '#2266aa');
    jpeg = new Uint8Array(
      await sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa2266' } })
        .jpeg()
        .toBuffer(),
    );
    keptFile = text('plain notes, kept as a file');
    const stored = await send({
      caller: 'visitor',
      scope: 'data',
      method: 'PUT',
      hash: sha(keptFile),
      query: '?kind=file',
      type: 'text/plain',
      body: keptFile,
    });
    expect(stored.status).toBe(201);
  }, 60_000);
  afterAll(() => h?.close());

  function baseOf(scope: Scope): string {
    switch (scope) {
      case 'data':
        return `/api/apps/${appId}`;
      case 'privateApp':
        return `/api/apps/${privateAppId}`;
      case 'space':
        return `/api/spaces/${spaceId}`;
      case 'deletedSpace':
        return `/api/spaces/${deletedSpaceId}`;
      case 'notAnId':
        return '/api/apps/..%2F..%2Fadmin';
    }
  }

  async function send(attempt: Attempt): Promise<{ status: number; text: string }> {
    const cookie =
      attempt.caller === 'anonymous'
        ? null
        : attempt.caller === 'forged'
          ? 'pipit_session=forged'
          : clients[attempt.caller].cookie;
    const origin = attempt.origin ?? 'same';
    const headers: Record<string, string> = {
      ...(cookie ? { Cookie: cookie } : {}),
      ...(origin === 'same' ? { Origin: h.pipit.url, 'Sec-Fetch-Site': 'same-origin' } : {}),
      ...(origin === 'evil'
        ? { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }
        : {}),
      ...(attempt.type ? { 'Content-Type': attempt.type } : {}),
    };
    const path = `${baseOf(attempt.scope)}/files/${attempt.hash}${attempt.thumbnail ? '/thumbnail' : ''}${attempt.query ?? ''}`;
    const response = await fetch(`${h.pipit.url}${path}`, {
      method: attempt.method,
      headers,
      ...(attempt.method === 'PUT' && attempt.body
        ? { body: attempt.body as Uint8Array<ArrayBuffer> }
        : {}),
    });
    return { status: response.status, text: await response.text() };
  }

  /** Sends one attempt; its answer is `status` and `code`, in the error shape. */
  async function refused(attempt: Attempt, status: number, code: string) {
    const answer = await send(attempt);
    const label = `${JSON.stringify({ ...attempt, body: attempt.body?.byteLength })}: ${answer.text.slice(0, 300)}`;
    expect(answer.status, label).toBe(status);
    const body = JSON.parse(answer.text) as { error: { code: string } };
    expect(body, label).toMatchObject(errorShape);
    expect(body.error.code, label).toBe(code);
  }

  const put = (body: Uint8Array, extra: Partial<Attempt> = {}): Attempt => ({
    caller: 'visitor',
    scope: 'data',
    method: 'PUT',
    hash: sha(body),
    query: '?kind=image',
    type: 'image/png',
    body,
    ...extra,
  });

  it('refuses hashes that are not a SHA-256 in lowercase hex, on every route', async () => {
    const before = await snapshot();
    const hex = sha(png);
    const bad = [
      hex.slice(1),
      `${hex}0`,
      hex.toUpperCase(),
      'z'.repeat(64),
      `sha256:${hex}`,
      '..%2F..%2F..%2Fetc%2Fpasswd',
      `..%2F${hex.slice(5)}`,
      `${hex.slice(0, 63)}%00`,
      encodeURIComponent('💥'.repeat(32)),
    ];
    for (const hash of bad) {
      await refused(put(png, { hash }), 400, 'validation_failed');
      await refused(put(png, { hash, scope: 'space' }), 400, 'validation_failed');
      await refused(
        { caller: 'visitor', scope: 'data', method: 'GET', hash },
        400,
        'validation_failed',
      );
      await refused(
        { caller: 'member', scope: 'space', method: 'GET', hash, thumbnail: true },
        400,
        'validation_failed',
      );
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses a missing or unknown kind, and types and bytes that are not what they say', async () => {
    const before = await snapshot();
    for (const query of [
      '',
      '?kind=',
      '?kind=video',
      '?kind=IMAGE',
      '?kind[]=image',
      '?kind=file%00',
    ])
      await refused(put(png, { query }), 400, 'validation_failed');

    const svg = text(
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><script>alert(1)</script></svg>',
    );
    // Text called a PNG, a PNG or a JPEG cut short, a header claiming billions of pixels.
    await refused(put(text('not a photo at all')), 400, 'validation_failed');
    await refused(put(png.slice(0, 40)), 400, 'validation_failed');
    await refused(put(png.slice(0, png.byteLength - 20)), 400, 'validation_failed');
    await refused(
      put(jpeg.slice(0, jpeg.byteLength >> 1), { type: 'image/jpeg' }),
      400,
      'validation_failed',
    );
    await refused(put(pngHeaderOnly(100_000, 100_000)), 413, 'payload_too_large');
    await refused(put(pngHeaderOnly(65_535, 1)), 400, 'validation_failed');
    await refused(put(text('GIF89a\x01\x00\x01\x00')), 400, 'validation_failed');
    await refused(put(text('RIFF\x10\x00\x00\x00WEBPVP8 ')), 400, 'validation_failed');
    // An SVG is not a photo, whatever its type says; nor is a real PNG sent as text.
    await refused(put(svg), 415, 'unsupported_media_type');
    await refused(put(svg, { type: 'image/svg+xml' }), 415, 'unsupported_media_type');
    await refused(put(png, { type: 'text/plain' }), 415, 'unsupported_media_type');
    await refused(put(png, { type: null }), 415, 'unsupported_media_type');
    await refused(put(png, { type: 'image/png, text/html' }), 415, 'unsupported_media_type');
    await refused(put(png, { type: 'application/json' }), 415, 'unsupported_media_type');
    // Nothing at all, named by the SHA-256 of nothing.
    await refused(put(new Uint8Array(0)), 400, 'validation_failed');
    await refused(
      put(new Uint8Array(0), { query: '?kind=file', type: 'text/plain' }),
      400,
      'validation_failed',
    );
    expect(await snapshot()).toBe(before);
  });

  it('refuses bytes that are not the ones named, and bodies over the limit, declared or not', async () => {
    const before = await snapshot();
    await refused(put(png, { hash: sha(jpeg) }), 400, 'validation_failed');
    await refused(put(png, { hash: sha(png.slice(1)) }), 400, 'validation_failed');
    await refused(
      put(keptFile, { hash: sha(png), query: '?kind=file', type: 'text/plain' }),
      400,
      'validation_failed',
    );
    const overImage = new Uint8Array(RECORD_FILE_LIMITS.imageBytes + 1);
    await refused(put(overImage), 413, 'payload_too_large');
    const overFile = new Uint8Array(RECORD_FILE_LIMITS.fileBytes + 1);
    await refused(
      put(overFile, { query: '?kind=file', type: 'application/pdf' }),
      413,
      'payload_too_large',
    );

    const port = Number(new URL(h.pipit.url).port);
    const head = (length: number, hash: string) =>
      [
        `PUT /api/apps/${appId}/files/${hash}?kind=image HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        `Origin: ${h.pipit.url}`,
        'Sec-Fetch-Site: same-origin',
        `Cookie: ${clients.visitor.cookie}`,
        'Content-Type: image/png',
        `Content-Length: ${length}`,
        'Connection: close',
        '',
        '',
      ].join('\r\n');
    // Declares more than a photo may be, sends a few bytes: refused before a byte is read.
    const declaredHuge = await rawExchange(port, head(200_000_000, sha(png)), png, false);
    expect(declaredHuge).toMatch(/^HTTP\/1\.1 413 /);
    expect(declaredHuge).toContain('"payload_too_large"');
    // Declares less than it sends: the bytes past it are a request Node cannot read, answered in
    // the error shape (the connection then closes, with the first request's answer unsent).
    const declaredShort = await rawExchange(port, head(100, sha(png)), png, false);
    expect(declaredShort, declaredShort).toMatch(/^HTTP\/1\.1 400 /);
    expect(declaredShort, declaredShort).toContain('"validation_failed"');
    // Declares more than it sends and stops sending: no answer can reach it, and nothing is kept.
    await rawExchange(port, head(png.byteLength + 500, sha(png)), png, true);
    // The server is still there, and answers the same visitor as before.
    const still = await send({ caller: 'visitor', scope: 'data', method: 'GET', hash: sha(png) });
    expect(still.status).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it('refuses callers who may not add or read them, whatever they send', async () => {
    const before = await snapshot();
    await refused(put(png, { caller: 'anonymous' }), 401, 'unauthenticated');
    await refused(put(png, { caller: 'forged' }), 401, 'unauthenticated');
    await refused(put(png, { caller: 'anonymous', scope: 'space' }), 401, 'unauthenticated');
    // Someone outside the space, a reader of it, a space that is gone, an app they cannot see.
    await refused(put(png, { caller: 'other', scope: 'space' }), 404, 'not_found');
    await refused(put(png, { caller: 'reader', scope: 'space' }), 403, 'forbidden');
    await refused(put(png, { caller: 'visitor', scope: 'deletedSpace' }), 404, 'not_found');
    await refused(put(png, { caller: 'other', scope: 'privateApp' }), 404, 'not_found');
    await refused(put(png, { scope: 'notAnId' }), 404, 'not_found');
    // A write from another site, or one that does not say where it comes from.
    await refused(put(png, { origin: 'evil' }), 403, 'forbidden');
    await refused(put(png, { origin: 'none' }), 403, 'forbidden');
    // Reading: another person does not see the visitor's own file, nor an outsider the space's.
    const kept = sha(keptFile);
    await refused({ caller: 'other', scope: 'data', method: 'GET', hash: kept }, 404, 'not_found');
    await refused(
      { caller: 'anonymous', scope: 'data', method: 'GET', hash: kept },
      401,
      'unauthenticated',
    );
    await refused({ caller: 'other', scope: 'space', method: 'GET', hash: kept }, 404, 'not_found');
    await refused(
      { caller: 'other', scope: 'privateApp', method: 'GET', hash: kept },
      404,
      'not_found',
    );
    // A file has no thumbnail; a file nobody sent has neither.
    await refused(
      { caller: 'visitor', scope: 'data', method: 'GET', hash: kept, thumbnail: true },
      404,
      'not_found',
    );
    await refused(
      { caller: 'visitor', scope: 'data', method: 'GET', hash: sha(png), thumbnail: true },
      404,
      'not_found',
    );
    expect(await snapshot()).toBe(before);
  });

  it('answers random mixes of all of it with a 4xx in the error shape, keeping nothing', async () => {
    const before = await snapshot();
    const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
    const bodies = [
      text('not a photo'),
      png.slice(0, 60),
      jpeg.slice(0, jpeg.byteLength >> 1),
      pngHeaderOnly(9_000, 9_000),
      text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      new Uint8Array(0),
    ];
    const attempt = fc.record({
      caller: fc.constantFrom<Caller>(
        'anonymous',
        'forged',
        'visitor',
        'other',
        'reader',
        'member',
      ),
      scope: fc.constantFrom<Scope>('data', 'space', 'privateApp', 'deletedSpace', 'notAnId'),
      method: fc.constantFrom<'PUT' | 'GET'>('PUT', 'GET'),
      body: fc.constantFrom(...bodies),
      /** Named by its own SHA-256 (so the bytes themselves are judged), or by anything else. */
      hash: fc.oneof(
        fc.constant<'own'>('own'),
        hex,
        fc.string({ maxLength: 70 }).map(encodeURIComponent),
        fc.constantFrom('..%2F..%2Fx', '%2e%2e', 'sha256%3Aab', 'A'.repeat(64)),
      ),
      thumbnail: fc.boolean(),
      query: fc.constantFrom('?kind=image', '?kind=file', '', '?kind=', '?kind=zip', '?name=x'),
      type: fc.constantFrom(
        'image/png',
        'image/jpeg',
        'image/svg+xml',
        'text/plain',
        'bogus',
        null,
      ),
      origin: fc.constantFrom<'same' | 'evil' | 'none'>('same', 'same', 'evil', 'none'),
    });
    await fc.assert(
      fc.asyncProperty(attempt, async (a) => {
        // A file is any bytes: what a member may send as one under its own name is kept, so a
        // random mix never sends that (the table above has what is refused of it).
        const hash = a.hash === 'own' ? sha(a.body) : a.hash;
        const kindFile = a.query === '?kind=file';
        const mayKeep =
          a.method === 'PUT' &&
          kindFile &&
          hash === sha(a.body) &&
          a.body.byteLength > 0 &&
          a.type !== null &&
          a.type !== 'bogus';
        fc.pre(!mayKeep);
        const answer = await send({ ...a, hash, thumbnail: a.method === 'GET' && a.thumbnail });
        const label = `${JSON.stringify({ ...a, body: a.body.byteLength })}: ${answer.text.slice(0, 300)}`;
        expect(answer.status, label).toBeGreaterThanOrEqual(400);
        expect(answer.status, label).toBeLessThan(500);
        expect(JSON.parse(answer.text), label).toMatchObject(errorShape);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect(await snapshot()).toBe(before);
  }, 60_000);
});
