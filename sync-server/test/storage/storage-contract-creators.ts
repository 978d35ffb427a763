import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import {
  type CreatorNotificationRecord,
  PLATFORM_PUSH_APP_ID,
  type Storage,
} from '../../src/storage/types';
import { type Engine, openEngine } from '../support/engines';
import { insertUser } from '../support/users';

const NOW = 1_800_000_000_000;
const KEYS = {
  p256dh: 'B'.padEnd(87, 'A'),
  auth: 'A'.padEnd(22, 'A'),
  vapidPublicKey: 'key-1',
};

/** Creators' notifications, their digests and Pipit's own push subscriptions, on each engine. */
export function describeCreatorsContract(engine: Engine) {
  describe(`storage contract: ${engine}: creators' notifications`, () => {
    let storage: Storage;
    let cleanup: () => Promise<void>;
    let userId: string;
    let appId: string;
    beforeAll(async () => {
      ({ storage, cleanup } = await openEngine(engine));
      userId = (await insertUser(storage)).id;
      appId = createId();
      await storage.apps.insert({
        id: appId,
        ownerId: userId,
        title: 'Habits',
        description: '',
        icon: null,
        createdAt: NOW,
      });
    });
    afterAll(async () => {
      await storage.close();
      await cleanup();
    });
    const notification = (
      over: Partial<CreatorNotificationRecord> = {},
    ): CreatorNotificationRecord => ({
      id: createId(),
      userId,
      appId,
      kind: 'first_visit',
      actorId: null,
      dedupeKey: createId(),
      createdAt: NOW,
      digestPending: true,
      digestedAt: null,
      ...over,
    });

    it('stores a notification once per dedupe key, and refuses what is not one', async () => {
      const first = notification({ dedupeKey: 'visit:x:2027-01-15' });
      expect(await storage.creatorNotifications.add(first)).toBe(true);
      expect(await storage.creatorNotifications.add({ ...first, id: createId() })).toBe(false);
      const listed = await storage.creatorNotifications.listForUser(userId, 10);
      expect(listed.filter((n) => n.dedupeKey === first.dedupeKey)).toEqual([first]);
      await expect(
        storage.creatorNotifications.add({ ...notification(), kind: 'nonsense' as 'published' }),
      ).rejects.toThrow(/one of/);
      await expect(
        storage.creatorNotifications.add(notification({ dedupeKey: '' })),
      ).rejects.toThrow(/dedupe key/);
    });

    it('keeps the digest’s pending notifications until a claimed digest finishes them', async () => {
      const other = (await insertUser(storage)).id;
      const a = notification({ userId: other, createdAt: NOW + 1 });
      const b = notification({ userId: other, createdAt: NOW + 2 });
      const pushed = notification({ userId: other, digestPending: false });
      for (const n of [b, a, pushed]) await storage.creatorNotifications.add(n);
      expect((await storage.creatorNotifications.pendingDigest(other)).map((n) => n.id)).toEqual([
        a.id,
        b.id,
      ]);
      expect(await storage.creatorNotifications.usersWithPendingDigest(1000)).toContain(other);

      const day = '2027-01-15';
      expect(await storage.creatorNotifications.digestStatus(other, day)).toBeNull();
      expect(await storage.creatorNotifications.claimDigest(other, day, 'job-1', NOW)).toBe(true);
      expect(await storage.creatorNotifications.claimDigest(other, day, 'job-2', NOW)).toBe(false);
      // The same job again (a retry) may finish it.
      expect(await storage.creatorNotifications.claimDigest(other, day, 'job-1', NOW)).toBe(true);
      await storage.creatorNotifications.finishDigest(other, day, [a.id, b.id], NOW + 5);
      expect(await storage.creatorNotifications.digestStatus(other, day)).toBe('sent');
      expect(await storage.creatorNotifications.claimDigest(other, day, 'job-1', NOW)).toBe(false);
      expect(await storage.creatorNotifications.pendingDigest(other)).toEqual([]);
      expect(await storage.creatorNotifications.usersWithPendingDigest(1000)).not.toContain(other);
      const done = await storage.creatorNotifications.listForUser(other, 10);
      expect(done.find((n) => n.id === a.id)).toMatchObject({
        digestPending: false,
        digestedAt: NOW + 5,
      });

      await expect(
        storage.creatorNotifications.claimDigest(other, '15/01/2027', 'job-1', NOW),
      ).rejects.toThrow(/YYYY-MM-DD/);
      await expect(
        storage.creatorNotifications.finishDigest(other, '2027-01-16', [], NOW),
      ).rejects.toThrow(/never claimed/);
    });

    it('gives one claim to one of many jobs racing for a digest', async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          storage.creatorNotifications.claimDigest(userId, '2027-02-01', `job-${i}`, NOW),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('keeps the email digest’s choice, by default only without push, and drops what waits', async () => {
      const other = (await insertUser(storage)).id;
      expect(await storage.creatorNotifications.emailDigest(other)).toBe('when_no_push');
      await storage.creatorNotifications.setEmailDigest(other, 'always', NOW);
      expect(await storage.creatorNotifications.emailDigest(other)).toBe('always');
      await storage.creatorNotifications.add(notification({ userId: other }));
      await storage.creatorNotifications.setEmailDigest(other, 'off', NOW);
      expect(await storage.creatorNotifications.dropPending(other)).toBe(1);
      expect(await storage.creatorNotifications.pendingDigest(other)).toEqual([]);
      await expect(
        storage.creatorNotifications.setEmailDigest(other, 'weekly' as 'off', NOW),
      ).rejects.toThrow(/when_no_push/);
      expect(await storage.creatorNotifications.emailDigest(other)).toBe('off');
    });

    it('keeps the zone the digest keeps to, until another is told', async () => {
      const other = (await insertUser(storage)).id;
      expect(await storage.creatorNotifications.digestTimeZone(other)).toBeNull();
      await storage.creatorNotifications.setEmailDigest(other, 'always', NOW);
      expect(await storage.creatorNotifications.digestTimeZone(other)).toBeNull();
      await storage.creatorNotifications.setEmailDigest(other, 'always', NOW, 'Asia/Tokyo');
      expect(await storage.creatorNotifications.digestTimeZone(other)).toBe('Asia/Tokyo');
      await storage.creatorNotifications.setEmailDigest(other, 'off', NOW + 1);
      expect(await storage.creatorNotifications.digestTimeZone(other)).toBe('Asia/Tokyo');
      await storage.creatorNotifications.setEmailDigest(other, 'always', NOW + 2, 'Europe/Paris');
      expect(await storage.creatorNotifications.digestTimeZone(other)).toBe('Europe/Paris');
    });

    it('keeps one platform subscription per device and per browser, moving it to whoever subscribed last', async () => {
      const ada = (await insertUser(storage)).id;
      const bo = (await insertUser(storage)).id;
      const endpoint = `https://push.example/${createId()}`;
      const made = await storage.creatorNotifications.upsertPlatformSubscription({
        id: createId(),
        userId: ada,
        deviceId: 'device-one',
        endpoint,
        ...KEYS,
        createdAt: NOW,
      });
      expect(made.created).toBe(true);
      expect(made.subscription.appId).toBe(PLATFORM_PUSH_APP_ID);
      const again = await storage.creatorNotifications.upsertPlatformSubscription({
        id: createId(),
        userId: ada,
        deviceId: 'device-one',
        endpoint,
        ...KEYS,
        createdAt: NOW + 1,
      });
      expect(again).toMatchObject({ created: false, subscription: { id: made.subscription.id } });
      // Failures count up to disabling; a success resets them.
      const failed = await storage.creatorNotifications.recordPlatformFailure(
        made.subscription.id,
        NOW,
      );
      expect(failed?.failures).toBe(1);
      expect(
        await storage.creatorNotifications.recordPlatformSuccess(made.subscription.id, NOW + 2),
      ).toBe(true);
      // An app's subscription is not in this table: the sender tries it only after the apps'.
      expect(await storage.creatorNotifications.recordPlatformSuccess(createId(), NOW + 2)).toBe(
        false,
      );
      expect(
        await storage.creatorNotifications.getPlatformSubscription(made.subscription.id),
      ).toMatchObject({ failures: 0, lastSuccessAt: NOW + 2 });
      // The same browser, now signed in as someone else.
      await storage.creatorNotifications.upsertPlatformSubscription({
        id: createId(),
        userId: bo,
        deviceId: 'device-two',
        endpoint,
        ...KEYS,
        createdAt: NOW + 3,
      });
      expect(await storage.creatorNotifications.listPlatformSubscriptions(ada)).toEqual([]);
      expect(await storage.creatorNotifications.listPlatformSubscriptions(bo)).toHaveLength(1);
      expect(await storage.creatorNotifications.deletePlatformSubscription(endpoint, ada)).toBe(
        false,
      );
      expect(await storage.creatorNotifications.deletePlatformSubscription(endpoint, bo)).toBe(
        true,
      );
    });

    it('deletes everything of a person whose account is deleted, and nothing of anyone else', async () => {
      const gone = (await insertUser(storage)).id;
      await storage.creatorNotifications.add(notification({ userId: gone }));
      await storage.creatorNotifications.setEmailDigest(gone, 'always', NOW);
      await storage.creatorNotifications.claimDigest(gone, '2027-03-01', 'job-1', NOW);
      await storage.creatorNotifications.upsertPlatformSubscription({
        id: createId(),
        userId: gone,
        deviceId: 'device-gone',
        endpoint: `https://push.example/${createId()}`,
        ...KEYS,
        createdAt: NOW,
      });
      const kept = await storage.creatorNotifications.listForUser(userId, 100);
      expect(await storage.creatorNotifications.deleteForUser(gone)).toBe(4);
      expect(await storage.creatorNotifications.listForUser(gone, 10)).toEqual([]);
      expect(await storage.creatorNotifications.listPlatformSubscriptions(gone)).toEqual([]);
      expect(await storage.creatorNotifications.emailDigest(gone)).toBe('when_no_push');
      expect(await storage.creatorNotifications.digestStatus(gone, '2027-03-01')).toBeNull();
      expect(await storage.creatorNotifications.listForUser(userId, 100)).toEqual(kept);
    });
  });
}
