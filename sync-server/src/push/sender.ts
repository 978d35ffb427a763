import type { Agent } from 'node:https';
import webpush from 'web-push';
import type { Clock } from '../accounts/clock';
import type { RateLimiter, RateLimitName } from '../accounts/rate-limits';
import type { Logger } from '../logger';
import { ServiceError } from '../service-error';
import type { PushSubscriptionRecord, PushSubscriptionStore } from '../storage/types';
import { backoffMs, retryAfterMs } from './backoff';
import {
  PUSH_PAYLOAD_MAX_BYTES,
  PUSH_TOPIC_PATTERN,
  type PushPayload,
  topicForTag,
} from './payload';
import type { VapidDetails, VapidKeys } from './vapid';

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

export interface PushSendOptions {
  /** Seconds the push service keeps the message for a device that is offline. */
  ttl: number;
  urgency?: PushUrgency;
  /** RFC 8030 Topic; by default a hash of the payload's tag, when it has one. */
  topic?: string;
}

/** What became of one push, decided from the push service's answer. */
export type PushOutcome =
  /** Accepted (201): the subscription's failures are back to 0. */
  | { kind: 'sent' }
  /**
   * The subscription was deleted: the browser dropped it (404, 410), or it was made with an
   * application server key this server no longer signs with.
   */
  | { kind: 'gone'; why: 'not_found' | 'expired' | 'other_key' }
  /**
   * Send again after `delayMs` (429, 5xx, no answer): Retry-After when the service gave one, else
   * backoff from the failures. `disabled`: that was one failure too many, and it is no longer
   * sent to.
   */
  | { kind: 'retry_later'; delayMs: number; failures: number; disabled: boolean; reason: string }
  /** The push service refused this message (413, or another 4xx): a bug of ours, not retried. */
  | { kind: 'refused'; status: number }
  /** Larger than PUSH_PAYLOAD_MAX_BYTES: not sent. */
  | { kind: 'too_large'; bytes: number; limit: number }
  /** Past a rate limit (pushesPerPerson, pushesPerPersonApp): not sent. */
  | { kind: 'rate_limited'; limit: RateLimitName; retryAfterMs: number }
  /**
   * The push service refused our VAPID keys for this subscription (401, 403), counted as one of its
   * failures. `stopped`: that service has now refused them for PUSH_KEY_REFUSALS_BEFORE_STOP
   * subscriptions in a row, and this instance sends it nothing more until it restarts.
   */
  | { kind: 'keys_refused'; status: number; stopped: boolean }
  /** Not sent: this instance stopped sending to the subscription's push service. */
  | { kind: 'stopped' }
  /** Not sent: the subscription is disabled after too many failures in a row. */
  | { kind: 'disabled' };

export interface PushSender {
  sendPush(
    subscription: PushSubscriptionRecord,
    payload: PushPayload,
    options: PushSendOptions,
  ): Promise<PushOutcome>;
  /** The push services (origins) this instance stopped sending to, until it restarts. */
  readonly stoppedServices: ReadonlySet<string>;
}

/** What the sender reads and updates of the subscriptions it sends to. */
export type PushRowStore = Pick<
  PushSubscriptionStore,
  'get' | 'deleteByEndpoint' | 'recordFailure' | 'recordSuccess'
>;

export interface PushSenderOptions {
  /** Apps' subscriptions, and Pipit's own (push.ts hands the sender both as one). */
  storage: { pushSubscriptions: PushRowStore };
  vapid: VapidKeys;
  rateLimiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /**
   * The https.Agent requests go through: none in production (Node's global agent); tests pass the
   * push-service stand-in's, which trusts its certificate. Nothing else differs.
   */
  agent?: Agent;
  /** Socket timeout of one request to a push service. */
  timeoutMs?: number;
  /** Jitter of the backoff (tests make it fixed). */
  random?: () => number;
}

