import sharp from 'sharp';
import { createId } from '@pipit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_QUOTA_BYTES } from '../../src/accounts/profile-service';
import { type ApiClient, errorCode } from '../support/api-client';
import { testClock } from '../support/clock';
import { type AccountsHarness, ROOMY_RATE_LIMITS, startAccountsServer } from '../support/engines';
import { pngHeaderOnly, pngImage, postRaw } from '../support/portable';

const HOUR_MS = 60 * 60 * 1000;
/** Lowered so a test reaches it quickly (the others stay roomy). */
const AVATAR_UPLOADS = 6;

const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="red"/><script>alert(1)</script></svg>',
);

type AvatarAnswer = {
  account?: { avatar: { kind: string; url?: string } };
  error?: { code: string; message: string; retryAfter?: number };
};

const uploadAvatar = (client: ApiClient, bytes: Uint8Array, type = 'image/png') =>
  postRaw<AvatarAnswer>(client, '/api/account/avatar', bytes, type);

/**
 * For avatars: `POST /api/account/avatar` trusted the Content-Type (an SVG sent
 * as `image/png` was rasterised, a TIFF decoded), checked the quota only after decoding, counted
 * no pixels and had no rate limit. It now goes through what an app's images do
 * (accounts/image-decoding.ts): the format from the bytes, the quota from the bytes received, the
 * pixels from the header, the person's hourly pixel budget — all before decoding — and its own
 * rate limit. The decoding bombs here are a few dozen bytes whose header declares millions of
 * pixels (pngHeaderOnly): decoding one fails at once, so any other answer shows it was refused
 * before it was decoded.
 */
