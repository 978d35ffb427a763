import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import * as Y from 'yjs';
import { createId } from '@pipit/protocol';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import { ConflictError, NotFoundError, type Storage } from '../../src/storage/types';
import { describeHistoryContract } from './storage-contract-history';
import { describeSpacesContract } from './storage-contract-spaces';
import { describeUploadsContract } from './storage-contract-uploads';
import { describeRecordFilesContract } from './storage-contract-record-files';
import { describePublishingContract } from './storage-contract-publishing';
import { describePushSubscriptionsContract } from './storage-contract-push';
import { describeSpaceActivityContract } from './storage-contract-space-activity';
import { describeOperationsContract } from './storage-contract-operations';
import { describeTogetherContract } from './storage-contract-together';
import { testUser } from '../support/users';

export interface StorageFactory {
  /** Opens storage on the suite's database; calling it again opens the same database again. */
  open(): Promise<Storage>;
  /** Removes the suite's database. */
  destroy(): Promise<void>;
}

/**
 * One contract for every storage adapter (docs/README.md#conventions). Each adapter's test file
 * calls this with a factory for its engine, so SQLite and PostgreSQL are held to the same
 * behaviour.
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

      it('reads a snapshot and its log as one moment, however often it is compacted meanwhile', async () => {
        // The writer appends an update, then folds it into the snapshot and drops it from the log
        // (what persistence does); the readers must see every update appended before they began,
        // in the snapshot or in the log, never in neither.
        const name = `app/${createId()}`;
        const writerDoc = new Y.Doc();
        const items = writerDoc.getArray<number>('items');
        let appended = 0;
        let stop = false;
        const writer = (async () => {
          for (let i = 1; i <= 150 && !stop; i++) {
            let update: Uint8Array | null = null;
            const capture = (u: Uint8Array) => (update = u);
            writerDoc.once('update', capture);
            items.push([i]);
            await storage.documents.append([{ name, update: update! }]);
            appended = i;
            await storage.documents.compact(name, () => Y.encodeStateAsUpdate(writerDoc));
          }
        })();
        let reads = 0;
        const reader = async () => {
          while (appended < 150) {
            const before = appended;
            const { snapshot, log } = await storage.documents.loadWithLog(name);
            const seen = new Y.Doc();
            if (snapshot) Y.applyUpdate(seen, snapshot);
            for (const entry of log) Y.applyUpdate(seen, entry.update);
            expect(seen.getArray('items').length).toBeGreaterThanOrEqual(before);
            reads++;
          }
        };
        try {
          await Promise.all([writer, reader(), reader()]);
        } finally {
          stop = true;
        }
        expect(reads).toBeGreaterThan(0);
      });

      it('folds the snapshot and every logged update into one snapshot, and drops exactly those', async () => {
        const name = `app/${createId()}`;
        const source = new Y.Doc();
        const updates: Uint8Array[] = [];
        source.on('update', (u: Uint8Array) => updates.push(u));
        source.getArray<number>('items').push([1]);
        await storage.documents.store(name, Y.encodeStateAsUpdate(source));
        source.getArray<number>('items').push([2]);
        source.getArray<number>('items').push([3]);
        await storage.documents.append(updates.slice(1).map((update) => ({ name, update })));
        let seen: { snapshot: boolean; log: number } | undefined;
        const live = new Y.Doc();
        expect(
          await storage.documents.compact(name, (stored) => {
            seen = { snapshot: stored.snapshot !== null, log: stored.log.length };
            if (stored.snapshot) Y.applyUpdate(live, stored.snapshot);
            for (const { update } of stored.log) Y.applyUpdate(live, update);
            return Y.encodeStateAsUpdate(live);
          }),
        ).toHaveLength(2);
        expect(seen).toEqual({ snapshot: true, log: 2 });
        const after = await storage.documents.loadWithLog(name);
        expect(after.log).toEqual([]);
        const reread = new Y.Doc();
        Y.applyUpdate(reread, after.snapshot!);
        expect(reread.getArray('items').toArray()).toEqual([1, 2, 3]);
      });

      it('does not read back the logged updates the caller holds, and drops them with the rest', async () => {
        const name = `app/${createId()}`;
        const source = new Y.Doc();
        const updates: Uint8Array[] = [];
        source.on('update', (u: Uint8Array) => updates.push(u));
        for (const item of [1, 2, 3]) source.getArray<number>('items').push([item]);
        const seqs = await storage.documents.append(updates.map((update) => ({ name, update })));
        let read: number[] = [];
        const dropped = await storage.documents.compact(
          name,
          (stored) => {
            read = stored.log.map((entry) => entry.seq);
            return Y.encodeStateAsUpdate(source);
          },
          { held: (seq) => seq !== seqs[1] },
        );
        expect(read).toEqual([seqs[1]]);
        expect(dropped).toEqual(seqs);
        expect((await storage.documents.loadWithLog(name)).log).toEqual([]);
      });

      it('loses no edit when two instances compact one document at once, however they interleave', async () => {
        // Two instances, each with its own clients' edits in memory and in the log (on PostgreSQL
        // through two connection pools; SQLite serves one process, so both share its connection);
        // each folds what is stored into its own copy and writes it. Whatever the order, storage
        // ends with every edit of both.
        const name = `app/${createId()}`;
        const other = engine === 'postgres' ? await f.open() : storage;
        try {
          const instance = async (store: Storage, tag: string) => {
            const doc = new Y.Doc();
            for (let i = 0; i < 40; i++) {
              let update: Uint8Array | null = null;
              doc.once('update', (u: Uint8Array) => (update = u));
              doc.getArray<string>('items').push([`${tag}${i}`]);
              await store.documents.append([{ name, update: update! }]);
              if (i % 3 === 0) {
                await store.documents.compact(name, (stored) => {
                  if (stored.snapshot) Y.applyUpdate(doc, stored.snapshot);
                  for (const { update: logged } of stored.log) Y.applyUpdate(doc, logged);
                  return Y.encodeStateAsUpdate(doc);
                });
              }
            }
          };
          await Promise.all([instance(storage, 'a'), instance(other, 'b')]);
        } finally {
          if (other !== storage) await other.close();
        }
        const { snapshot, log } = await storage.documents.loadWithLog(name);
        const all = new Y.Doc();
        if (snapshot) Y.applyUpdate(all, snapshot);
        for (const { update } of log) Y.applyUpdate(all, update);
        const items = all.getArray<string>('items').toArray();
        expect(items).toHaveLength(80);
        expect(new Set(items).size).toBe(80);
      });

      it('never stores a document of a deleted app or person again', async () => {
        const owner = await storage.users.insert(testUser());
        const appId = createId();
        await storage.apps.insert({
          id: appId,
          ownerId: owner.id,
          title: 'Gone',
          description: '',
          icon: null,
          createdAt: 1,
        });
        const fold = () => new Uint8Array([0, 0]);
        const name = `data/${appId}/${owner.id}`;
        expect(
          await storage.documents.compact(name, fold, { owner: { appId, userId: owner.id } }),
        ).toEqual([]);
        await storage.documents.delete(name);
        await storage.apps.delete(appId, 2);
        expect(await storage.documents.compact(name, fold, { owner: { appId } })).toBeNull();
        expect(await storage.documents.load(name)).toBeNull();

        const person = await storage.users.insert(testUser());
        await storage.users.markDeleted(person.id, 3);
        const index = `user/${person.id}`;
        expect(
          await storage.documents.compact(index, fold, { owner: { userId: person.id } }),
        ).toBeNull();
        expect(await storage.documents.load(index)).toBeNull();
      });

      it('deletes a document', async () => {
        const name = `app/${createId()}`;
        await storage.documents.store(name, new Uint8Array([1]));
        await storage.documents.delete(name);
        expect(await storage.documents.load(name)).toBeNull();
        await expect(storage.documents.delete(name)).resolves.toBeUndefined();
      });

      it('deletes the visitor data of one app, or of one person, with their logs, and nothing else', async () => {
        const [app1, app2, ada, bo] = [createId(), createId(), createId(), createId()];
        const names = {
          app1: `app/${app1}`,
          ada1: `data/${app1}/${ada}`,
          bo1: `data/${app1}/${bo}`,
          ada2: `data/${app2}/${ada}`,
          bo2: `data/${app2}/${bo}`,
          adaIndex: `user/${ada}`,
          draft1: `draft/${app1}/${bo}`,
        };
        for (const name of Object.values(names)) {
          await storage.documents.store(name, new Uint8Array([1]));
          await storage.documents.append([{ name, update: new Uint8Array([2]) }]);
        }
        const left = async () => {
          const kept: string[] = [];
          for (const [key, name] of Object.entries(names)) {
            const { snapshot, log } = await storage.documents.loadWithLog(name);
            if (snapshot || log.length > 0) kept.push(key);
          }
          return kept;
        };
        await storage.documents.deleteData({ appId: app1 });
        expect(await left()).toEqual(['app1', 'ada2', 'bo2', 'adaIndex', 'draft1']);
        await storage.documents.deleteData({ userId: ada });
        expect(await left()).toEqual(['app1', 'bo2', 'adaIndex', 'draft1']);
        // Not an id: refused, nothing deleted (a pattern could otherwise match everything).
        await expect(storage.documents.deleteData({ userId: '%' })).rejects.toThrow(/Not an id/);
        await expect(storage.documents.deleteData({ draftsOf: '%' })).rejects.toThrow(/Not an id/);
        expect(await left()).toEqual(['app1', 'bo2', 'adaIndex', 'draft1']);
        await storage.documents.deleteData({ draftsOf: app1 });
        expect(await left()).toEqual(['app1', 'bo2', 'adaIndex']);
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

    describe('accounts', () => {
      it('finds a live account by id and by email, case-insensitively', async () => {
        const user = await storage.users.insert(testUser({ email: 'Grace.H@Example.org' }));
        expect((await storage.users.findById(user.id))?.username).toBe(user.username);
        expect((await storage.users.findByEmail('grace.h@example.ORG'))?.id).toBe(user.id);
        expect(await storage.users.findById('nope')).toBeNull();
      });

      it('updates the given fields only, and refuses a taken username', async () => {
        const a = await storage.users.insert(testUser());
        const b = await storage.users.insert(testUser());
        const updated = await storage.users.update(a.id, {
          displayName: 'New name',
          emailVerifiedAt: 1_700_000_000_000,
          links: [{ label: 'Site', url: 'https://example.org' }],
        });
        expect(updated).toMatchObject({
          displayName: 'New name',
          emailVerifiedAt: 1_700_000_000_000,
          username: a.username,
          bio: a.bio,
        });
        await expect(
          storage.users.update(a.id, { username: b.username.toUpperCase() }),
        ).rejects.toMatchObject({
          field: 'username',
        });
        expect((await storage.users.findById(a.id))?.username).toBe(a.username);
      });

      it('changes nothing, with no statement, when a patch sets no field', async () => {
        const a = await storage.users.insert(testUser({ bio: 'unchanged' }));
        expect(await storage.users.update(a.id, {})).toMatchObject({ id: a.id, bio: 'unchanged' });
        await storage.users.markDeleted(a.id, 1_000);
        await expect(storage.users.update(a.id, {})).rejects.toBeInstanceOf(NotFoundError);
      });

      it('deletes an account: gone, email free at once, username held until released', async () => {
        const user = await storage.users.insert(
          testUser({ email: 'leaving@example.org', displayName: 'Leaving', bio: 'bye' }),
        );
        await storage.users.markDeleted(user.id, 1_000);
        expect(await storage.users.findByUsername(user.username)).toBeNull();
        expect(await storage.users.findById(user.id)).toBeNull();
        await expect(storage.users.update(user.id, { bio: 'x' })).rejects.toBeInstanceOf(
          NotFoundError,
        );

        // The email can be used again right away; the username cannot, yet.
        await storage.users.insert(testUser({ email: 'leaving@example.org' }));
        await expect(
          storage.users.insert(testUser({ username: user.username })),
        ).rejects.toMatchObject({
          field: 'username',
        });
        expect(await storage.users.usernameInUse(user.username.toUpperCase())).toBe(true);
        expect(await storage.users.releaseUsername(user.username, 999)).toBe(false);
        expect(await storage.users.releaseUsername(user.username, 1_000)).toBe(true);
        expect(await storage.users.usernameInUse(user.username)).toBe(false);
        const successor = await storage.users.insert(testUser({ username: user.username }));
        expect((await storage.users.findByUsername(user.username))?.id).toBe(successor.id);
        // A live account's username is never released.
        expect(await storage.users.releaseUsername(successor.username, Date.now())).toBe(false);
      });
    });

    describe('username holds', () => {
      it('holds a renamed account’s old username like a deleted one’s, until released', async () => {
        const renamed = await storage.users.insert(testUser());
        const old = renamed.username;
        const now = `${old}_now`;
        await storage.users.update(renamed.id, { username: now }, 5_000);
        expect(await storage.users.findByUsername(old)).toBeNull();

        // Nobody else can take the old name, by signing up or by renaming, while it is held.
        await expect(storage.users.insert(testUser({ username: old }))).rejects.toMatchObject({
          field: 'username',
        });
        const other = await storage.users.insert(testUser());
        await expect(
          storage.users.update(other.id, { username: old.toUpperCase() }, 6_000),
        ).rejects.toMatchObject({ field: 'username' });
        expect((await storage.users.findById(other.id))?.username).toBe(other.username);
        expect(await storage.users.usernameInUse(old)).toBe(true);
        // …but it is still theirs to take back.
        expect(await storage.users.usernameInUse(old, renamed.id)).toBe(false);

        expect(await storage.users.releaseUsername(old, 4_999)).toBe(false);
        expect(await storage.users.releaseUsername(old, 5_000)).toBe(true);
        expect(await storage.users.usernameInUse(old)).toBe(false);
        await storage.users.update(other.id, { username: old }, 7_000);
        expect((await storage.users.findByUsername(old))?.id).toBe(other.id);
        // The name `other` gave up is held in turn; the renamed account keeps its new one.
        expect(await storage.users.usernameInUse(other.username)).toBe(true);
        expect((await storage.users.findByUsername(now))?.id).toBe(renamed.id);
      });

      it('lets an account take back a name it gave up, holding the one it leaves', async () => {
        const user = await storage.users.insert(testUser());
        const first = user.username;
        await storage.users.update(user.id, { username: `${first}_2` }, 1_000);
        await storage.users.update(user.id, { username: first }, 2_000);
        expect((await storage.users.findByUsername(first))?.id).toBe(user.id);
        expect(await storage.users.usernameInUse(`${first}_2`)).toBe(true);
        expect(await storage.users.releaseUsername(`${first}_2`, 1_999)).toBe(false);
        // Its hold on the first name ended when it took it back.
        expect(await storage.users.releaseUsername(first, Number.MAX_SAFE_INTEGER)).toBe(false);
      });

      it('holds nothing when a profile change keeps the username', async () => {
        const user = await storage.users.insert(testUser());
        await storage.users.update(user.id, { username: user.username, bio: 'same name' }, 1_000);
        expect(await storage.users.releaseUsername(user.username, Number.MAX_SAFE_INTEGER)).toBe(
          false,
        );
        expect((await storage.users.findById(user.id))?.bio).toBe('same name');
      });

      it('never lets a name be taken while its account renames away from it', async () => {
        for (let i = 0; i < 10; i++) {
          const leaving = await storage.users.insert(testUser());
          const [renamed, taken] = await Promise.allSettled([
            storage.users.update(leaving.id, { username: `${leaving.username}_new` }, 1_000),
            storage.users.insert(testUser({ username: leaving.username })),
          ]);
          expect(renamed.status).toBe('fulfilled');
          expect(taken).toMatchObject({ status: 'rejected', reason: expect.any(ConflictError) });
        }
      });

      it('lets only one of several accounts take a free name at once', async () => {
        const a = await storage.users.insert(testUser());
        const b = await storage.users.insert(testUser());
        const wanted = `${a.username}_x`;
        const results = await Promise.allSettled([
          storage.users.update(a.id, { username: wanted }, 1_000),
          storage.users.update(b.id, { username: wanted }, 1_000),
          storage.users.insert(testUser({ username: wanted })),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) {
          if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
        }
      });
    });

    describe('operators', () => {
      it('adds accounts by id once, lists them oldest first, and removes them', async () => {
        const a = await storage.users.insert(testUser());
        const b = await storage.users.insert(testUser());
        expect(await storage.operators.add(b.id, 2_000)).toBe(true);
        expect(await storage.operators.add(a.id, 1_000)).toBe(true);
        expect(await storage.operators.add(a.id, 3_000)).toBe(false);
        expect(await storage.operators.has(a.id)).toBe(true);
        const listed = (await storage.operators.list()).filter((o) =>
          [a.id, b.id].includes(o.userId),
        );
        expect(listed).toEqual([
          { userId: a.id, addedAt: 1_000 },
          { userId: b.id, addedAt: 2_000 },
        ]);
        expect(await storage.operators.remove(a.id)).toBe(true);
        expect(await storage.operators.remove(a.id)).toBe(false);
        expect(await storage.operators.has(a.id)).toBe(false);
        await storage.operators.remove(b.id);
      });
    });

    describe('sessions', () => {
      it('stores, lists newest first, touches and deletes sessions', async () => {
        const user = await storage.users.insert(testUser());
        const base = {
          userId: user.id,
          secretHash: 'h',
          expiresAt: 9e12,
          userAgent: 'UA',
          ip: '10.0.0.1',
        };
        await storage.sessions.insert({ ...base, id: 's1', createdAt: 1, lastSeenAt: 1 });
        await storage.sessions.insert({ ...base, id: 's2', createdAt: 2, lastSeenAt: 5 });
        await storage.sessions.insert({ ...base, id: 's3', createdAt: 3, lastSeenAt: 3 });
        expect((await storage.sessions.listForUser(user.id)).map((x) => x.id)).toEqual([
          's2',
          's3',
          's1',
        ]);
        await storage.sessions.touch('s1', 10);
        expect((await storage.sessions.findById('s1'))?.lastSeenAt).toBe(10);
        expect((await storage.sessions.deleteForUser(user.id, 's1')).sort()).toEqual(['s2', 's3']);
        expect((await storage.sessions.listForUser(user.id)).map((x) => x.id)).toEqual(['s1']);
        await storage.sessions.delete('s1');
        expect(await storage.sessions.findById('s1')).toBeNull();
      });

      it('reads a session with its live account in one call', async () => {
        const user = await storage.users.insert(testUser());
        const session = {
          id: 'with-user',
          userId: user.id,
          secretHash: 'h',
          createdAt: 1,
          lastSeenAt: 2,
          expiresAt: 9e12,
          userAgent: null,
          ip: null,
        };
        await storage.sessions.insert(session);
        const found = await storage.sessions.findWithUser('with-user');
        expect(found?.session).toEqual(session);
        expect(found?.user).toEqual(await storage.users.findById(user.id));
        expect(await storage.sessions.findWithUser('nope')).toBeNull();
        // A deleted account's session still reads, without its account (the caller ends it).
        await storage.users.markDeleted(user.id, 5);
        expect(await storage.sessions.findWithUser('with-user')).toEqual({ session, user: null });
      });
    });

    describe('tokens', () => {
      async function token(
        kind: 'verify_email' | 'reset_password' = 'reset_password',
        expiresAt = 2_000,
      ) {
        const user = await storage.users.insert(testUser());
        const hash = `hash-${createId()}`;
        await storage.tokens.insert({
          hash,
          kind,
          userId: user.id,
          email: 'x@example.org',
          createdAt: 1,
          expiresAt,
        });
        return { hash, user };
      }

      it('is consumed once; afterwards it is used', async () => {
        const { hash, user } = await token();
        expect(await storage.tokens.find(hash)).toMatchObject({
          kind: 'reset_password',
          userId: user.id,
          usedAt: null,
        });
        expect(await storage.tokens.consume(hash, 'reset_password', 1_000)).toEqual({
          outcome: 'consumed',
          userId: user.id,
          email: 'x@example.org',
        });
        expect(await storage.tokens.consume(hash, 'reset_password', 1_001)).toEqual({
          outcome: 'used',
        });
      });

      it('tells an expired, a forged and a wrong-kind token apart', async () => {
        const { hash } = await token('reset_password', 2_000);
        expect(await storage.tokens.consume(hash, 'reset_password', 2_000)).toEqual({
          outcome: 'expired',
        });
        expect(await storage.tokens.consume('forged', 'reset_password', 1)).toEqual({
          outcome: 'invalid',
        });
        const other = await token('verify_email');
        expect(await storage.tokens.consume(other.hash, 'reset_password', 1)).toEqual({
          outcome: 'invalid',
        });
      });

      it('lets exactly one of many concurrent requests consume a token', async () => {
        const { hash } = await token();
        const results = await Promise.all(
          Array.from({ length: 12 }, () => storage.tokens.consume(hash, 'reset_password', 1_000)),
        );
        expect(results.filter((r) => r.outcome === 'consumed')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'used')).toHaveLength(11);
      });

      it('revokes the unused tokens of one kind for a user', async () => {
        const { hash, user } = await token('verify_email');
        await storage.tokens.revokeForUser(user.id, 'verify_email', 500);
        expect((await storage.tokens.consume(hash, 'verify_email', 600)).outcome).toBe('used');
      });
    });

    describe('rate limits', () => {
      it('counts within a window and starts again after it', async () => {
        const key = `k-${createId()}`;
        expect(await storage.rateLimits.hit(key, 1_000, 10_000)).toEqual({
          count: 1,
          resetAt: 11_000,
        });
        expect(await storage.rateLimits.hit(key, 1_000, 10_500)).toEqual({
          count: 2,
          resetAt: 11_000,
        });
        expect(await storage.rateLimits.hit(key, 1_000, 11_000)).toEqual({
          count: 1,
          resetAt: 12_000,
        });
      });

      it('reads a count without counting, and sees a window end', async () => {
        const key = `k-${createId()}`;
        expect(await storage.rateLimits.peek(key, 1_000, 10_000)).toEqual({
          count: 0,
          resetAt: 11_000,
        });
        await storage.rateLimits.hit(key, 1_000, 10_000);
        await storage.rateLimits.hit(key, 1_000, 10_200);
        expect(await storage.rateLimits.peek(key, 1_000, 10_500)).toEqual({
          count: 2,
          resetAt: 11_000,
        });
        expect(await storage.rateLimits.peek(key, 1_000, 10_500)).toEqual({
          count: 2,
          resetAt: 11_000,
        });
        expect(await storage.rateLimits.peek(key, 1_000, 11_000)).toEqual({
          count: 0,
          resetAt: 12_000,
        });
      });

      it('counts amounts (bytes of a budget) past 2^31 in a day, and starts again after it', async () => {
        const key = `k-${createId()}`;
        const day = 24 * 60 * 60 * 1000;
        expect(await storage.rateLimits.hit(key, day, 10_000, 2_000_000_000)).toEqual({
          count: 2_000_000_000,
          resetAt: 10_000 + day,
        });
        expect((await storage.rateLimits.hit(key, day, 20_000, 2_000_000_000)).count).toBe(
          4_000_000_000,
        );
        expect((await storage.rateLimits.hit(key, day, 10_000 + day, 5)).count).toBe(5);
      });

      it('counts every one of many concurrent hits exactly once', async () => {
        const key = `k-${createId()}`;
        const counts = await Promise.all(
          Array.from({ length: 25 }, () => storage.rateLimits.hit(key, 60_000, 5_000)),
        );
        expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 25 }, (_, i) => i + 1),
        );
      });
    });

    describe('human-check uses', () => {
      it('accepts a signature once; a replay is refused, even concurrently', async () => {
        const signature = `sig-${createId()}`;
        const results = await Promise.all(
          Array.from({ length: 8 }, () => storage.humanChecks.consume(signature, 10_000, 1_000)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await storage.humanChecks.consume(signature, 10_000, 2_000)).toBe(false);
      });
    });

    describe('server secrets', () => {
      it('creates a secret once and returns the same one to everyone', async () => {
        const name = `secret-${createId()}`;
        const values = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            storage.secrets.getOrCreate(name, () => `value-${i}`),
          ),
        );
        expect(new Set(values).size).toBe(1);
        expect(await storage.secrets.getOrCreate(name, () => 'another')).toBe(values[0]);
      });
    });

    describePublishingContract(() => storage);
    describeHistoryContract(() => storage);
    describeSpacesContract(() => storage);
    describeUploadsContract(() => storage);
    describeRecordFilesContract(() => storage);
    describePushSubscriptionsContract(() => storage);
    describeSpaceActivityContract(() => storage);
    describeOperationsContract(() => storage);
    describeTogetherContract(() => storage);

    describe('messages and uploads', () => {
      it('keeps messages, newest first', async () => {
        const base = { kind: 'feedback' as const, userId: null, email: null, page: '/about' };
        await storage.messages.insert({ ...base, id: createId(), body: 'first', createdAt: 1 });
        await storage.messages.insert({ ...base, id: createId(), body: 'second', createdAt: 2 });
        const listed = await storage.messages.list(2);
        expect(listed.map((m) => m.body)).toEqual(['second', 'first']);
        expect(listed[0]).toMatchObject({ kind: 'feedback', page: '/about', email: null });
      });

      it('stores uploads byte for byte and totals them per user', async () => {
        const user = await storage.users.insert(testUser());
        const bytes = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3]);
        await storage.uploads.insert({
          id: 'u1' + createId(),
          userId: user.id,
          contentType: 'image/webp',
          bytes,
          createdAt: 1,
        });
        const id = createId();
        await storage.uploads.insert({
          id,
          userId: user.id,
          contentType: 'image/webp',
          bytes: new Uint8Array(100),
          createdAt: 2,
        });
        expect(await storage.uploads.get(id)).toMatchObject({
          contentType: 'image/webp',
          userId: user.id,
        });
        expect((await storage.uploads.get(id))?.bytes).toEqual(new Uint8Array(100));
        expect(await storage.uploads.totalBytesForUser(user.id)).toBe(107);
        await storage.uploads.delete(id);
        expect(await storage.uploads.get(id)).toBeNull();
        expect(await storage.uploads.totalBytesForUser(user.id)).toBe(7);
        await storage.uploads.deleteForUser(user.id);
        expect(await storage.uploads.totalBytesForUser(user.id)).toBe(0);
      });
    });
  });
}
