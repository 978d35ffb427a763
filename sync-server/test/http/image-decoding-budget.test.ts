import { createId } from '@pipit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_QUOTA_BYTES } from '../../src/accounts/profile-service';
import { IMAGE_PIXEL_LIMITS } from '../../src/accounts/image-decoding';
import { type ApiClient, errorCode } from '../support/api-client';
import { testClock } from '../support/clock';
import {
  type AccountsHarness,
  ENGINES,
  ROOMY_RATE_LIMITS,
  startAccountsServer,
} from '../support/engines';
import {
  importFile,
  pipitFileWithImages,
  pngHeaderOnly,
  pngImage,
  uploadImage,
} from '../support/portable';
import { createApp, definitionOf } from '../support/publishing';

/** The two rate limits, lowered so a test reaches them quickly (the others stay roomy). */
const LIMITED = {
  appImagesPerAccount: { limit: 20, windowMs: 60 * 60 * 1000 },
  importsPerAccount: { limit: 8, windowMs: 60 * 60 * 1000 },
};

const HOUR_MS = 60 * 60 * 1000;

/**
 * Decoding images has a budget. Everything that can refuse an upload or an
 * import without decoding its images does so first — the quota from the bytes received, each
 * image's pixels and the request's from their headers, the person's pixels this hour — and both
 * endpoints are rate-limited. The images here are a few dozen bytes whose headers declare millions
 * of pixels (pngHeaderOnly): decoding one fails at once, so an answer other than "cannot be read"
 * shows it was refused before it was decoded.
 */
