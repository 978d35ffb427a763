import type { Agent } from 'node:https';
import type { Clock } from '../accounts/clock';
import type { RateLimiter } from '../accounts/rate-limits';
import type { PushConfig } from '../config';
import type { Logger } from '../logger';
import type { Storage } from '../storage/types';
import { isPublicPushEndpoint } from './endpoints';
import { createPushSender, type PushSender } from './sender';
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
    storage,
    vapid,
    rateLimiter: options.rateLimiter,
    clock: options.clock,
    logger,
    ...(options.agent ? { agent: options.agent } : {}),
  });
  return { vapid, sender, acceptsEndpoint: options.acceptsEndpoint ?? isPublicPushEndpoint };
}
