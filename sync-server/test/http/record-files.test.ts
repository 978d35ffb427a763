import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { documentName, RECORD_FILE_LIMITS, type SpaceSummary } from '@pipit/protocol';
import { UPLOAD_QUOTA_BYTES } from '../../src/accounts/profile-service';
import { RECORD_FILE_GRACE_MS, sweepRecordFiles } from '../../src/collab/record-files';
import { type ApiClient, type ApiResponse, errorCode } from '../support/api-client';
import { type AccountsHarness, startAccountsServer, TEST_PASSWORD } from '../support/engines';
import { pngImage } from '../support/portable';
import { createPublishedApp, verifyEmail } from '../support/publishing';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type FileAnswer = ApiResponse<{
  hash: string;
  kind: string;
  contentType: string;
  size: number;
  width?: number;
  height?: number;
  error?: { code: string; message: string };
}>;

/** `PUT …/files/{hash}` as a browser sends it. */
async function put(
  client: ApiClient,
  base: string,
  bytes: Uint8Array,
  options: { type?: string; kind?: string; hash?: string } = {},
): Promise<FileAnswer> {
  const response = await fetch(
    `${client.baseUrl}${base}/files/${options.hash ?? sha(bytes)}?kind=${options.kind ?? 'image'}`,
    {
      method: 'PUT',
      headers: {
        Origin: client.baseUrl,
        'Sec-Fetch-Site': 'same-origin',
        'Content-Type': options.type ?? 'image/png',
        ...(client.cookie ? { Cookie: client.cookie } : {}),
      },
      body: bytes as Uint8Array<ArrayBuffer>,
    },
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
}

async function get(client: ApiClient, path: string) {
  const response = await fetch(`${client.baseUrl}${path}`, {
    headers: client.cookie ? { Cookie: client.cookie } : {},
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

/**
 * Photos and files on records over REST: whoever may open the records' document reads them, the
 * bytes are the ones named, what is not an image or is too large is refused and nothing is kept,
 * and they go with the quota, the sweep and the account.
 */
describe('photos and files on records', () => {
  let h: AccountsHarness;
  /** The app's creator. */
  let cleo: ApiClient;
  /** A visitor of the app. */
  let ada: ApiClient;
  let ben: ApiClient;
  let appId: string;
  let photo: Uint8Array;
  const storage = () => h.pipit.server.storage;
  const idOf = async (client: ApiClient) =>
    (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

  beforeAll(async () => {
    h = await startAccountsServer('sqlite');
    cleo = await h.signup('cleo_files');
    ada = await h.signup('ada_files');
    ben = await h.signup('ben_files');
    await verifyEmail(h, cleo);
    appId = await createPublishedApp(h, cleo, { title: 'Plants' });
    photo = await pngImage(3000, 1000, '#336699');
  });
  afterAll(() => h.close());

  it('keeps a visitor’s photo encoded again, once, with a thumbnail, private and for good', async () => {
    const base = `/api/apps/${appId}`;
    const first = await put(ada, base, photo);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      hash: sha(photo),
      kind: 'image',
      contentType: 'image/webp',
      width: 2048,
      height: 683,
    });
    const again = await put(ada, base, photo);
    expect([again.status, again.body]).toEqual([200, first.body]);

    const original = await get(ada, `${base}/files/${sha(photo)}`);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/webp');
    expect(original.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(original.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await sharp(original.bytes).metadata()).width).toBe(2048);

    const thumbnail = await get(ada, `${base}/files/${sha(photo)}/thumbnail`);
    expect(thumbnail.status).toBe(200);
    const meta = await sharp(thumbnail.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual([
      'webp',
      RECORD_FILE_LIMITS.thumbnailSidePx,
      107,
    ]);
    expect(await storage().uploads.totalBytesForUser(await idOf(ada))).toBe(first.body.size);
  });

  it('lets nobody else read a visitor’s photo: another person, the app’s creator, no one signed out', async () => {
    const path = `/api/apps/${appId}/files/${sha(photo)}`;
    expect((await get(ben, path)).status).toBe(404);
    expect((await get(cleo, path)).status).toBe(404);
    expect((await get(cleo, `${path}/thumbnail`)).status).toBe(404);
    expect((await get(h.client(), path)).status).toBe(401);
    const signedOut = await put(h.client(), `/api/apps/${appId}`, photo);
    expect([signedOut.status, errorCode(signedOut)]).toEqual([401, 'unauthenticated']);
  });

  it('shares a space’s photos with its members and readers, and lets only members add them', async () => {
    const made = (await ben.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Garden',
    })) as ApiResponse<{ space: SpaceSummary }>;
    expect(made.status).toBe(201);
    const spaceId = made.body.space.id;
    const dan = await h.signup('dan_files');
    for (const [who, role] of [
      ['ada_files', 'member'],
      ['dan_files', 'reader'],
    ] as const) {
      const added = await ben.request('PUT', `/api/spaces/${spaceId}/members/${who}`, {
        body: { role },
      });
      expect(added.status).toBe(201);
    }
    const base = `/api/spaces/${spaceId}`;
    const leaf = await pngImage(40, 40, '#00aa00');
    const byReader = await put(dan, base, leaf);
    expect([byReader.status, errorCode(byReader)]).toEqual([403, 'forbidden']);
    const byCreator = await put(cleo, base, leaf);
    expect([byCreator.status, errorCode(byCreator)]).toEqual([404, 'not_found']);
    const benBefore = await storage().uploads.totalBytesForUser(await idOf(ben));
    const byMember = await put(ada, base, leaf);
    expect(byMember.status).toBe(201);
    // Counted against the space's owner.
    expect(await storage().uploads.totalBytesForUser(await idOf(ben))).toBe(
      benBefore + byMember.body.size,
    );
    for (const reader of [ben, ada, dan]) {
      expect((await get(reader, `${base}/files/${sha(leaf)}/thumbnail`)).status).toBe(200);
    }
    expect((await get(cleo, `${base}/files/${sha(leaf)}`)).status).toBe(404);
    // Deleting the space deletes its photos.
    expect((await ben.request('DELETE', `/api/spaces/${spaceId}`)).status).toBeLessThan(300);
    expect(await storage().recordFiles.info(`space/${spaceId}`, sha(leaf))).toBeNull();
  });

  it('refuses what is not an image, a photo too large, and bytes that are not the ones named — keeping nothing', async () => {
    const base = `/api/apps/${appId}`;
    const text = new TextEncoder().encode('not a photo at all');
    const notImage = await put(ada, base, text);
    expect([notImage.status, errorCode(notImage)]).toEqual([400, 'validation_failed']);
    expect(notImage.body.error?.message).toBe(
      'That file isn’t an image we can read. Choose a photo (PNG, JPEG, WebP or GIF).',
    );
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>',
    );
    const asPng = await put(ada, base, svg);
    expect([asPng.status, errorCode(asPng)]).toEqual([415, 'unsupported_media_type']);

    const huge = new Uint8Array(RECORD_FILE_LIMITS.imageBytes + 1);
    const tooLarge = await put(ada, base, huge);
    expect([tooLarge.status, errorCode(tooLarge)]).toEqual([413, 'payload_too_large']);
    expect(tooLarge.body.error?.message).toBe('That is larger than 12 MB. Send something smaller.');

    const other = await pngImage(10, 10, '#ff0000');
    const mismatch = await put(ada, base, other, { hash: sha(text) });
    expect([mismatch.status, errorCode(mismatch)]).toEqual([400, 'validation_failed']);
    expect(mismatch.body.error?.message).toMatch(/SHA-256 does not match/);

    const badHash = await fetch(`${ada.baseUrl}${base}/files/ABC?kind=image`, {
      headers: { Cookie: ada.cookie! },
    });
    expect(badHash.status).toBe(400);
    const noKind = await put(ada, base, other, { kind: 'video' });
    expect([noKind.status, errorCode(noKind)]).toEqual([400, 'validation_failed']);

    const scope = documentName({ kind: 'data', appId, userId: await idOf(ada) });
    for (const bytes of [text, svg, huge, other]) {
      expect(await storage().recordFiles.info(scope, sha(bytes))).toBeNull();
    }
  });

  it('keeps a file byte for byte, served as a download of a safe type', async () => {
    const base = `/api/apps/${appId}`;
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    const stored = await put(ada, base, html, { kind: 'file', type: 'text/html' });
    expect(stored.status).toBe(201);
    expect(stored.body.contentType).toBe('application/octet-stream');
    const served = await get(
      ada,
      `${base}/files/${sha(html)}?name=${encodeURIComponent('page “1”.html')}`,
    );
    expect(served.bytes).toEqual(html);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toMatch(
      /^attachment; filename="page _1_.html"/,
    );
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const tooLarge = await put(ada, base, new Uint8Array(RECORD_FILE_LIMITS.fileBytes + 1), {
      kind: 'file',
      type: 'application/pdf',
    });
    expect([tooLarge.status, errorCode(tooLarge)]).toEqual([413, 'payload_too_large']);
    expect(tooLarge.body.error?.message).toBe(
      'That file is larger than 5 MB. Choose a smaller one.',
    );
  });

  it('refuses a photo past the quota with words that say how to make room', async () => {
    const eve = await h.signup('eve_files');
    const eveId = await idOf(eve);
    await storage().uploads.insert({
      id: (await import('@pipit/protocol')).createId(),
      userId: eveId,
      contentType: 'image/webp',
      bytes: new Uint8Array(UPLOAD_QUOTA_BYTES - 50),
      createdAt: 1,
    });
    const full = await put(eve, `/api/apps/${appId}`, await pngImage(30, 30, '#123456'));
    expect([full.status, errorCode(full)]).toEqual([403, 'limit_reached']);
    expect(full.body.error?.message).toBe(
      'That would take what you keep on this server past the 20 MB of your plan. Remove some photos or files first, then try again.',
    );
    expect(await storage().uploads.totalBytesForUser(eveId)).toBe(UPLOAD_QUOTA_BYTES - 50);
  });

  it('sweeps files no record refers to once the grace period is over, and deletes the rest with the account', async () => {
    const fay = await h.signup('fay_files');
    const fayId = await idOf(fay);
    const base = `/api/apps/${appId}`;
    const kept = await pngImage(20, 20, '#aa0000');
    const dropped = await pngImage(21, 20, '#aa0000');
    for (const bytes of [kept, dropped]) expect((await put(fay, base, bytes)).status).toBe(201);
    const scope = documentName({ kind: 'data', appId, userId: fayId });
    const doc = new Y.Doc();
    doc.getMap('records').set('r1', { photo: `sha256:${sha(kept)}` });
    await storage().documents.store(scope, Y.encodeStateAsUpdate(doc));
    const logger = h.pipit.server.logger;
    // Within the grace period, nothing goes.
    expect(
      await sweepRecordFiles({ storage: storage(), clock: { now: () => Date.now() }, logger }),
    ).toBe(0);
    const later = { now: () => Date.now() + RECORD_FILE_GRACE_MS + 1_000 };
    await sweepRecordFiles({ storage: storage(), clock: later, logger }, 1);
    expect(await storage().recordFiles.info(scope, sha(kept))).not.toBeNull();
    expect(await storage().recordFiles.info(scope, sha(dropped))).toBeNull();

    const deleted = await fay.request('DELETE', '/api/account', {
      body: { password: TEST_PASSWORD },
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await storage().recordFiles.info(scope, sha(kept))).toBeNull();
  });
});
