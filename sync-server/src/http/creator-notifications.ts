import type { Hono } from 'hono';
import { isTimeZone } from '@pipit/app-definition';
import {
  type CreatorNotificationSettings,
  createId,
  creatorNotificationSettingsRequestSchema,
  platformPushSubscribeRequestSchema,
  platformPushUnsubscribeRequestSchema,
} from '@pipit/protocol';
import { digestZoneOf } from '../creators/digest';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import { type ApiEnv, requireAuth } from './context';
import { admitSubscription, upsertOnce } from './push';
import { registerUnsubscribe } from './unsubscribe';

/**
 * Creators' notifications (docs/product/reminders.md#creators-notifications): this device's
 * subscription to Pipit's own push, the email digest's choice, and the digest's one-click
 * unsubscribe link.
 */
export function registerCreatorNotifications(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock, push } = deps;

  async function settingsOf(
    userId: string,
    verified: boolean,
  ): Promise<CreatorNotificationSettings> {
    const [emailDigest, devices, digestTimeZone] = await Promise.all([
      storage.creatorNotifications.emailDigest(userId),
      storage.creatorNotifications.listPlatformSubscriptions(userId),
      digestZoneOf(storage, userId),
    ]);
    return {
      emailDigest,
      devices: devices.filter((d) => d.disabledAt === null).length,
      emailVerified: verified,
      digestTimeZone,
    };
  }

  app.get('/account/creator-notifications', async (c) => {
    const auth = requireAuth(c);
    return c.json(await settingsOf(auth.user.id, auth.user.emailVerifiedAt !== null));
  });

  app.put('/account/creator-notifications', async (c) => {
    const auth = requireAuth(c);
    const { emailDigest, timeZone } = await readJsonBody(
      c.req.raw,
      creatorNotificationSettingsRequestSchema,
    );
    if (timeZone !== undefined && !isTimeZone(timeZone)) {
      throw new ApiError('validation_failed', 'Some fields need another look.', {
        fields: {
          timeZone: `“${timeZone}” isn't a time zone this server knows. Send one like Europe/Paris.`,
        },
      });
    }
    await storage.creatorNotifications.setEmailDigest(
      auth.user.id,
      emailDigest,
      clock.now(),
      timeZone,
    );
    // Off means off: what waited for the next digest is not sent later either.
    if (emailDigest === 'off') await storage.creatorNotifications.dropPending(auth.user.id);
    return c.json(await settingsOf(auth.user.id, auth.user.emailVerifiedAt !== null));
  });

  app.post('/push/platform-subscriptions', async (c) => {
    const auth = requireAuth(c);
    const input = await readJsonBody(c.req.raw, platformPushSubscribeRequestSchema);
    await admitSubscription(deps, auth.user.id, input.subscription);
    const { endpoint, keys } = input.subscription;
    const { publicKey } = await push.vapid.get();
    const store = () =>
      storage.creatorNotifications.upsertPlatformSubscription({
        id: createId(),
        userId: auth.user.id,
        deviceId: input.deviceId,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        vapidPublicKey: publicKey,
        createdAt: clock.now(),
      });
    const stored = await upsertOnce(store);
    return c.json({ id: stored.subscription.id }, stored.created ? 201 : 200);
  });

  app.delete('/push/platform-subscriptions', async (c) => {
    const auth = requireAuth(c);
    const { endpoint } = await readJsonBody(c.req.raw, platformPushUnsubscribeRequestSchema);
    if (!(await storage.creatorNotifications.deletePlatformSubscription(endpoint, auth.user.id))) {
      throw new ApiError('not_found', 'This device does not have Pipit’s notifications on.');
    }
    return c.body(null, 204);
  });

  registerUnsubscribe(app, deps);
}
