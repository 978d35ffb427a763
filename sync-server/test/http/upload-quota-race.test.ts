import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import { encodeImage, readImageHeader } from '../../src/accounts/image-decoding';
import { AVATAR_SIZE_PX, UPLOAD_QUOTA_BYTES } from '../../src/accounts/profile-service';
import { errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { importFile, pipitFileWithImages, postRaw, uploadImage } from '../support/portable';
import { createApp, definitionOf, verifyEmail } from '../support/publishing';

/**
 * Found by a review: the 20 MB upload quota was a check, then an insert, with nothing
 * held between them — each request read the bytes used, decoded its image, and inserted. Requests
 * sent together all read the same bytes used and all passed: 24 uploads at once kept ~67 MB, 4
 * imports at once ~67 MB, on both engines. The quota's final say is now one transaction per
 * person that holds their row, sums their uploads and inserts only what fits
 * (UploadStore.insertWithinQuota; commitImport checks it where it writes), so requests sent
 * together take turns. The early checks, before decoding, are unchanged.
 *
 * Every image here is the same noise (it does not compress), so each is kept at the same size,
 * `kept` bytes, measured with the server's own encoder: the room left before each race is a
 * known number of images, and exactly that many are stored.
 */

const side = 512;
const AVATAR_SIDE = 256;

async function noiseJpeg(width: number, quality: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(randomBytes(width * width * 3), { raw: { width, height: width, channels: 3 } })
      .jpeg({ quality })
      .toBuffer(),
  );
}

/** The bytes the server keeps of `bytes`, as an app's image or as an avatar. */
async function keptSize(bytes: Uint8Array, avatar = false): Promise<number> {
  const header = await readImageHeader(bytes);
  if ('problem' in header) throw new Error(header.problem);
  const kept = await encodeImage(
    bytes,
    header,
    avatar ? { side: AVATAR_SIZE_PX, fit: 'cover' } : undefined,
  );
  return kept.bytes.byteLength;
}

const quotaWords = /past the 20 MB of your plan/;

