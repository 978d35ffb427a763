import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import * as Y from 'yjs';
import { createId } from '@pipit/protocol';
import { MIGRATION_NAMES } from '../src/storage/migrations';
import { ConflictError, type Storage } from '../src/storage/types';
import { testUser } from './support/users';

export interface StorageFactory {
  /** Opens storage on the suite's database; calling it again opens the same database again. */
  open(): Promise<Storage>;
  /** Removes the suite's database. */
  destroy(): Promise<void>;
}

/**
 * One contract for every storage adapter (ENGINEERING.md: Tests). Each adapter's test file calls
 * this with a factory for its engine, so SQLite and PostgreSQL are held to the same behaviour.
 */
export function describeStorageContract(
  engine: 'sqlite' | 'postgres',
  factory: () => Promise<StorageFactory>,
) {
  describe(`storage contract: ${engine}`, () => {
    let f: StorageFactory;
    let storage: Storage;

    beforeAll(async () => {
      f = await factory();
      storage = await f.open();
    });
    afterAll(async () => {
      await storage.close();
      await f.destroy();
    });

    it('reports its engine and answers a ping', async () => {
      expect(storage.engine).toBe(engine);
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    it('applies every migration at start-up, in order', async () => {
      expect(await storage.appliedMigrations()).toEqual(MIGRATION_NAMES);
    });

    it('opens an already migrated database again without changing it', async () => {
      const again = await f.open();
      try {
        expect(await again.appliedMigrations()).toEqual(MIGRATION_NAMES);
        const name = `app/${createId()}`;
        await storage.documents.store(name, new Uint8Array([1, 2, 3]));
        expect(await again.documents.load(name)).toEqual(new Uint8Array([1, 2, 3]));
      } finally {
        await again.close();
      }
    });

    describe('documents', () => {
      it('loads null for a document never stored', async () => {
        expect(await storage.documents.load(`app/${createId()}`)).toBeNull();
      });

      it('round-trips a Yjs state exactly, as a plain Uint8Array', async () => {
        const doc = new Y.Doc();
        doc.getMap('meta').set('title', 'Habits');
        doc.getArray('screens').push(['home', 'stats']);
        const state = Y.encodeStateAsUpdate(doc);
        const name = `app/${createId()}`;
        await storage.documents.store(name, state);

        const loaded = await storage.documents.load(name);
        expect(loaded).toBeInstanceOf(Uint8Array);
        expect(loaded?.constructor).toBe(Uint8Array);
        expect(loaded).toEqual(state);
        const copy = new Y.Doc();
        Y.applyUpdate(copy, loaded!);
        expect(copy.getMap('meta').get('title')).toBe('Habits');
        expect(copy.getArray('screens').toArray()).toEqual(['home', 'stats']);
      });

      it('replaces the stored state on every store', async () => {
        const name = `user/${createId()}`;
        await storage.documents.store(name, new Uint8Array([1]));
        await storage.documents.store(name, new Uint8Array([2, 2]));
        expect(await storage.documents.load(name)).toEqual(new Uint8Array([2, 2]));
      });

      it('keeps documents apart by their exact name', async () => {
        const appId = createId();
        const userId = createId();
        await storage.documents.store(`data/${appId}/${userId}`, new Uint8Array([7]));
        await storage.documents.store(`app/${appId}`, new Uint8Array([8]));
        expect(await storage.documents.load(`data/${appId}/${userId}`)).toEqual(
          new Uint8Array([7]),
        );
        expect(await storage.documents.load(`app/${appId}`)).toEqual(new Uint8Array([8]));
        expect(await storage.documents.load(`data/${appId}`)).toBeNull();
      });

      it('stores a 5 MB document (the definition size limit) intact', async () => {
        const big = new Uint8Array(5 * 1024 * 1024);
        for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 255;
        const name = `app/${createId()}`;
        await storage.documents.store(name, big);
        const loaded = await storage.documents.load(name);
        expect(loaded?.length).toBe(big.length);
        expect(Buffer.compare(Buffer.from(loaded!), Buffer.from(big))).toBe(0);
      });

      it('keeps every one of many concurrent stores to different documents', async () => {
        const names = Array.from({ length: 40 }, () => `app/${createId()}`);
        await Promise.all(names.map((n, i) => storage.documents.store(n, new Uint8Array([i]))));
        const loaded = await Promise.all(names.map((n) => storage.documents.load(n)));
        expect(loaded).toEqual(names.map((_, i) => new Uint8Array([i])));
      });

      it('keeps one whole state after concurrent stores to one document, never a mix', async () => {
        const name = `app/${createId()}`;
        for (let round = 0; round < 5; round++) {
          await Promise.all(
            [1, 2, 3].map((v) => storage.documents.store(name, new Uint8Array([v]))),
          );
          const value = (await storage.documents.load(name))?.[0];
          expect([1, 2, 3]).toContain(value);
        }
      });

      it('deletes a document', async () => {
        const name = `app/${createId()}`;
        await storage.documents.store(name, new Uint8Array([1]));
        await storage.documents.delete(name);
        expect(await storage.documents.load(name)).toBeNull();
        await expect(storage.documents.delete(name)).resolves.toBeUndefined();
      });
    });

    describe('users', () => {
      it('inserts a user with defaults and finds them by username, case-insensitively', async () => {
        const input = testUser({ username: 'Ada_Lovelace' });
        const created = await storage.users.insert({ ...input, createdAt: 1_700_000_000_000 });
        expect(created).toMatchObject({
          id: input.id,
          username: 'ada_lovelace',
          displayName: 'Ada_Lovelace',
          bio: '',
          links: [],
          pinnedAppIds: [],
          emailVerifiedAt: null,
          createdAt: 1_700_000_000_000,
          deletedAt: null,
        });
        expect(created.avatar.kind).toBe('emoji');

        const found = await storage.users.findByUsername('ADA_LOVELACE');
        expect(found).toEqual(created);
        expect(typeof found?.createdAt).toBe('number');
      });

      it('keeps profile fields as given', async () => {
        const input = {
          ...testUser(),
          displayName: 'Grace',
          bio: 'Builds compilers.\nAnd apps.',
          avatar: { kind: 'emoji' as const, emoji: '🦉', color: '#123456' },
          links: [{ label: 'Site', url: 'https://example.org/grace' }],
        };
        await storage.users.insert(input);
        const found = await storage.users.findByUsername(input.username);
        expect(found).toMatchObject({
          displayName: 'Grace',
          bio: 'Builds compilers.\nAnd apps.',
          avatar: input.avatar,
          links: input.links,
        });
      });

      it('answers null for an unknown username', async () => {
        expect(await storage.users.findByUsername('nobody_here')).toBeNull();
      });

      it('refuses a taken username, whatever its case, naming the field and changing nothing', async () => {
        const first = testUser({ username: 'taken_name' });
        await storage.users.insert(first);
        const attempt = storage.users.insert(testUser({ username: 'TAKEN_NAME' }));
        await expect(attempt).rejects.toBeInstanceOf(ConflictError);
        await expect(attempt).rejects.toMatchObject({ field: 'username' });
        expect((await storage.users.findByUsername('taken_name'))?.id).toBe(first.id);
      });

      it('refuses a taken email, whatever its case', async () => {
        await storage.users.insert(testUser({ email: 'same@example.org' }));
        await expect(
          storage.users.insert(testUser({ email: 'Same@Example.org' })),
        ).rejects.toMatchObject({ field: 'email' });
      });
    });
  });
}