describe('what an avatar may cost', () => {
  const clock = testClock();
  let h: AccountsHarness;
  let n = 0;
  const storage = () => h.pipit.server.storage;
  const person = async () => {
    const client = await h.signup(`avatar${n++}`);
    const { id } = (await client.get<{ account: { id: string } }>('/api/auth/session')).body
      .account;
    return { client, id };
  };
  const avatarOf = async (client: ApiClient) =>
    (await client.get<{ account: { avatar: unknown } }>('/api/account')).body.account.avatar;
  const uploadsOf = async (userId: string) => storage().uploads.totalBytesForUser(userId);
  const pixelsSpent = async (userId: string) =>
    (await storage().rateLimits.peek(`imagePixelsPerAccount:${userId}`, HOUR_MS, clock.now()))
      .count;

  beforeAll(async () => {
    h = await startAccountsServer('sqlite', {
      clock,
      rateLimits: {
        ...ROOMY_RATE_LIMITS,
        avatarUploadsPerAccount: { limit: AVATAR_UPLOADS, windowMs: HOUR_MS },
      },
    });
  });
  afterAll(() => h.close());

  it('refuses an SVG, or a TIFF, sent as a PNG, from what the bytes are', async () => {
    const { client, id } = await person();
    const before = await avatarOf(client);
    const tiff = new Uint8Array(
      await sharp(await pngImage(8, 8, '#ff0000'))
        .tiff()
        .toBuffer(),
    );
    for (const bytes of [SVG, tiff]) {
      const upload = await uploadAvatar(client, bytes, 'image/png');
      expect([upload.status, errorCode(upload)]).toEqual([415, 'unsupported_media_type']);
      expect(upload.body.error?.message).toBe(
        'That file is not a PNG, JPEG, WebP or GIF image, whatever its name or type says. Upload a PNG, JPEG, WebP or GIF image.',
      );
    }
    expect(await avatarOf(client)).toEqual(before);
    expect(await uploadsOf(id)).toBe(0);
    expect(await pixelsSpent(id)).toBe(0);
  });

  it('checks the quota from the bytes received, before decoding anything', async () => {
    const { client, id } = await person();
    await storage().uploads.insert({
      id: createId(),
      userId: id,
      contentType: 'image/webp',
      bytes: new Uint8Array(UPLOAD_QUOTA_BYTES - 10),
      createdAt: Date.now(),
    });
    // 1,000 bytes that are no image: past the quota, the quota is the answer, not the decoder's.
    const upload = await uploadAvatar(client, new Uint8Array(1000).fill(7));
    expect([upload.status, errorCode(upload)]).toEqual([413, 'payload_too_large']);
    expect(upload.body.error?.message).toBe(
      'That would take your uploads past the 20 MB of your plan. Remove some images from your apps first, or choose an emoji avatar.',
    );
    // A real image is refused the same way, before it is read.
    const png = await uploadAvatar(client, pngHeaderOnly(4000, 4000));
    expect([png.status, errorCode(png)]).toEqual([413, 'payload_too_large']);
    expect(await uploadsOf(id)).toBe(UPLOAD_QUOTA_BYTES - 10);
    expect(await pixelsSpent(id)).toBe(0);
  });

  it('refuses an image of more pixels than one may have, from its header', async () => {
    const { client, id } = await person();
    const upload = await uploadAvatar(client, pngHeaderOnly(8000, 6000));
    expect([upload.status, errorCode(upload)]).toEqual([413, 'payload_too_large']);
    expect(upload.body.error?.message).toBe(
      'That image is 8000 × 6000 pixels (48 megapixels); avatars of at most 40 megapixels are taken. Scale it down, or choose a smaller one.',
    );
    expect(await pixelsSpent(id)).toBe(0);
  });

  it('counts an avatar’s pixels in the person’s hour, with their apps’ images', async () => {
    const { client, id } = await person();
    // Counted before it is decoded, and still counted when decoding then fails.
    const bomb = await uploadAvatar(client, pngHeaderOnly(8000, 5000));
    expect([bomb.status, errorCode(bomb)]).toEqual([400, 'validation_failed']);
    expect(await pixelsSpent(id)).toBe(40_000_000);

    // The rest of the hour spent elsewhere (an app's images): the next avatar would pass it.
    await storage().rateLimits.hit(
      `imagePixelsPerAccount:${id}`,
      HOUR_MS,
      clock.now(),
      459_000_000,
    );
    const refused = await uploadAvatar(client, pngHeaderOnly(2000, 1000));
    expect([refused.status, errorCode(refused)]).toEqual([429, 'rate_limited']);
    expect(refused.body.error?.message).toMatch(
      /^That would take the images you sent this hour past 500 megapixels, the most this server reads for one person in an hour\. Wait \d+ minutes and try again, or send smaller images\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await pixelsSpent(id)).toBe(499_000_000);

    // What is left is still there to use: a small avatar is taken, and kept as a 256 px WebP.
    const small = await uploadAvatar(client, await pngImage(30, 20, '#336699'));
    expect(small.status).toBe(200);
    expect(small.body.account?.avatar.kind).toBe('image');
    const kept = await fetch(`${h.pipit.url}${small.body.account!.avatar.url!}`);
    const meta = await sharp(Buffer.from(await kept.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(await pixelsSpent(id)).toBe(499_000_600);
  });

  it('rate-limits the avatars a person uploads, whatever their outcome', async () => {
    const { client, id } = await person();
    for (let i = 0; i < AVATAR_UPLOADS; i++) {
      expect((await uploadAvatar(client, new Uint8Array(16).fill(7))).status).toBe(400);
    }
    const before = await avatarOf(client);
    const limited = await uploadAvatar(client, await pngImage(10, 10, '#000000'));
    expect([limited.status, errorCode(limited)]).toEqual([429, 'rate_limited']);
    expect(limited.body.error?.message).toMatch(
      /^You have uploaded as many avatars this hour as one person may\. Wait \d+ minutes and try again, or choose an emoji avatar\.$/,
    );
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await avatarOf(client)).toEqual(before);
    expect(await uploadsOf(id)).toBe(0);

    // Another person is not held back by it; an hour later, neither is this one.
    const other = await person();
    expect((await uploadAvatar(other.client, await pngImage(10, 10, '#000'))).status).toBe(200);
    await clock.later(HOUR_MS + 1000, async () => {
      expect((await uploadAvatar(client, await pngImage(10, 10, '#000'))).status).toBe(200);
    });
  });
});