describe.each(ENGINES)('what decoding images may cost (%s)', (engine) => {
  const clock = testClock();
  let h: AccountsHarness;
  let n = 0;
  const storage = () => h.pipit.server.storage;
  const idOf = async (client: ApiClient) =>
    (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;
  /** A new person with an app of their own. */
  const person = async () => {
    const client = await h.signup(`img${n++}_${engine}`);
    const appId = await createApp(h, client, definitionOf({ title: 'Gallery' }));
    return { client, appId, id: await idOf(client) };
  };
  const appCount = async (client: ApiClient) =>
    (await client.get<{ apps: unknown[] }>('/api/apps')).body.apps.length;
  const pixelsSpent = async (userId: string) =>
    (await storage().rateLimits.peek(`imagePixelsPerAccount:${userId}`, HOUR_MS, clock.now()))
      .count;
  /** Fills `userId`'s uploads to `left` bytes short of the quota. */
  const fillQuota = async (userId: string, left: number) => {
    const used = await storage().uploads.totalBytesForUser(userId);
    await storage().uploads.insert({
      id: createId(),
      userId,
      contentType: 'image/webp',
      bytes: new Uint8Array(UPLOAD_QUOTA_BYTES - used - left),
      createdAt: Date.now(),
    });
  };

  beforeAll(async () => {
    h = await startAccountsServer(engine, {
      clock,
      rateLimits: { ...ROOMY_RATE_LIMITS, ...LIMITED },
    });
  });
  afterAll(() => h.close());

  it('checks the quota from the bytes received, before decoding anything', async () => {
    const { client, appId, id } = await person();
    await fillQuota(id, 10);
    const before = await storage().uploads.idsForApp(appId);
    // 1,000 bytes that are no image: past the quota, the quota is the answer, not the decoder's.
    const upload = await uploadImage(client, appId, new Uint8Array(1000).fill(7));
    expect([upload.status, errorCode(upload)]).toEqual([413, 'payload_too_large']);
    expect(upload.body.error?.message).toMatch(/past the 20 MB of your plan/);

    // An import whose image reads as a PNG and would fail to decode: the quota answers first.
    const imported = await importFile(
      client,
      pipitFileWithImages([{ bytes: pngHeaderOnly(1000, 1000) }]),
    );
    expect([imported.status, errorCode(imported)]).toEqual([403, 'limit_reached']);
    expect(imported.body.error?.message).toMatch(/20 MB of your plan/);

    expect(await storage().uploads.idsForApp(appId)).toEqual(before);
    expect(await appCount(client)).toBe(1);
    expect(await pixelsSpent(id)).toBe(0);
  });

  it('refuses an image of more pixels than one may have, from its header', async () => {
    const { client, appId, id } = await person();
    const huge = pngHeaderOnly(8000, 6000);
    const upload = await uploadImage(client, appId, huge);
    expect([upload.status, errorCode(upload)]).toEqual([413, 'payload_too_large']);
    expect(upload.body.error?.message).toBe(
      'That image is 8000 × 6000 pixels (48 megapixels); images of at most 40 megapixels are taken. Scale it down, or choose a smaller one.',
    );
    const imported = await importFile(client, pipitFileWithImages([{ bytes: huge }]));
    expect([imported.status, errorCode(imported)]).toEqual([400, 'validation_failed']);
    expect(imported.body.error?.message).toMatch(/8000 × 6000 pixels \(48 megapixels\)/);
    expect(await storage().uploads.idsForApp(appId)).toEqual([]);
    expect(await appCount(client)).toBe(1);
    expect(await pixelsSpent(id)).toBe(0);
  });

  it('refuses an import whose images together have more pixels than one import takes', async () => {
    const { client, id } = await person();
    // Seven images of 36 megapixels, each under the limit of one: 252 together.
    const images = Array.from({ length: 7 }, () => ({ bytes: pngHeaderOnly(6000, 6000) }));
    expect(7 * 36_000_000).toBeGreaterThan(IMAGE_PIXEL_LIMITS.perRequest);
    const imported = await importFile(client, pipitFileWithImages(images));
    expect([imported.status, errorCode(imported)]).toEqual([400, 'validation_failed']);
    expect(imported.body.error?.message).toBe(
      'This file’s images come to more than 250 megapixels, the most one import takes. Export its apps one at a time, or with smaller images, and import each file.',
    );
    expect(await appCount(client)).toBe(1);
    expect(await pixelsSpent(id)).toBe(0);
  });

  it('counts the pixels a person has decoded in an hour, uploads and imports together', async () => {
    const { client, appId, id } = await person();
    // Twelve images of 40 megapixels: each is counted, then fails to decode.
    for (let i = 0; i < 12; i++) {
      const upload = await uploadImage(client, appId, pngHeaderOnly(8000, 5000));
      expect([upload.status, errorCode(upload)]).toEqual([400, 'validation_failed']);
    }
    expect(await pixelsSpent(id)).toBe(480_000_000);

    // 25 more would pass the 500 of an hour: refused before decoding, and not counted.
    const file = pipitFileWithImages([{ bytes: pngHeaderOnly(5000, 5000) }]);
    const refused = await importFile(client, file);
    expect([refused.status, errorCode(refused)]).toEqual([429, 'rate_limited']);
    const retryAfter = (refused.body.error as { retryAfter?: number } | undefined)?.retryAfter;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
    expect(refused.body.error?.message).toMatch(
      /^That would take the images you sent this hour past 500 megapixels, the most this server reads for one person in an hour\. Wait \d+ minutes and try again, or send smaller images\.$/,
    );
    const big = await uploadImage(client, appId, pngHeaderOnly(5000, 5000));
    expect([big.status, errorCode(big)]).toEqual([429, 'rate_limited']);
    expect(await pixelsSpent(id)).toBe(480_000_000);
    expect(await appCount(client)).toBe(1);

    // What is left is still there to use; someone else's hour is their own.
    const small = await uploadImage(client, appId, await pngImage(10, 10, '#336699'));
    expect(small.status).toBe(201);
    const other = await person();
    expect((await importFile(other.client, file)).body.error?.message).toMatch(/cannot be read/);

    // An hour later, the budget is whole again: the file is decoded (and found unreadable).
    await clock.later(HOUR_MS + 1000, async () => {
      const later = await importFile(client, file);
      expect([later.status, errorCode(later)]).toEqual([400, 'validation_failed']);
      expect(later.body.error?.message).toMatch(/^Image 1 of the app “Pictures” cannot be read/);
    });
  });

  it('rate-limits the images a person adds and the files they import', async () => {
    const { client, appId } = await person();
    const notAnImage = new Uint8Array(16).fill(7);
    const uploads = LIMITED.appImagesPerAccount.limit;
    for (let i = 0; i < uploads; i++) {
      expect((await uploadImage(client, appId, notAnImage)).status).toBe(400);
    }
    const limited = await uploadImage(client, appId, await pngImage(10, 10, '#000000'));
    expect([limited.status, errorCode(limited)]).toEqual([429, 'rate_limited']);
    expect(limited.body.error?.message).toMatch(
      /^You have added as many images this hour as one person may\. Wait \d+ minutes and try again\.$/,
    );
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await storage().uploads.idsForApp(appId)).toEqual([]);

    const imports = LIMITED.importsPerAccount.limit;
    for (let i = 0; i < imports; i++) {
      expect((await importFile(client, notAnImage)).status).toBe(400);
    }
    const file = pipitFileWithImages([{ bytes: await pngImage(10, 10, '#000000') }]);
    const tooMany = await importFile(client, file);
    expect([tooMany.status, errorCode(tooMany)]).toEqual([429, 'rate_limited']);
    expect(tooMany.body.error?.message).toMatch(
      /^You have imported as many files this hour as one person may\. Wait \d+ minutes and try again\.$/,
    );
    expect(await appCount(client)).toBe(1);

    // Another person is not held back by it.
    const other = await person();
    expect(
      (await uploadImage(other.client, other.appId, await pngImage(10, 10, '#000'))).status,
    ).toBe(201);
    expect((await importFile(other.client, file)).status).toBe(201);
  });
});
