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
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;
export type RateLimits = Record<RateLimitName, RateLimitRule>;

export interface RateLimiter {
  /** Counts one attempt; throws rate_limited (with retryAfter seconds) once over the limit. */
  enforce(name: RateLimitName, key: string): Promise<void>;
}

/**
 * Fixed-window counters in the storage layer, so every instance sharing a database shares them.
 */
export function createRateLimiter(storage: Storage, rules: RateLimits, clock: Clock): RateLimiter {
  return {
    async enforce(name, key) {
      const rule = rules[name];
      const now = clock.now();
      const { count, resetAt } = await storage.rateLimits.hit(
        `${name}:${key.toLowerCase()}`,
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
