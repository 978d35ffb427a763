import type { Agent } from 'node:https';
import type { Clock } from '../accounts/clock';
import type { RateLimiter } from '../accounts/rate-limits';
import type { PushConfig } from '../config';
import type { Logger } from '../logger';
import type { Storage } from '../storage/types';
import { isPublicPushEndpoint } from './endpoints';
import { createPushSender, type PushRowStore, type PushSender } from './sender';
import { createVapidKeys, type VapidKeys } from './vapid';

/** Web Push on one instance: its keys and its sender (README.md beside this file). */
export interface Push {
  vapid: VapidKeys;
  sender: PushSender;
  /** Whether a subscription's endpoint may be stored (and so sent to). */
  acceptsEndpoint(endpoint: URL): boolean;
}

export function createPush(options: {
  config: PushConfig;
  storage: Storage;
  rateLimiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** Tests only: the push-service stand-in's agent (PushSenderOptions.agent). */
  agent?: Agent;
  /** Which endpoints are accepted; public push services' by default (isPublicPushEndpoint). */
  acceptsEndpoint?: (endpoint: URL) => boolean;
}): Push {
  const { config, storage, logger } = options;
  const vapid = createVapidKeys({ config, storage, logger });
  const sender = createPushSender({
    storage: { pushSubscriptions: bothTables(storage) },
    vapid,
    rateLimiter: options.rateLimiter,
    clock: options.clock,
    logger,
    ...(options.agent ? { agent: options.agent } : {}),
  });
  return { vapid, sender, acceptsEndpoint: options.acceptsEndpoint ?? isPublicPushEndpoint };
}

/**
 * Apps' subscriptions and Pipit's own (creators' notifications) as one store for the sender: ids
 * are unique across both, and an endpoint the push service dropped is gone for every row of it.
 */
function bothTables(storage: Storage): PushRowStore {
  const apps = storage.pushSubscriptions;
  const platform = storage.creatorNotifications;
  return {
    async get(id) {
      return (await apps.get(id)) ?? platform.getPlatformSubscription(id);
    },
    async deleteByEndpoint(endpoint, only) {
      const fromApps = await apps.deleteByEndpoint(endpoint, only);
      const fromPlatform =
        only?.appId === undefined
          ? await platform.deletePlatformSubscription(endpoint, only?.userId)
          : false;
      return fromApps || fromPlatform;
    },
    async recordFailure(id, at) {
      return (await apps.recordFailure(id, at)) ?? platform.recordPlatformFailure(id, at);
    },
    async recordSuccess(id, at) {
      // An app's subscription far more often than Pipit's own: the second table only when needed.
      return (await apps.recordSuccess(id, at)) || platform.recordPlatformSuccess(id, at);
    },
  };
}