/**
 * A push service that refuses our keys (401, 403) for this many different subscriptions in a row,
 * with no message accepted between, is sent nothing more by this instance until it restarts.
 * Not after the first: anyone may store a subscription a browser made for another application
 * server key (the service answers 403), or one at a host of their own that answers 401, and one
 * such refusal must not stop everyone's notifications. Per service for the same reason.
 */
export const PUSH_KEY_REFUSALS_BEFORE_STOP = 3;

/** A request that has had no bytes for this long is given up and retried later. */
export const PUSH_REQUEST_TIMEOUT_MS = 10_000;

/** Only the push service's origin: the path of an endpoint is as good as a password to it. */
function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return '(not a URL)';
  }
}

function topicOf(payload: PushPayload, options: PushSendOptions): string | undefined {
  if (options.topic !== undefined) {
    if (!PUSH_TOPIC_PATTERN.test(options.topic)) {
      throw new TypeError(
        `A push topic is 1 to 32 characters of A-Z a-z 0-9 - _; got ${JSON.stringify(options.topic)}.`,
      );
    }
    return options.topic;
  }
  return payload.tag ? topicForTag(payload.tag) : undefined;
}

/**
 * Sends Web Push messages with `web-push` (docs/decisions/0012-web-push-and-scheduler.md#sending-web-push)
 * and decides from the push service's answer what becomes of the subscription.
 */
