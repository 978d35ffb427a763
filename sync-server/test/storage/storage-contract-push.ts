import { describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import {
  type NewPushSubscription,
  PUSH_FAILURES_BEFORE_DISABLE,
  type Storage,
} from '../../src/storage/types';
import { insertUser } from '../support/users';

/**
 * Web Push subscriptions: one row per endpoint and per person, app and device; failures counted
 * and reset; gone with their app and with their person. storage-contract.ts runs it on both
 * engines.
 */
export function describePushSubscriptionsContract(storage: () => Storage) {
  async function appOf(s: Storage, ownerId: string): Promise<string> {
    const id = createId();
    await s.apps.insert({
      id,
      ownerId,
      title: 'Plants',
      description: '',
      icon: null,
      createdAt: 1,
    });
    return id;
  }

  const subscription = (
    userId: string,
    appId: string,
    overrides: Partial<NewPushSubscription> = {},
  ): NewPushSubscription => ({
    id: createId(),
    userId,
    appId,
    deviceId: createId(),
    endpoint: `https://push.example.org/push/${createId()}`,
    p256dh: `B${'a'.repeat(86)}`,
    auth: 'b'.repeat(22),
    vapidPublicKey: 'key-1',
    createdAt: 100,
    ...overrides,
  });

  describe('push subscriptions', () => {
    it('stores a subscription and finds it by id, endpoint and person', async () => {
      const s = storage();
      const user = await insertUser(s);
      const appId = await appOf(s, user.id);
      const sub = subscription(user.id, appId);
      const { subscription: stored, created } = await s.pushSubscriptions.upsert(sub);
      expect(created).toBe(true);
      expect(stored).toEqual({ ...sub, lastSuccessAt: null, failures: 0, disabledAt: null });
      expect(await s.pushSubscriptions.get(sub.id)).toEqual(stored);
      expect(await s.pushSubscriptions.getByEndpoint(sub.endpoint)).toEqual(stored);
      expect(await s.pushSubscriptions.listForUser(user.id)).toEqual([stored]);
      expect(await s.pushSubscriptions.listForUser(user.id, appId)).toEqual([stored]);
      expect(await s.pushSubscriptions.listForUser(user.id, createId())).toEqual([]);
      expect(await s.pushSubscriptions.getByEndpoint(`${sub.endpoint}x`)).toBeNull();
    });

    it('replaces a device’s row when it subscribes again, keeping its id and clearing its failures', async () => {
      const s = storage();
      const user = await insertUser(s);
      const appId = await appOf(s, user.id);
      const first = subscription(user.id, appId);
      await s.pushSubscriptions.upsert(first);
      expect(await s.pushSubscriptions.recordSuccess(first.id, 150)).toBe(true);
      expect(await s.pushSubscriptions.recordSuccess(createId(), 150)).toBe(false);
      for (let i = 0; i < PUSH_FAILURES_BEFORE_DISABLE; i += 1) {
        await s.pushSubscriptions.recordFailure(first.id, 200 + i);
      }
      expect((await s.pushSubscriptions.get(first.id))?.disabledAt).toBe(
        200 + PUSH_FAILURES_BEFORE_DISABLE - 1,
      );

      // The same subscription again: idempotent, re-enabled, its last success kept.
      const same = await s.pushSubscriptions.upsert({ ...first, id: createId(), createdAt: 300 });
      expect(same.created).toBe(false);
      expect(same.subscription).toMatchObject({
        id: first.id,
        createdAt: 100,
        failures: 0,
        disabledAt: null,
        lastSuccessAt: 150,
      });

      // A new endpoint and keys for the same device: one row still, the new endpoint's.
      const renewed = subscription(user.id, appId, {
        deviceId: first.deviceId,
        p256dh: `B${'c'.repeat(86)}`,
        vapidPublicKey: 'key-2',
      });
      const replaced = await s.pushSubscriptions.upsert(renewed);
      expect(replaced.created).toBe(false);
      expect(replaced.subscription).toMatchObject({
        id: first.id,
        endpoint: renewed.endpoint,
        p256dh: renewed.p256dh,
        vapidPublicKey: 'key-2',
        lastSuccessAt: null,
      });
      expect(await s.pushSubscriptions.getByEndpoint(first.endpoint)).toBeNull();
      expect(await s.pushSubscriptions.listForUser(user.id)).toHaveLength(1);
    });

    it('moves an endpoint to whoever subscribed with it last, and keeps devices and apps apart', async () => {
      const s = storage();
      const alice = await insertUser(s);
      const bob = await insertUser(s);
      const appId = await appOf(s, alice.id);
      const otherApp = await appOf(s, alice.id);
      const phone = subscription(alice.id, appId);
      const laptop = subscription(alice.id, appId);
      const otherAppOnPhone = subscription(alice.id, otherApp, { deviceId: phone.deviceId });
      for (const sub of [phone, laptop, otherAppOnPhone]) await s.pushSubscriptions.upsert(sub);
      expect(await s.pushSubscriptions.listForUser(alice.id)).toHaveLength(3);
      expect(await s.pushSubscriptions.listForUser(alice.id, appId)).toHaveLength(2);

      // Bob signs in on Alice's laptop's browser: the endpoint is his now.
      const taken = await s.pushSubscriptions.upsert(
        subscription(bob.id, appId, { endpoint: laptop.endpoint }),
      );
      expect(taken.created).toBe(true);
      expect((await s.pushSubscriptions.getByEndpoint(laptop.endpoint))?.userId).toBe(bob.id);
      expect((await s.pushSubscriptions.listForUser(alice.id)).map((r) => r.id).sort()).toEqual(
        [phone.id, otherAppOnPhone.id].sort(),
      );
    });

    it('keeps one browser subscription for each app that asked, and drops every app’s row when it is gone', async () => {
      const s = storage();
      const alice = await insertUser(s);
      const bob = await insertUser(s);
      const habits = await appOf(s, alice.id);
      const shopping = await appOf(s, alice.id);
      // Two apps installed from one browser share its service worker, so its one subscription.
      const forHabits = subscription(alice.id, habits);
      const forShopping = subscription(alice.id, shopping, {
        endpoint: forHabits.endpoint,
        deviceId: forHabits.deviceId,
      });
      await s.pushSubscriptions.upsert(forHabits);
      await s.pushSubscriptions.upsert(forShopping);
      expect((await s.pushSubscriptions.listForUser(alice.id)).map((r) => r.appId).sort()).toEqual(
        [habits, shopping].sort(),
      );
      expect((await s.pushSubscriptions.getByEndpoint(forHabits.endpoint, shopping))?.id).toBe(
        forShopping.id,
      );

      // Turning one app's messages off leaves the other's.
      expect(
        await s.pushSubscriptions.deleteByEndpoint(forHabits.endpoint, {
          userId: alice.id,
          appId: habits,
        }),
      ).toBe(true);
      expect((await s.pushSubscriptions.listForUser(alice.id)).map((r) => r.appId)).toEqual([
        shopping,
      ]);

      // Someone else signs in on that browser: every app's row of it is theirs now.
      await s.pushSubscriptions.upsert(forHabits);
      await s.pushSubscriptions.upsert(
        subscription(bob.id, habits, { endpoint: forHabits.endpoint }),
      );
      expect(await s.pushSubscriptions.listForUser(alice.id)).toEqual([]);

      // The push service dropped it: no app's row is left.
      await s.pushSubscriptions.upsert(
        subscription(bob.id, shopping, { endpoint: forHabits.endpoint }),
      );
      expect(await s.pushSubscriptions.listForUser(bob.id)).toHaveLength(2);
      expect(await s.pushSubscriptions.deleteByEndpoint(forHabits.endpoint)).toBe(true);
      expect(await s.pushSubscriptions.listForUser(bob.id)).toEqual([]);
    });

    it('deletes by endpoint (only the given person’s), by device and by person', async () => {
      const s = storage();
      const alice = await insertUser(s);
      const bob = await insertUser(s);
      const appId = await appOf(s, alice.id);
      const a = subscription(alice.id, appId);
      const b = subscription(alice.id, appId);
      const c = subscription(alice.id, appId);
      const bobs = subscription(bob.id, appId);
      for (const sub of [a, b, c, bobs]) await s.pushSubscriptions.upsert(sub);

      expect(await s.pushSubscriptions.deleteByEndpoint(a.endpoint, { userId: bob.id })).toBe(
        false,
      );
      expect(await s.pushSubscriptions.getByEndpoint(a.endpoint)).not.toBeNull();
      expect(await s.pushSubscriptions.deleteByEndpoint(a.endpoint, { userId: alice.id })).toBe(
        true,
      );
      expect(await s.pushSubscriptions.deleteByEndpoint(a.endpoint, { userId: alice.id })).toBe(
        false,
      );
      expect(await s.pushSubscriptions.deleteForDevice(alice.id, appId, b.deviceId)).toBe(true);
      expect(await s.pushSubscriptions.deleteForDevice(alice.id, appId, b.deviceId)).toBe(false);
      expect(await s.pushSubscriptions.deleteForUser(alice.id)).toBe(1);
      expect(await s.pushSubscriptions.listForUser(alice.id)).toEqual([]);
      expect(await s.pushSubscriptions.listForUser(bob.id)).toHaveLength(1);
    });

    it('counts consecutive failures, disables at the limit, and a success resets them', async () => {
      const s = storage();
      const user = await insertUser(s);
      const sub = subscription(user.id, await appOf(s, user.id));
      await s.pushSubscriptions.upsert(sub);
      const first = await s.pushSubscriptions.recordFailure(sub.id, 1_000);
      expect(first).toMatchObject({ failures: 1, disabledAt: null });
      await s.pushSubscriptions.recordSuccess(sub.id, 2_000);
      expect(await s.pushSubscriptions.get(sub.id)).toMatchObject({
        failures: 0,
        lastSuccessAt: 2_000,
        disabledAt: null,
      });
      // Counted by several instances at once: every one counts.
      await Promise.all(
        Array.from({ length: PUSH_FAILURES_BEFORE_DISABLE - 1 }, (_, i) =>
          s.pushSubscriptions.recordFailure(sub.id, 3_000 + i),
        ),
      );
      expect(await s.pushSubscriptions.get(sub.id)).toMatchObject({
        failures: PUSH_FAILURES_BEFORE_DISABLE - 1,
        disabledAt: null,
      });
      const last = await s.pushSubscriptions.recordFailure(sub.id, 5_000);
      expect(last).toMatchObject({ failures: PUSH_FAILURES_BEFORE_DISABLE, disabledAt: 5_000 });
      // Disabled once: a later failure keeps the first time.
      expect(await s.pushSubscriptions.recordFailure(sub.id, 6_000)).toMatchObject({
        disabledAt: 5_000,
      });
      expect(await s.pushSubscriptions.recordFailure(createId(), 7_000)).toBeNull();
    });

    it('deletes the subscriptions made with another key, and keeps those of the current one', async () => {
      const s = storage();
      const user = await insertUser(s);
      const appId = await appOf(s, user.id);
      const current = `key-${createId()}`;
      const kept = subscription(user.id, appId, { vapidPublicKey: current });
      const old = subscription(user.id, appId, { vapidPublicKey: `key-${createId()}` });
      await s.pushSubscriptions.upsert(kept);
      await s.pushSubscriptions.upsert(old);
      expect(await s.pushSubscriptions.deleteForOtherKeys(current)).toBeGreaterThanOrEqual(1);
      expect(await s.pushSubscriptions.get(old.id)).toBeNull();
      expect(await s.pushSubscriptions.get(kept.id)).not.toBeNull();
      expect(await s.pushSubscriptions.deleteForOtherKeys(current)).toBe(0);
    });

    it('goes with its app when the app is deleted', async () => {
      const s = storage();
      const user = await insertUser(s);
      const appId = await appOf(s, user.id);
      const otherApp = await appOf(s, user.id);
      const sub = subscription(user.id, appId);
      const other = subscription(user.id, otherApp);
      await s.pushSubscriptions.upsert(sub);
      await s.pushSubscriptions.upsert(other);
      await s.apps.delete(appId, 500);
      expect(await s.pushSubscriptions.get(sub.id)).toBeNull();
      expect(await s.pushSubscriptions.get(other.id)).not.toBeNull();
    });

    it('refuses a subscription for an app or a person that does not exist, storing nothing', async () => {
      const s = storage();
      const user = await insertUser(s);
      const noApp = subscription(user.id, createId());
      await expect(s.pushSubscriptions.upsert(noApp)).rejects.toThrow();
      const noUser = subscription(createId(), await appOf(s, user.id));
      await expect(s.pushSubscriptions.upsert(noUser)).rejects.toThrow();
      expect(await s.pushSubscriptions.getByEndpoint(noApp.endpoint)).toBeNull();
      expect(await s.pushSubscriptions.getByEndpoint(noUser.endpoint)).toBeNull();
    });
  });
}
