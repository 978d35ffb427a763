import { describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import {
  ConflictError,
  type ImportedApp,
  type Storage,
  type UploadRecord,
} from '../../src/storage/types';
import { insertUser } from '../support/users';

/**
 * Uploads: the quota held per person where it is written, and ids never used twice (a
 * reviewer's upload-quota-race and upload-id-reuse probes). storage-contract.ts runs it on
 * both engines.
 */
export function describeUploadsContract(storage: () => Storage) {
  const upload = (userId: string, size: number, overrides: Partial<UploadRecord> = {}) => ({
    id: createId(),
    userId,
    contentType: 'image/webp',
    bytes: new Uint8Array(size).fill(7),
    createdAt: 1,
    ...overrides,
  });

  const importedApp = (ownerId: string, imageBytes: number[]): ImportedApp => {
    const id = createId();
    return {
      id,
      ownerId,
      title: 'Imported',
      description: '',
      icon: null,
      tags: [],
      createdAt: 1,
      source: { appId: id, exportId: createId(), origin: 'https://elsewhere.example' },
      documents: [],
      versions: [],
      checkpoints: [],
      images: imageBytes.map((size) => ({
        id: createId(),
        contentType: 'image/webp',
        bytes: new Uint8Array(size),
      })),
    };
  };

  describe('uploads: quota and ids', () => {
    it('stores within the quota only, counting what is there', async () => {
      const s = storage();
      const user = await insertUser(s);
      await s.uploads.insert(upload(user.id, 600));
      const fits = upload(user.id, 400);
      expect(await s.uploads.insertWithinQuota(fits, 1_000)).toBe(true);
      expect(await s.uploads.get(fits.id)).toMatchObject({ userId: user.id });
      const over = upload(user.id, 1);
      expect(await s.uploads.insertWithinQuota(over, 1_000)).toBe(false);
      expect(await s.uploads.get(over.id)).toBeNull();
      expect(await s.uploads.totalBytesForUser(user.id)).toBe(1_000);
      // Refused, it never used its id: it can be stored later.
      expect(await s.portable.takenUploadIds([over.id])).toEqual(new Set());
    });

    it('lets requests sent together store no more than the quota holds', async () => {
      const s = storage();
      const user = await insertUser(s);
      const other = await insertUser(s);
      await s.uploads.insert(upload(user.id, 250));
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          s.uploads.insertWithinQuota(upload(i % 4 === 0 ? other.id : user.id, 100), 1_000),
        ),
      );
      // 18 of the person's: 7 fit beside the 250 bytes; 6 of the other's: all fit.
      expect(results.filter(Boolean)).toHaveLength(7 + 6);
      expect(await s.uploads.totalBytesForUser(user.id)).toBe(950);
      expect(await s.uploads.totalBytesForUser(other.id)).toBe(600);
    });

    it('never gives a deleted upload’s id to other bytes', async () => {
      const s = storage();
      const user = await insertUser(s);
      const app = createId();
      await s.apps.insert({
        id: app,
        ownerId: user.id,
        title: 'Gone',
        description: '',
        icon: null,
        createdAt: 1,
      });
      const byHand = upload(user.id, 3);
      const ofApp = upload(user.id, 3, { appId: app });
      const ofAccount = upload(user.id, 3);
      const live = upload(user.id, 3);
      for (const u of [byHand, ofApp, ofAccount]) await s.uploads.insert(u);
      await s.uploads.delete(byHand.id);
      await s.apps.delete(app, 2);
      expect(await s.uploads.get(ofApp.id)).toBeNull();
      await s.uploads.deleteForUser(user.id);
      expect(await s.uploads.get(ofAccount.id)).toBeNull();
      expect(await s.uploads.insertWithinQuota(live, 1_000)).toBe(true);

      const fresh = createId();
      expect(
        await s.portable.takenUploadIds([byHand.id, ofApp.id, ofAccount.id, live.id, fresh]),
      ).toEqual(new Set([byHand.id, ofApp.id, ofAccount.id, live.id]));
      // Storing one of them again is refused, with either insert.
      const someoneElse = await insertUser(s);
      await expect(
        s.uploads.insert(upload(someoneElse.id, 3, { id: byHand.id })),
      ).rejects.toThrow();
      await expect(
        s.uploads.insertWithinQuota(upload(someoneElse.id, 3, { id: ofApp.id }), 1_000),
      ).rejects.toThrow();
      expect(await s.uploads.get(byHand.id)).toBeNull();
      expect(await s.uploads.get(ofApp.id)).toBeNull();
    });

    it('commits an import only when its images fit the owner’s quota, checked where it writes', async () => {
      const s = storage();
      const user = await insertUser(s);
      await s.uploads.insert(upload(user.id, 500));
      const tooMuch = importedApp(user.id, [300, 300]);
      expect(
        await s.portable.commitImport([tooMuch], 2, { quotaBytes: 1_000, maxApps: 25 }),
      ).toEqual({
        committed: false,
        ownerId: user.id,
        usedBytes: 500,
      });
      expect(await s.apps.get(tooMuch.id)).toBeNull();
      expect(await s.portable.takenAppIds([tooMuch.id])).toEqual(new Set());
      expect(await s.portable.takenUploadIds(tooMuch.images.map((image) => image.id))).toEqual(
        new Set(),
      );

      const fits = importedApp(user.id, [250, 250]);
      expect(await s.portable.commitImport([fits], 2, { quotaBytes: 1_000, maxApps: 25 })).toEqual({
        committed: true,
      });
      expect(await s.uploads.idsForApp(fits.id)).toHaveLength(2);
      expect(await s.uploads.totalBytesForUser(user.id)).toBe(1_000);

      // Imports sent together: one fits.
      const other = await insertUser(s);
      const outcomes = await Promise.all(
        [0, 1, 2].map(() =>
          s.portable.commitImport([importedApp(other.id, [400])], 3, {
            quotaBytes: 1_000,
            maxApps: 25,
          }),
        ),
      );
      expect(outcomes.filter((o) => o.committed)).toHaveLength(2);
      expect(await s.uploads.totalBytesForUser(other.id)).toBe(800);
    });

    it('refuses an import whose image id was ever used here', async () => {
      const s = storage();
      const user = await insertUser(s);
      const gone = upload(user.id, 3);
      await s.uploads.insert(gone);
      await s.uploads.delete(gone.id);
      const app = importedApp(user.id, [3]);
      app.images[0]!.id = gone.id;
      await expect(
        s.portable.commitImport([app], 2, { quotaBytes: 1_000, maxApps: 25 }),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(await s.apps.get(app.id)).toBeNull();
      expect(await s.uploads.get(gone.id)).toBeNull();
    });
  });
}