export function createPushSender(options: PushSenderOptions): PushSender {
  const { storage, vapid, rateLimiter, clock, logger } = options;
  const random = options.random ?? Math.random;
  const stoppedServices = new Set<string>();
  /** By push service: the subscriptions that refused our keys since its last success. */
  const refusals = new Map<string, Set<string>>();

  async function limited(subscription: PushSubscriptionRecord): Promise<PushOutcome | null> {
    const checks: Array<[RateLimitName, string]> = [
      ['pushesPerPersonApp', `${subscription.userId}:${subscription.appId}`],
      ['pushesPerPerson', subscription.userId],
    ];
    for (const [limit, key] of checks) {
      try {
        await rateLimiter.enforce(limit, key);
      } catch (error) {
        if (error instanceof ServiceError && error.code === 'rate_limited') {
          return {
            kind: 'rate_limited',
            limit,
            retryAfterMs: (error.extra.retryAfter ?? 60) * 1000,
          };
        }
        throw error;
      }
    }
    return null;
  }

  async function retryLater(
    subscription: PushSubscriptionRecord,
    reason: string,
    retryAfter: number | undefined,
  ): Promise<PushOutcome> {
    const row = await storage.pushSubscriptions.recordFailure(subscription.id, clock.now());
    if (!row) return { kind: 'gone', why: 'not_found' };
    const disabled = row.disabledAt !== null;
    if (disabled) {
      logger.warn(
        { subscriptionId: row.id, failures: row.failures, service: serviceOf(row.endpoint) },
        'push subscription disabled after failing too many times in a row',
      );
    }
    return {
      kind: 'retry_later',
      delayMs: retryAfter ?? backoffMs(row.failures, random),
      failures: row.failures,
      disabled,
      reason,
    };
  }

  /**
   * The subscription as made with the keys this server signs with, or `gone` (deleted) when it was
   * made with others: push services would refuse every message to it with 403.
   */
  async function madeWith(
    subscription: PushSubscriptionRecord,
    keys: VapidDetails,
  ): Promise<PushSubscriptionRecord | PushOutcome> {
    if (subscription.vapidPublicKey === keys.publicKey) return subscription;
    // The caller's copy may predate the browser subscribing again with the current key.
    const stored = await storage.pushSubscriptions.get(subscription.id);
    if (!stored) return { kind: 'gone', why: 'not_found' };
    if (stored.vapidPublicKey === keys.publicKey) return stored;
    await storage.pushSubscriptions.deleteByEndpoint(stored.endpoint);
    return { kind: 'gone', why: 'other_key' };
  }

  async function keysRefused(
    subscription: PushSubscriptionRecord,
    status: number,
    keys: VapidDetails,
    error: webpush.WebPushError,
  ): Promise<PushOutcome> {
    const service = serviceOf(subscription.endpoint);
    const refused = refusals.get(service) ?? new Set<string>();
    refused.add(subscription.id);
    refusals.set(service, refused);
    await storage.pushSubscriptions.recordFailure(subscription.id, clock.now());
    if (refused.size < PUSH_KEY_REFUSALS_BEFORE_STOP) {
      logger.warn(
        { status, service, subscriptionId: subscription.id, body: error.body },
        'a push service refused our VAPID keys for one subscription',
      );
      return { kind: 'keys_refused', status, stopped: false };
    }
    stoppedServices.add(service);
    logger.error(
      { status, service, publicKey: keys.publicKey, refusals: refused.size, body: error.body },
      'a push service refused our VAPID keys for several subscriptions in a row: this instance sends it no more push messages until it restarts. Check VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (or the vapid_keys server secret).',
    );
    return { kind: 'keys_refused', status, stopped: true };
  }

  /** What the push service's refusal means for the subscription, and for this instance. */
  async function answered(
    subscription: PushSubscriptionRecord,
    error: webpush.WebPushError,
    keys: VapidDetails,
  ): Promise<PushOutcome> {
    const status = error.statusCode;
    const service = serviceOf(subscription.endpoint);
    if (status === 404 || status === 410) {
      await storage.pushSubscriptions.deleteByEndpoint(subscription.endpoint);
      return { kind: 'gone', why: status === 404 ? 'not_found' : 'expired' };
    }
    if (status === 401 || status === 403) return keysRefused(subscription, status, keys, error);
    if (status === 429 || status >= 500) {
      const header = error.headers['retry-after'];
      return retryLater(
        subscription,
        `push service answered ${status}`,
        retryAfterMs(typeof header === 'string' ? header : undefined, clock.now()),
      );
    }
    logger.error(
      { status, service, subscriptionId: subscription.id, body: error.body },
      'a push service refused a message: not sent again',
    );
    return { kind: 'refused', status };
  }

  return {
    stoppedServices,

    async sendPush(subscription, payload, sendOptions) {
      const topic = topicOf(payload, sendOptions);
      if (stoppedServices.has(serviceOf(subscription.endpoint))) return { kind: 'stopped' };
      if (subscription.disabledAt !== null) return { kind: 'disabled' };
      const text = JSON.stringify(payload);
      const bytes = Buffer.byteLength(text, 'utf8');
      if (bytes > PUSH_PAYLOAD_MAX_BYTES) {
        return { kind: 'too_large', bytes, limit: PUSH_PAYLOAD_MAX_BYTES };
      }
      const keys = await vapid.get();
      const target = await madeWith(subscription, keys);
      if ('kind' in target) return target;
      const refusal = await limited(target);
      if (refusal) return refusal;
      try {
        await webpush.sendNotification(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          text,
          {
            vapidDetails: keys,
            TTL: sendOptions.ttl,
            urgency: sendOptions.urgency ?? 'normal',
            ...(topic !== undefined ? { topic } : {}),
            timeout: options.timeoutMs ?? PUSH_REQUEST_TIMEOUT_MS,
            ...(options.agent ? { agent: options.agent } : {}),
          },
        );
      } catch (error) {
        if (error instanceof webpush.WebPushError) return answered(target, error, keys);
        // No answer (refused connection, reset, timeout): the service may be back later.
        const reason = error instanceof Error ? error.message : String(error);
        return retryLater(target, `no answer: ${reason}`, undefined);
      }
      refusals.delete(serviceOf(target.endpoint));
      await storage.pushSubscriptions.recordSuccess(target.id, clock.now());
      return { kind: 'sent' };
    },
  };
}
