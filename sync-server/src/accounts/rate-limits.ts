import { ApiError } from '../http/api-error';
import type { Storage } from '../storage/types';
import type { Clock } from './clock';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** SPEC §11, and the same idea for the other writes that send email or store messages. */
export const DEFAULT_RATE_LIMITS = {
  loginPerAccount: { limit: 10, windowMs: MINUTE_MS },
  loginPerIp: { limit: 10, windowMs: MINUTE_MS },
  signupPerIp: { limit: 5, windowMs: HOUR_MS },
  resetPerEmail: { limit: 3, windowMs: HOUR_MS },
  resendVerificationPerAccount: { limit: 3, windowMs: HOUR_MS },
  emailChangePerAccount: { limit: 5, windowMs: HOUR_MS },
  messagesPerIp: { limit: 10, windowMs: HOUR_MS },
  /** Confirming a password while signed in (email change, password change, deletion). */
  passwordCheckPerAccount: { limit: 10, windowMs: HOUR_MS },
  /** Error-report envelopes posted to /monitoring (SPEC §11). */
  monitoringPerIp: { limit: 60, windowMs: MINUTE_MS },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;
export type RateLimits = Record<RateLimitName, RateLimitRule>;

export interface RateLimiter {
  /** Counts one attempt; throws rate_limited (with retryAfter seconds) once over the limit. */
  enforce(name: RateLimitName, key: string): Promise<void>;
}

/**
 * The address a per-address limit counts: an IPv6 address by its /64 (one household or server
 * gets a whole /64, so counting each address would let it walk around the limit).
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Fixed-window counters in the storage layer, so every instance sharing a database shares them.
 */
export function createRateLimiter(storage: Storage, rules: RateLimits, clock: Clock): RateLimiter {
  return {
    async enforce(name, key) {
      const rule = rules[name];
      const now = clock.now();
      const subject = name.endsWith('PerIp') ? addressKey(key) : key.toLowerCase();
      const { count, resetAt } = await storage.rateLimits.hit(
        `${name}:${subject}`,
        rule.windowMs,
        now,
      );
      if (count > rule.limit) {
        const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
        throw new ApiError(
          'rate_limited',
          `Too many attempts. Wait ${retryAfter < 120 ? `${retryAfter} seconds` : `${Math.ceil(retryAfter / 60)} minutes`} and try again.`,
          { retryAfter },
        );
      }
    },
  };
}
