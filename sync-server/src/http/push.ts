import { createPublicKey } from 'node:crypto';
import type { Hono } from 'hono';
import {
  createId,
  pushSubscribeRequestSchema,
  pushUnsubscribeRequestSchema,
  type PushSubscriptionSummary,
} from '@pipit/protocol';
import { rateLimited } from '../accounts/rate-limits';
import { findVisibleApp } from '../publishing/visibility';
import { ServiceError } from '../service-error';
import { ConflictError, type PushSubscriptionRecord } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import { type ApiEnv, requireAuth } from './context';

/**
 * Whether a 65-byte key is a point on P-256: one that is not would make every push to the
 * subscription fail at encryption, so it is refused when it is stored.
 */
function isP256Point(p256dh: string): boolean {
  const raw = Buffer.from(p256dh, 'base64url');
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: raw.subarray(1, 33).toString('base64url'),
        y: raw.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

function summaryOf(row: PushSubscriptionRecord): PushSubscriptionSummary {
  return {
    id: row.id,
    appId: row.appId,
    deviceId: row.deviceId,
    createdAt: row.createdAt,
    lastSuccessAt: row.lastSuccessAt,
    disabledAt: row.disabledAt,
  };
}

/**
 * Checks a browser subscription before it is stored (for an app or for Pipit itself): a public
 * push service's endpoint, a key on P-256, then `allowed` (whether the person may), then the
 * account's hourly limit of subscribing.
 */
export async function admitSubscription(
  deps: Pick<ApiDependencies, 'push' | 'rateLimiter'>,
  userId: string,
  subscription: { endpoint: string; keys: { p256dh: string } },
  allowed: () => Promise<void> = async () => undefined,
): Promise<void> {
  if (!deps.push.acceptsEndpoint(new URL(subscription.endpoint))) {
    throw new ApiError('validation_failed', 'Some fields need another look.', {
      fields: {
        'subscription.endpoint': 'That is not the address of a public push service.',
      },
    });
  }
  if (!isP256Point(subscription.keys.p256dh)) {
    throw new ApiError('validation_failed', 'Some fields need another look.', {
      fields: { 'subscription.keys.p256dh': 'p256dh is not a point on the P-256 curve.' },
    });
  }
  await allowed();
  try {
    await deps.rateLimiter.enforce('pushSubscriptionsPerAccount', userId);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'rate_limited') {
      throw rateLimited(error.extra.retryAfter ?? 60, {
        what: 'This account has turned on notifications more often this hour than one person may.',
      });
    }
    throw error;
  }
}

/** Stores a subscription; the same device subscribing twice at once: the second finds the first's row. */
export async function upsertOnce<T>(store: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    return store();
  }
}

/**
 * Web Push (docs/decisions/0012-web-push-and-scheduler.md#subscriptions): the application server
 * key browsers subscribe with, and a person's subscriptions, one per app and device.
 */
export function registerPush(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock, push } = deps;

  app.get('/push/key', async (c) => {
    const { publicKey } = await push.vapid.get();
    return c.json({ publicKey });
  });

  app.post('/push/subscriptions', async (c) => {
    const auth = requireAuth(c);
    const input = await readJsonBody(c.req.raw, pushSubscribeRequestSchema);
    await admitSubscription(deps, auth.user.id, input.subscription, async () => {
      if (!(await findVisibleApp(storage, input.appId, auth.user.id))) {
        throw new ApiError('not_found', 'That app does not exist, or you cannot use it.');
      }
    });
    const { endpoint, keys } = input.subscription;
    const { publicKey } = await push.vapid.get();
    const store = () =>
      storage.pushSubscriptions.upsert({
        id: createId(),
        userId: auth.user.id,
        appId: input.appId,
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

  app.delete('/push/subscriptions', async (c) => {
    const auth = requireAuth(c);
    const { endpoint, appId } = await readJsonBody(c.req.raw, pushUnsubscribeRequestSchema);
    const only = { userId: auth.user.id, ...(appId === undefined ? {} : { appId }) };
    if (!(await storage.pushSubscriptions.deleteByEndpoint(endpoint, only))) {
      throw new ApiError('not_found', 'You have no push subscription with that endpoint.');
    }
    return c.body(null, 204);
  });

  app.get('/push/subscriptions', async (c) => {
    const auth = requireAuth(c);
    const rows = await storage.pushSubscriptions.listForUser(auth.user.id);
    return c.json({ subscriptions: rows.map(summaryOf) });
  });
}
