import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import type { RecordFileRecord, Storage } from '../../src/storage/types';
import { insertUser } from '../support/users';

const hashOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Photos and files on records: kept once per scope under their hash, within the quota owner's
 * plan (counted with their uploads) and the scope's count, deleted with their app, space or
 * person. storage-contract.ts runs it on both engines.
 */
export function describeRecordFilesContract(storage: () => Storage) {
  const file = (
    ownerId: string,
    size: number,
    overrides: Partial<RecordFileRecord> = {},
  ): RecordFileRecord => {
    const bytes = new Uint8Array(size).map(() => Math.floor(Math.random() * 256));
    const appId = overrides.appId ?? createId();
    return {
      scope: `data/${appId}/${ownerId}`,
      hash: hashOf(bytes),
      appId,
      spaceId: null,
      ownerId,
      uploadedBy: ownerId,
      kind: 'file',
      contentType: 'application/pdf',
      bytes,
      thumbnail: null,
      width: null,
      height: null,
      createdAt: 10,
      ...overrides,
    };
  };
  const limits = { quotaBytes: 1_000, perScope: 3 };

  describe('record files', () => {
    it('stores a file once per scope, byte for byte, and answers the same file again', async () => {
      const s = storage();
      const user = await insertUser(s);
      const thumbnail = new Uint8Array([1, 2, 3]);
      const photo = file(user.id, 100, { kind: 'image', thumbnail, width: 4, height: 3 });
      const first = await s.recordFiles.insertWithinQuota(photo, limits);
      expect(first).toMatchObject({ outcome: 'stored', file: { size: 103, kind: 'image' } });
      const again = await s.recordFiles.insertWithinQuota({ ...photo, createdAt: 99 }, limits);
      expect(again).toMatchObject({ outcome: 'existing', file: { size: 103, createdAt: 10 } });
      const stored = await s.recordFiles.get(photo.scope, photo.hash);
      expect(stored?.bytes).toEqual(photo.bytes);
      expect(stored?.thumbnail).toEqual(thumbnail);
      expect(stored).toMatchObject({ width: 4, height: 3, ownerId: user.id, spaceId: null });
      // The same bytes in another scope are another file.
      expect(await s.recordFiles.get(`data/${createId()}/${user.id}`, photo.hash)).toBeNull();
      expect(await s.uploads.totalBytesForUser(user.id)).toBe(103);
    });

    it('counts files with the person’s uploads against one quota', async () => {
      const s = storage();
      const user = await insertUser(s);
      await s.uploads.insert({
        id: createId(),
        userId: user.id,
        contentType: 'image/webp',
        bytes: new Uint8Array(600),
        createdAt: 1,
      });
      const fits = file(user.id, 400);
      expect((await s.recordFiles.insertWithinQuota(fits, limits)).outcome).toBe('stored');
      const over = file(user.id, 1);
      expect(await s.recordFiles.insertWithinQuota(over, limits)).toEqual({
        outcome: 'over_quota',
      });
      expect(await s.recordFiles.info(over.scope, over.hash)).toBeNull();
      // An app image counts the files too.
      expect(
        await s.uploads.insertWithinQuota(
          {
            id: createId(),
            userId: user.id,
            contentType: 'image/webp',
            bytes: new Uint8Array(1),
            createdAt: 1,
          },
          1_000,
        ),
      ).toBe(false);
    });

    it('lets files sent together keep no more than the quota holds', async () => {
      const s = storage();
      const user = await insertUser(s);
      const appId = createId();
      const results = await Promise.all(
        Array.from({ length: 16 }, () =>
          s.recordFiles.insertWithinQuota(file(user.id, 100, { appId }), {
            quotaBytes: 1_000,
            perScope: 100,
          }),
        ),
      );
      expect(results.filter((r) => r.outcome === 'stored')).toHaveLength(10);
      expect(await s.uploads.totalBytesForUser(user.id)).toBe(1_000);
    });

    it('keeps at most perScope files in one scope', async () => {
      const s = storage();
      const user = await insertUser(s);
      const appId = createId();
      for (let i = 0; i < 3; i++) {
        expect(
          (await s.recordFiles.insertWithinQuota(file(user.id, 10, { appId }), limits)).outcome,
        ).toBe('stored');
      }
      expect(await s.recordFiles.insertWithinQuota(file(user.id, 10, { appId }), limits)).toEqual({
        outcome: 'scope_full',
      });
      // Another app's scope has room.
      expect((await s.recordFiles.insertWithinQuota(file(user.id, 10), limits)).outcome).toBe(
        'stored',
      );
    });

    it('pages through files stored before a time, and deletes by scope and hash', async () => {
      const s = storage();
      const user = await insertUser(s);
      const appId = createId();
      const files = [5, 6, 7, 8].map((createdAt) => file(user.id, 10, { appId, createdAt }));
      for (const f of files)
        await s.recordFiles.insertWithinQuota(f, { quotaBytes: 1e6, perScope: 10 });
      const mine = <T extends { scope: string }>(page: T[]) =>
        page.filter((f) => f.scope === files[0]!.scope);
      const first = mine(await s.recordFiles.storedBefore(8, 1_000));
      expect(first.map((f) => f.createdAt)).toEqual([5, 6, 7]);
      const after = mine(await s.recordFiles.storedBefore(8, 1_000, first[0]));
      expect(after.map((f) => f.createdAt)).toEqual([6, 7]);
      expect(await s.recordFiles.delete(files[0]!.scope, [files[0]!.hash, files[1]!.hash])).toBe(2);
      expect(await s.recordFiles.delete(files[0]!.scope, [])).toBe(0);
      expect((await s.recordFiles.listForScope(files[0]!.scope)).map((f) => f.createdAt)).toEqual([
        7, 8,
      ]);
    });

    it('deletes an app’s, a space’s and a person’s files, and no one else’s', async () => {
      const s = storage();
      const user = await insertUser(s);
      const other = await insertUser(s);
      const appId = createId();
      const spaceId = createId();
      const big = { quotaBytes: 1e6, perScope: 10 };
      const own = file(user.id, 10, { appId });
      const otherApp = file(user.id, 10);
      const inSpace = file(user.id, 10, { appId, spaceId, scope: `space/${spaceId}` });
      const othersOwn = file(other.id, 10, { appId });
      for (const f of [own, otherApp, inSpace, othersOwn])
        await s.recordFiles.insertWithinQuota(f, big);
      await s.recordFiles.deleteForSpace(spaceId);
      expect(await s.recordFiles.info(inSpace.scope, inSpace.hash)).toBeNull();
      expect(await s.recordFiles.info(own.scope, own.hash)).not.toBeNull();
      await s.recordFiles.deleteForApp(appId);
      expect(await s.recordFiles.info(own.scope, own.hash)).toBeNull();
      expect(await s.recordFiles.info(othersOwn.scope, othersOwn.hash)).toBeNull();
      expect(await s.recordFiles.info(otherApp.scope, otherApp.hash)).not.toBeNull();
      const otherSpace = file(user.id, 10, { spaceId: createId(), scope: `space/${createId()}` });
      await s.recordFiles.insertWithinQuota(otherSpace, big);
      await s.recordFiles.deleteForPersonData(user.id);
      expect(await s.recordFiles.info(otherApp.scope, otherApp.hash)).toBeNull();
      // A space's files stay with the space.
      expect(await s.recordFiles.info(otherSpace.scope, otherSpace.hash)).not.toBeNull();
    });
  });
}
