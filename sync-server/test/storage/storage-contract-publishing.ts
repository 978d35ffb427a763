import { describe, expect, it } from 'vitest';
import { createId, type Visibility } from '@pipit/protocol';
import type { AppRecord, Storage, UserRecord, VersionListing } from '../../src/storage/types';
import { testUser } from '../support/users';

/**
 * The publishing part of the storage contract (storage-contract.ts runs it on both engines):
 * versions, visibility, explore, profiles' app lists, remixes and popularity.
 */
export function describePublishingContract(storage: () => Storage) {
  describe('publishing', () => {
    /** A word no other test uses, to find exactly this test's apps among everyone's. */
    const word = () => `w${createId().slice(0, 10)}`;

    async function person(overrides: Partial<UserRecord> = {}) {
      return storage().users.insert(testUser(overrides));
    }

    async function app(
      owner: UserRecord,
      options: {
        listing?: Partial<VersionListing>;
        visibility?: Visibility;
        publishedAt?: number;
        archived?: boolean;
        forkedFrom?: { appId: string; version: number };
        publish?: boolean;
      } = {},
    ): Promise<AppRecord> {
      const s = storage();
      const id = createId();
      const listing: VersionListing = {
        title: 'Habits',
        description: '',
        icon: null,
        tags: [],
        ...options.listing,
      };
      await s.apps.insert({
        id,
        ownerId: owner.id,
        title: listing.title,
        description: listing.description,
        icon: null,
        createdAt: 1,
        forkedFrom: options.forkedFrom ?? null,
      });
      if (options.publish !== false) {
        await s.publishing.publish({
          appId: id,
          definitionJson: JSON.stringify({ meta: listing }),
          listing,
          publisherId: owner.id,
          publishedAt: options.publishedAt ?? Date.now(),
          visibility: options.visibility ?? 'public',
        });
      }
      if (options.archived) {
        await s.apps.setArchived(id, 2);
      }
      return (await s.apps.get(id))!;
    }

    it('numbers versions 1, 2, … and makes the newest the published one, with its visibility', async () => {
      const s = storage();
      const owner = await person({ displayName: 'Ada' });
      const first = await app(owner, { visibility: 'unlisted', publishedAt: 1_000 });
      expect(first).toMatchObject({
        publishedVersion: 1,
        publishedAt: 1_000,
        visibility: 'unlisted',
      });
      const second = await s.publishing.publish({
        appId: first.id,
        definitionJson: '{"v":2}',
        listing: { title: 'Habits 2', description: 'd', icon: null, tags: ['health', 'health'] },
        publisherId: owner.id,
        publishedAt: 2_000,
        visibility: 'public',
      });
      expect(second).toEqual({ number: 2 });
      expect(await s.apps.get(first.id)).toMatchObject({
        publishedVersion: 2,
        publishedAt: 2_000,
        visibility: 'public',
      });
      expect(await s.publishing.version(first.id, 2)).toMatchObject({
        number: 2,
        definitionJson: '{"v":2}',
        title: 'Habits 2',
        tags: ['health'],
        publisherId: owner.id,
      });
      expect(await s.publishing.version(first.id, 3)).toBeNull();
      expect(await s.publishing.versions(first.id)).toEqual([
        {
          number: 2,
          publishedAt: 2_000,
          publisher: { username: owner.username, displayName: 'Ada' },
        },
        {
          number: 1,
          publishedAt: 1_000,
          publisher: { username: owner.username, displayName: 'Ada' },
        },
      ]);
    });

    it('gives concurrent publications of one app distinct numbers', async () => {
      const s = storage();
      const owner = await person();
      const draft = await app(owner, { publish: false });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          s.publishing.publish({
            appId: draft.id,
            definitionJson: `{"i":${i}}`,
            listing: { title: 'T', description: '', icon: null, tags: [] },
            publisherId: owner.id,
            publishedAt: i,
            visibility: 'public',
          }),
        ),
      );
      expect(results.map((r) => r.number).sort()).toEqual([1, 2, 3, 4, 5, 6]);
      expect((await s.apps.get(draft.id))?.publishedVersion).toBe(6);
    });

    it('unpublishes keeping the versions; publishing again takes the next number', async () => {
      const s = storage();
      const owner = await person();
      const published = await app(owner);
      expect(await s.publishing.countPublished(owner.id)).toBe(1);
      expect(await s.publishing.unpublish(published.id)).toBe(true);
      expect(await s.publishing.unpublish(published.id)).toBe(false);
      expect(await s.apps.get(published.id)).toMatchObject({
        publishedVersion: null,
        publishedAt: null,
      });
      expect(await s.publishing.countPublished(owner.id)).toBe(0);
      expect((await s.publishing.versions(published.id)).map((v) => v.number)).toEqual([1]);
      const again = await s.publishing.publish({
        appId: published.id,
        definitionJson: '{}',
        listing: { title: 'T', description: '', icon: null, tags: [] },
        publisherId: owner.id,
        publishedAt: 5,
        visibility: 'public',
      });
      expect(again.number).toBe(2);
    });

    it('explores listed apps only: not private, unlisted, unpublished, archived or a deleted author’s', async () => {
      const s = storage();
      const tag = word();
      const owner = await person();
      const listing = { tags: [tag] };
      const listed = await app(owner, { listing });
      await app(owner, { listing, visibility: 'private' });
      await app(owner, { listing, visibility: 'unlisted' });
      await app(owner, { listing, archived: true });
      const unpublished = await app(owner, { listing });
      await s.publishing.unpublish(unpublished.id);
      const leaving = await person();
      await app(leaving, { listing });
      await s.users.markDeleted(leaving.id, 1);

      const found = await s.publishing.explore({ q: '', tag, sort: 'new', page: 1, pageSize: 24 });
      expect(found.apps.map((a) => a.id)).toEqual([listed.id]);
      expect(found.total).toBe(1);
      expect(found.tags).toContainEqual({ tag, count: 1 });
    });

    it('searches title, description, tags and the author’s names, ignoring case, wildcards literal', async () => {
      const s = storage();
      const w = word();
      const author = await person({ username: `au_${w}`, displayName: `Zoë ${w}` });
      const byTitle = await app(author, { listing: { title: `Garden ${w}` }, publishedAt: 4 });
      const byText = await app(await person(), {
        listing: { description: `Keeps my ${w.toUpperCase()} notes` },
        publishedAt: 3,
      });
      const byTag = await app(await person(), { listing: { tags: [`${w}-tag`] }, publishedAt: 2 });
      const percent = await app(await person(), {
        listing: { title: `100% ${w}_x` },
        publishedAt: 1,
      });
      const search = (q: string, author?: string) =>
        s.publishing
          .explore({ q, author, sort: 'new', page: 1, pageSize: 24 })
          .then((r) => r.apps.map((a) => a.id));

      expect(await search(w)).toEqual([byTitle.id, byText.id, byTag.id, percent.id]);
      expect(await search(`GARDEN ${w}`)).toEqual([byTitle.id]);
      expect(await search(`zoë ${w}`)).toEqual([byTitle.id]);
      expect(await search(`au_${w}`)).toEqual([byTitle.id]);
      expect(await search(`% ${w}_`)).toEqual([percent.id]);
      // "_" and "%" are not wildcards: "100_" does not match "100%".
      expect(await search(`100_ ${w}`)).toEqual([]);
      expect(await search('', `AU_${w}`)).toEqual([byTitle.id]);
    });

    it('sorts by popularity (opens and installs), then newest, and pages', async () => {
      const s = storage();
      const tag = word();
      const owner = await person();
      const apps = [];
      for (let i = 0; i < 5; i++) {
        apps.push(await app(owner, { listing: { tags: [tag] }, publishedAt: 100 + i }));
      }
      const [a, b, c] = apps as [AppRecord, AppRecord, AppRecord];
      expect(await s.publishing.recordEvent(b.id, 'open', 'v1', 1)).toBe(true);
      expect(await s.publishing.recordEvent(b.id, 'open', 'v1', 2)).toBe(false);
      await s.publishing.recordEvent(b.id, 'install', 'v1', 3);
      await s.publishing.recordEvent(a.id, 'open', 'v2', 4);
      await s.publishing.recordEvent(a.id, 'open', 'v3', 5);
      await s.publishing.recordEvent(a.id, 'open', 'v4', 6);
      await s.publishing.recordEvent(c.id, 'open', 'v1', 7);
      expect(await s.publishing.eventCounts(b.id)).toEqual({ opens: 1, installs: 1 });
      expect(await s.publishing.eventCounts(a.id)).toEqual({ opens: 3, installs: 0 });

      const page = (n: number, sort: 'new' | 'popular') =>
        s.publishing.explore({ q: '', tag, sort, page: n, pageSize: 2 });
      const popular = [
        ...(await page(1, 'popular')).apps,
        ...(await page(2, 'popular')).apps,
        ...(await page(3, 'popular')).apps,
      ];
      expect(popular.map((x) => x.id)).toEqual([a, b, c, apps[4], apps[3]].map((x) => x!.id));
      expect(popular[0]).toMatchObject({ opens: 3, installs: 0, version: 1 });
      const newest = await page(1, 'new');
      expect(newest.apps.map((x) => x.id)).toEqual([apps[4]!.id, apps[3]!.id]);
      expect(newest.total).toBe(5);
      expect((await page(4, 'new')).apps).toEqual([]);
    });

    it('lists a person’s listed apps, pinned first in their order, then the newest', async () => {
      const s = storage();
      const owner = await person();
      const old = await app(owner, { publishedAt: 1 });
      const newer = await app(owner, { publishedAt: 2 });
      const newest = await app(owner, { publishedAt: 3 });
      const pinnedPrivate = await app(owner, { visibility: 'private' });
      await app(owner, { archived: true });
      await s.users.update(owner.id, { pinnedAppIds: [old.id, pinnedPrivate.id, newer.id] });
      const listed = await s.publishing.listPublicForOwner(owner.id);
      expect(listed.map((a) => a.id)).toEqual([old.id, newer.id, newest.id]);
      expect(listed[0]?.author).toMatchObject({ id: owner.id, username: owner.username });
    });

    it('lists an app’s listed remixes, and deletes versions and events with the app', async () => {
      const s = storage();
      const owner = await person();
      const source = await app(owner);
      const remix = await app(await person(), {
        forkedFrom: { appId: source.id, version: 1 },
      });
      await app(await person(), {
        forkedFrom: { appId: source.id, version: 1 },
        visibility: 'unlisted',
      });
      expect(remix).toMatchObject({ forkedFrom: source.id, forkedFromVersion: 1 });
      expect((await s.publishing.remixes(source.id)).map((r) => r.id)).toEqual([remix.id]);
      expect(await s.publishing.countRemixes(source.id)).toBe(1);
      expect(await s.publishing.countRemixes(remix.id)).toBe(0);

      await s.publishing.recordEvent(source.id, 'open', 'v', 1);
      await s.apps.delete(source.id, 3);
      expect(await s.publishing.version(source.id, 1)).toBeNull();
      expect(await s.publishing.versions(source.id)).toEqual([]);
      // The id is never given out again, not even to its owner.
      expect(await s.apps.wasDeleted(source.id)).toBe(true);
      const reborn = await s.apps.insert({
        id: source.id,
        ownerId: owner.id,
        title: 'Again',
        description: '',
        icon: null,
        createdAt: 3,
      });
      expect(reborn).toEqual({ deleted: true });
      expect(await s.apps.get(source.id)).toBeNull();
    });

    // Last: forgetting is about every app's visitors, so it runs after the others' counting.
    it('forgets visitors counted before a time, then the oldest over a cap, keeping the counts', async () => {
      const s = storage();
      const x = await app(await person());
      const T = 1_000_000_000_000;
      await s.publishing.forgetVisitors(T, 1_000_000); // whatever other tests left
      await s.publishing.recordEvent(x.id, 'open', 'v1', T + 1);
      await s.publishing.recordEvent(x.id, 'open', 'v2', T + 2);
      await s.publishing.recordEvent(x.id, 'open', 'v3', T + 3);
      await s.publishing.recordEvent(x.id, 'install', 'v1', T + 3);
      await s.publishing.recordEvent(x.id, 'open', 'v4', T + 4);

      expect(await s.publishing.forgetVisitors(T + 2, 1_000_000)).toBe(1);
      // v1's open is forgotten, so it counts again; v2's is still remembered.
      expect(await s.publishing.recordEvent(x.id, 'open', 'v1', T + 5)).toBe(true);
      expect(await s.publishing.recordEvent(x.id, 'open', 'v2', T + 5)).toBe(false);

      // Five remembered (T+2, T+3, T+3, T+4, T+5); at most three stay, ties in time go together.
      expect(await s.publishing.forgetVisitors(0, 3)).toBe(3);
      expect(await s.publishing.recordEvent(x.id, 'open', 'v4', T + 6)).toBe(false);
      expect(await s.publishing.recordEvent(x.id, 'open', 'v1', T + 6)).toBe(false);
      expect(await s.publishing.recordEvent(x.id, 'install', 'v1', T + 6)).toBe(true);
      expect(await s.publishing.eventCounts(x.id)).toEqual({ opens: 5, installs: 2 });
    });
  });
}