describe.each(ENGINES)('the upload quota under requests sent together (%s)', (engine) => {
  let h: AccountsHarness;
  /** A noise photo: what is sent is smaller than the `kept` bytes the server keeps of it. */
  let photo: Uint8Array;
  let kept: number;
  /** ~17 KB sent, `avatarKept` (~40 KB) kept: more than is sent, so only the last check counts. */
  let avatar: Uint8Array;
  let avatarKept: number;
  let n = 0;

  const storage = () => h.pipit.server.storage;
  const person = async () => {
    const username = `quota_${engine}_${n++}`;
    const client = await h.signup(username);
    const id = await verifyEmail(h, client);
    return { client, id, username };
  };
  /** Leaves `room` bytes of `userId`'s quota free, with an upload no request touches. */
  const fillAllBut = async (userId: string, room: number) => {
    await storage().uploads.insert({
      id: createId(),
      userId,
      contentType: 'image/webp',
      bytes: new Uint8Array(UPLOAD_QUOTA_BYTES - room),
      createdAt: Date.now(),
    });
  };
  const used = (userId: string) => storage().uploads.totalBytesForUser(userId);

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    photo = await noiseJpeg(side, 75);
    kept = await keptSize(photo);
    avatar = await noiseJpeg(AVATAR_SIDE, 30);
    avatarKept = await keptSize(avatar, true);
  }, 60_000);
  afterAll(() => h.close());

  it('8 uploads at once with room for 2: exactly 2 are kept, the others refused as over quota', async () => {
    expect(photo.byteLength).toBeLessThan(2.5 * kept);
    const { client, id } = await person();
    const appId = await createApp(h, client, definitionOf({ title: 'Gallery' }));
    await fillAllBut(id, Math.floor(2.5 * kept));

    const answers = await Promise.all(
      Array.from({ length: 8 }, () => uploadImage(client, appId, photo, 'image/jpeg')),
    );
    const stored = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(stored).toHaveLength(2);
    for (const answer of refused) {
      expect([answer.status, errorCode(answer)]).toEqual([413, 'payload_too_large']);
      expect(answer.body.error?.message).toMatch(quotaWords);
    }
    expect(await used(id)).toBe(UPLOAD_QUOTA_BYTES - Math.floor(2.5 * kept) + 2 * kept);
    expect(await used(id)).toBeLessThanOrEqual(UPLOAD_QUOTA_BYTES);
    expect(await storage().uploads.idsForApp(appId)).toHaveLength(2);
  }, 120_000);

  it('3 imports at once with room for 1: one is made, the others refused and leave nothing', async () => {
    const { client, id } = await person();
    // Two images: ~4.8 MB in the file (the early check passes for each), 2 × kept once kept.
    const file = pipitFileWithImages(
      [photo, photo].map((bytes) => ({ contentType: 'image/jpeg' as const, bytes })),
    );
    await fillAllBut(id, 3 * kept);

    const answers = await Promise.all(
      Array.from({ length: 3 }, () => importFile(client, file, '?copy=1')),
    );
    const made = answers.filter((a) => a.status === 201);
    expect(made).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect([answer.status, errorCode(answer)]).toEqual([403, 'limit_reached']);
      expect(answer.body.error?.message).toMatch(quotaWords);
    }
    expect(await used(id)).toBe(UPLOAD_QUOTA_BYTES - 3 * kept + 2 * kept);
    // Nothing of the refused imports: one app, its two images.
    const apps = (await client.get<{ apps: Array<{ id: string }> }>('/api/apps')).body.apps;
    expect(apps.map((a) => a.id)).toEqual([made[0]!.body.apps[0]!.id]);
    expect(await storage().uploads.idsForApp(apps[0]!.id)).toHaveLength(2);
  }, 180_000);

  it('an import and an editor’s uploads at once share the owner’s room', async () => {
    const owner = await person();
    const editor = await person();
    const appId = await createApp(h, owner.client, definitionOf({ title: 'Shared' }));
    const invited = await owner.client.request(
      'PUT',
      `/api/apps/${appId}/collaborators/${editor.username}`,
      { body: { role: 'editor' } },
    );
    expect(invited.status).toBe(201);
    const file = pipitFileWithImages(
      [photo, photo].map((bytes) => ({ contentType: 'image/jpeg' as const, bytes })),
    );
    // Room for 3 images: the import (2) and the editor's 3 uploads cannot all fit.
    await fillAllBut(owner.id, 3 * kept);

    const [imported, ...uploads] = await Promise.all([
      importFile(owner.client, file),
      ...Array.from({ length: 3 }, () => uploadImage(editor.client, appId, photo, 'image/jpeg')),
    ]);
    const storedImages =
      (imported!.status === 201 ? 2 : 0) + uploads.filter((u) => u.status === 201).length;
    // Whatever came first, the room is filled and never passed.
    expect(storedImages).toBe(3);
    expect(await used(owner.id)).toBe(UPLOAD_QUOTA_BYTES);
    expect(await used(editor.id)).toBe(0);
  }, 180_000);

  it('avatars at once with room for 1: one is kept', async () => {
    // Sent smaller than kept: the check from the bytes received passes for every one of them.
    expect(avatar.byteLength).toBeLessThan(avatarKept);
    const { client, id } = await person();
    await fillAllBut(id, Math.floor(1.5 * avatarKept));

    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        postRaw<{ error?: { code: string; message: string } }>(
          client,
          '/api/account/avatar',
          avatar,
          'image/jpeg',
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect([answer.status, errorCode(answer)]).toEqual([413, 'payload_too_large']);
      expect(answer.body.error?.message).toMatch(quotaWords);
    }
    expect(await used(id)).toBe(UPLOAD_QUOTA_BYTES - Math.floor(1.5 * avatarKept) + avatarKept);
  }, 60_000);

  it('still refuses early, from the bytes received, before decoding', async () => {
    const { client, id } = await person();
    const appId = await createApp(h, client, definitionOf({ title: 'Full' }));
    await fillAllBut(id, photo.byteLength - 1);
    const pixelsBefore = await pixelsSpent(h, id);
    const answer = await uploadImage(client, appId, photo, 'image/jpeg');
    expect([answer.status, errorCode(answer)]).toEqual([413, 'payload_too_large']);
    expect(answer.body.error?.message).toMatch(quotaWords);
    // Refused before its pixels were counted, so before it was decoded.
    expect(await pixelsSpent(h, id)).toBe(pixelsBefore);
  });
});

async function pixelsSpent(h: AccountsHarness, userId: string): Promise<number> {
  const hour = 60 * 60 * 1000;
  return (
    await h.pipit.server.storage.rateLimits.peek(
      `imagePixelsPerAccount:${userId}`,
      hour,
      Date.now(),
    )
  ).count;
}
