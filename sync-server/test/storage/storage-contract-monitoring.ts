import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorEventRecord, Storage } from '../../src/storage/types';
import { type Engine, openEngine } from '../support/engines';

const DAY_MS = 24 * 60 * 60 * 1000;

function occurrence(overrides: Partial<ErrorEventRecord> = {}): ErrorEventRecord {
  return {
    id: randomBytes(16).toString('hex'),
    fingerprint: 'f-save',
    source: 'client',
    type: 'TypeError',
    message: 'Habit <n> has no title',
    topFrame: '/assets/index.js:save',
    receivedAt: 1_000,
    digest: null,
    route: '/apps/$appId/edit',
    url: 'http://localhost/apps/x/edit',
    browser: 'Chrome 126',
    release: 'pipit@0.1.0',
    environment: 'production',
    level: 'error',
    eventJson: '{"breadcrumbs":[{"message":"clicked"}]}',
    ...overrides,
  };
}

/**
 * The error-report store (docs/product/error-reporting.md) on each engine, each test on an empty database: grouping,
 * the inbox's queries, digest search and retention.
 */
export function describeMonitoringContract(engine: Engine) {
  describe(`storage contract: ${engine}: error reports`, () => {
    let storage: Storage;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ storage, cleanup } = await openEngine(engine));
    });
    afterEach(async () => {
      await storage.close();
      await cleanup();
    });

    it('counts occurrences in their group, with first and last seen whatever the order', async () => {
      expect(await storage.monitoring.record(occurrence({ receivedAt: 2_000 }))).toBe(true);
      expect(await storage.monitoring.record(occurrence({ receivedAt: 1_000 }))).toBe(true);
      expect(await storage.monitoring.record(occurrence({ receivedAt: 3_000 }))).toBe(true);
      const { groups, total } = await storage.monitoring.listGroups({ limit: 10, offset: 0 });
      expect(total).toBe(1);
      expect(groups[0]).toMatchObject({
        fingerprint: 'f-save',
        source: 'client',
        type: 'TypeError',
        message: 'Habit <n> has no title',
        topFrame: '/assets/index.js:save',
        count: 3,
        firstSeen: 1_000,
        lastSeen: 3_000,
      });
    });

    it('stores a report sent twice once, and leaves no group behind for it', async () => {
      const first = occurrence({ fingerprint: 'f-one' });
      expect(await storage.monitoring.record(first)).toBe(true);
      expect(await storage.monitoring.record({ ...first, receivedAt: 5_000 })).toBe(false);
      // The same id again, grouped elsewhere (a tampered retry): still nothing new.
      expect(await storage.monitoring.record({ ...first, fingerprint: 'f-other' })).toBe(false);
      const { groups, total } = await storage.monitoring.listGroups({ limit: 10, offset: 0 });
      expect(total).toBe(1);
      expect(groups[0]).toMatchObject({ fingerprint: 'f-one', count: 1, lastSeen: 1_000 });
    });

    it('lists groups most recently seen first, a page at a time, with the total', async () => {
      for (const [fingerprint, at] of [
        ['f-a', 1_000],
        ['f-b', 3_000],
        ['f-c', 2_000],
      ] as const) {
        await storage.monitoring.record(occurrence({ fingerprint, receivedAt: at }));
      }
      const first = await storage.monitoring.listGroups({ limit: 2, offset: 0 });
      expect(first.total).toBe(3);
      expect(first.groups.map((g) => g.fingerprint)).toEqual(['f-b', 'f-c']);
      const second = await storage.monitoring.listGroups({ limit: 2, offset: 2 });
      expect(second.groups.map((g) => g.fingerprint)).toEqual(['f-a']);
    });

    it('lists a few distinct routes and browsers per group, the most recent first', async () => {
      for (let i = 1; i <= 7; i++) {
        await storage.monitoring.record(
          occurrence({
            route: `/route-${i}`,
            browser: i % 2 ? 'Firefox 127' : 'Chrome 126',
            receivedAt: i,
          }),
        );
      }
      await storage.monitoring.record(occurrence({ route: '/route-7', receivedAt: 8 }));
      await storage.monitoring.record(occurrence({ route: null, browser: null, receivedAt: 9 }));
      await storage.monitoring.record(
        occurrence({ fingerprint: 'f-other', route: '/elsewhere', browser: 'Safari 17' }),
      );
      const { groups } = await storage.monitoring.listGroups({ limit: 10, offset: 0 });
      const save = groups.find((g) => g.fingerprint === 'f-save')!;
      expect(save.count).toBe(9);
      expect(save.routes).toEqual(['/route-7', '/route-6', '/route-5', '/route-4', '/route-3']);
      expect(save.browsers).toEqual(['Chrome 126', 'Firefox 127']);
      expect(groups.find((g) => g.fingerprint === 'f-other')).toMatchObject({
        routes: ['/elsewhere'],
        browsers: ['Safari 17'],
      });
    });

    it('gives the latest occurrence of a group as its sample, with its JSON', async () => {
      await storage.monitoring.record(occurrence({ receivedAt: 1, eventJson: '{"n":1}' }));
      const latest = occurrence({ receivedAt: 2, eventJson: '{"n":2}' });
      await storage.monitoring.record(latest);
      expect(await storage.monitoring.sampleEvent('f-save')).toEqual(latest);
      expect(await storage.monitoring.sampleEvent('f-none')).toBeNull();
    });

    it('finds a server error by its digest', async () => {
      const failure = occurrence({
        fingerprint: 'f-server',
        source: 'server',
        type: 'Error',
        message: 'the database is on fire',
        digest: '0123456789ab',
        browser: null,
      });
      await storage.monitoring.record(failure);
      await storage.monitoring.record(occurrence({ digest: null }));
      expect(await storage.monitoring.findByDigest('0123456789ab')).toEqual(failure);
      expect(await storage.monitoring.findByDigest('ffffffffffff')).toBeNull();
    });

    it('prunes old occurrences, then the groups left empty, and keeps the rest', async () => {
      const now = 100 * DAY_MS;
      const cutoff = now - 30 * DAY_MS;
      await storage.monitoring.record(occurrence({ fingerprint: 'f-old', receivedAt: cutoff - 1 }));
      await storage.monitoring.record(
        occurrence({ fingerprint: 'f-mixed', receivedAt: cutoff - 5 }),
      );
      const recent = occurrence({ fingerprint: 'f-mixed', receivedAt: cutoff + 5 });
      await storage.monitoring.record(recent);
      const kept = occurrence({ fingerprint: 'f-new', receivedAt: cutoff });

      await storage.monitoring.record(kept);
      expect(await storage.monitoring.prune(cutoff)).toEqual({ events: 2, groups: 1 });
      const { groups, total } = await storage.monitoring.listGroups({ limit: 10, offset: 0 });
      expect(total).toBe(2);
      expect(groups.map((g) => g.fingerprint).sort()).toEqual(['f-mixed', 'f-new']);
      expect(await storage.monitoring.sampleEvent('f-mixed')).toEqual(recent);
      expect(await storage.monitoring.sampleEvent('f-old')).toBeNull();
      expect(await storage.monitoring.prune(cutoff)).toEqual({ events: 0, groups: 0 });
    });

    it('evicts the least recently seen groups with their occurrences, then the oldest occurrences', async () => {
      // Groups last seen at 10, 20, 30 and 40; f-40 has four occurrences, the others one each.
      for (const at of [10, 20, 30]) {
        await storage.monitoring.record(occurrence({ fingerprint: `f-${at}`, receivedAt: at }));
      }
      for (const at of [37, 38, 39, 40]) {
        await storage.monitoring.record(occurrence({ fingerprint: 'f-40', receivedAt: at }));
      }
      expect(await storage.monitoring.evict({ maxEvents: 100, maxGroups: 2 })).toEqual({
        events: 2,
        groups: 2,
      });
      let { groups } = await storage.monitoring.listGroups({ limit: 10, offset: 0 });
      expect(groups.map((g) => g.fingerprint)).toEqual(['f-40', 'f-30']);
      expect(await storage.monitoring.sampleEvent('f-10')).toBeNull();

      expect(await storage.monitoring.evict({ maxEvents: 3, maxGroups: 2 })).toEqual({
        events: 2,
        groups: 0,
      });
      // f-30's occurrence and f-40's oldest went; f-30 itself stays, counted, without a sample.
      ({ groups } = await storage.monitoring.listGroups({ limit: 10, offset: 0 }));
      expect(groups.map((g) => [g.fingerprint, g.count])).toEqual([
        ['f-40', 4],
        ['f-30', 1],
      ]);
      expect(await storage.monitoring.sampleEvent('f-30')).toBeNull();
      expect((await storage.monitoring.sampleEvent('f-40'))?.receivedAt).toBe(40);
      expect(await storage.monitoring.evict({ maxEvents: 3, maxGroups: 2 })).toEqual({
        events: 0,
        groups: 0,
      });
    });

    it('keeps exactly the caps when times tie (by id and fingerprint)', async () => {
      for (let i = 0; i < 6; i++) await storage.monitoring.record(occurrence({ receivedAt: 7 }));
      expect(await storage.monitoring.evict({ maxEvents: 4, maxGroups: 10 })).toEqual({
        events: 2,
        groups: 0,
      });
      for (let i = 0; i < 4; i++) {
        await storage.monitoring.record(occurrence({ fingerprint: `f-tie-${i}`, receivedAt: 7 }));
      }
      // f-save (its four occurrences) and f-tie-0 go: equal times, the smallest fingerprints first.
      expect(await storage.monitoring.evict({ maxEvents: 100, maxGroups: 3 })).toEqual({
        events: 5,
        groups: 2,
      });
      const { groups, total } = await storage.monitoring.listGroups({ limit: 10, offset: 0 });
      expect(total).toBe(3);
      expect(groups.map((g) => g.fingerprint).sort()).toEqual(['f-tie-1', 'f-tie-2', 'f-tie-3']);
    });

    it('counts dropped reports by reason and day, and prunes days before the retention', async () => {
      expect(await storage.monitoring.drops()).toEqual([]);
      await storage.monitoring.countDrops('rate_limited', 2 * DAY_MS + 5, 3);
      await storage.monitoring.countDrops('rate_limited', 2 * DAY_MS + 9, 2);
      await storage.monitoring.countDrops('over_budget', 3 * DAY_MS + 1, 1);
      await storage.monitoring.countDrops('rate_limited', 4 * DAY_MS, 10);
      await storage.monitoring.countDrops('evicted', 4 * DAY_MS, 0);
      expect(await storage.monitoring.drops()).toEqual([
        { reason: 'over_budget', count: 1, since: 3 * DAY_MS },
        { reason: 'rate_limited', count: 15, since: 2 * DAY_MS },
      ]);
      await storage.monitoring.prune(3 * DAY_MS + 12);
      expect(await storage.monitoring.drops()).toEqual([
        { reason: 'over_budget', count: 1, since: 3 * DAY_MS },
        { reason: 'rate_limited', count: 10, since: 4 * DAY_MS },
      ]);
    });
  });
}
