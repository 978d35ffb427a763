import { AI_RUNS_PER_MINUTE } from '@pipit/protocol';
import { ServiceError } from '../service-error';
import { unmapIpv4 } from './client-info';
import type { Storage } from '../storage/types';
import type { Clock } from './clock';

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * docs/product/quotas.md, and the same idea for the other writes that send email or store messages.
 */
export const DEFAULT_RATE_LIMITS = {
  /** Every sign-in attempt from one address, whichever accounts it tries. */
  loginPerIp: { limit: 10, windowMs: MINUTE_MS },
  /**
   * Wrong passwords for one account from one address: the per-account limit, kept per address too
   * so that someone else's guesses never lock the owner out (accounts/login-limits.ts).
   */
  loginFailuresPerAccountAddress: { limit: 10, windowMs: MINUTE_MS },
  /** Wrong passwords for one account from every address: past it, an account is under attack. */
  loginFailuresPerAccount: { limit: 100, windowMs: HOUR_MS },
  signupPerIp: { limit: 5, windowMs: HOUR_MS },
  resetPerEmail: { limit: 3, windowMs: HOUR_MS },
  resendVerificationPerAccount: { limit: 3, windowMs: HOUR_MS },
  emailChangePerAccount: { limit: 5, windowMs: HOUR_MS },
  messagesPerIp: { limit: 10, windowMs: HOUR_MS },
  /** Confirming a password while signed in (email change, password change, deletion). */
  passwordCheckPerAccount: { limit: 10, windowMs: HOUR_MS },
  /** Error-report envelopes posted to /monitoring (docs/product/error-reporting.md). */
  monitoringPerIp: { limit: 60, windowMs: MINUTE_MS },
  /**
   * Popularity events (opens, installs). A browser sends one open per app per session and an
   * install now and then; more than this from one address is a script inflating counts.
   */
  appEventsPerIp: { limit: 60, windowMs: HOUR_MS },
  /**
   * AI runs asked for by one account, whatever their outcome (the daily quota counts only runs
   * that produce something): a burst past this is a script, not a person.
   */
  aiRunsPerAccount: { limit: AI_RUNS_PER_MINUTE, windowMs: MINUTE_MS },
  /**
   * Checkpoints one account saves by hand or before a restore (docs/product/history.md): each is a
   * whole app compared with the one before; a person saves a few an hour, a script thousands.
   */
  checkpointsPerAccount: { limit: 60, windowMs: HOUR_MS },
  /**
   * Ask AI's suggestions one account keeps for review (docs/product/ai-builder.md): each is two
   * whole apps, checked and compressed; a person keeps as many as the AI answers, a script more.
   */
  suggestionsPerAccount: { limit: 60, windowMs: HOUR_MS },
  /** Drafts started (docs/product/drafts.md). */
  draftsPerAccount: { limit: 30, windowMs: HOUR_MS },
  /**
   * Invitation links to shared spaces that do not work (unknown, withdrawn, expired), looked at or
   * accepted from one address (docs/product/spaces.md): a script guessing links misses thousands of
   * times; a household behind one router opening the links it was sent misses none (a
   * link that works is not counted, so it never uses up the limit for the others).
   */
  spaceInviteMissesPerIp: { limit: 60, windowMs: HOUR_MS },
  /**
   * Images one account adds to apps (docs/product/portable-file.md#images-of-an-app): each is
   * decoded and encoded again; a person adds a few at a time, a script thousands. What they may
   * have decoded in an hour is bounded as well, in pixels (portable/images.ts).
   */
  appImagesPerAccount: { limit: 100, windowMs: HOUR_MS },
  /**
   * Photos and files one account adds to records (docs/product/records.md#photos-and-files-on-records),
   * whatever their outcome: a device sends again only what it took offline, once; a script
   * thousands. Photos are bounded in pixels as well (accounts/image-decoding.ts).
   */
  recordFilesPerAccount: { limit: 300, windowMs: HOUR_MS },
  /**
   * `.pipit` files one account imports (docs/product/portable-file.md#importing): each is unpacked,
   * checked and its images encoded again. Moving an account is one file; moving its apps one file
   * each is at most 25 (the plan's apps).
   */
  importsPerAccount: { limit: 30, windowMs: HOUR_MS },
  /**
   * Spaces one account makes (docs/product/spaces.md): a deleted space keeps its row for good (its
   * id is never used again), so making and deleting spaces in a loop is bounded here.
   */
  spacesCreatedPerAccount: { limit: 30, windowMs: HOUR_MS },
  /**
   * Avatars one account uploads (`POST /api/account/avatar`), whatever their outcome: each is
   * decoded and encoded again; a person tries a few, a script thousands. What they may
   * have decoded in an hour is bounded as well, in pixels (accounts/image-decoding.ts).
   */
  avatarUploadsPerAccount: { limit: 30, windowMs: HOUR_MS },
  /**
   * Web Push messages sent to one person, every app and device together
   * (docs/decisions/0012-web-push-and-scheduler.md): reminders and digests are a few a day; an
   * app or a bug sending more is not something a phone should show.
   */
  pushesPerPerson: { limit: 60, windowMs: HOUR_MS },
  /**
   * Web Push messages one app sends to one person (on all their devices), so one noisy app does
   * not use up what the person's other apps may send. Per person, not per app: an app with many
   * visitors sends many messages, each to someone who asked for them.
   */
  pushesPerPersonApp: { limit: 30, windowMs: HOUR_MS },
  /**
   * Push subscriptions one account stores (`POST /api/push/subscriptions`): a browser subscribes
   * again each time an app opens; a script storing thousands fills the table.
   */
  pushSubscriptionsPerAccount: { limit: 120, windowMs: HOUR_MS },
} satisfies Record<string, RateLimitRule>;

export type RateLimitName = keyof typeof DEFAULT_RATE_LIMITS;
export type RateLimits = Record<RateLimitName, RateLimitRule>;

export interface RateLimiter {
  /** Counts one attempt; throws rate_limited (with retryAfter seconds) once over the limit. */
  enforce(name: RateLimitName, key: string): Promise<void>;
  /**
   * What `key` has counted in its current window, the rule's limit, and the seconds until the
   * window ends; counts nothing. For limits that count only some outcomes (failures), checked
   * before the attempt and counted with `record` once its outcome is known.
   */
  peek(
    name: RateLimitName,
    key: string,
  ): Promise<{ count: number; limit: number; retryAfter: number }>;
  /** Counts one event under `key` without refusing anything. */
  record(name: RateLimitName, key: string): Promise<void>;
}

/**
 * The answer once a limit is reached: what happened, how long to wait, and what else helps, e.g.
 * "Too many attempts. Wait 42 seconds and try again."
 */
export function rateLimited(
  retryAfter: number,
  { what = 'Too many attempts.', orElse = '' }: { what?: string; orElse?: string } = {},
): ServiceError {
  const wait = retryAfter < 120 ? `${retryAfter} seconds` : `${Math.ceil(retryAfter / 60)} minutes`;
  return new ServiceError('rate_limited', `${what} Wait ${wait} and try again${orElse}.`, {
    retryAfter,
  });
}

/**
 * The address a per-address limit counts: an IPv6 address by its /64 (one household or server
 * gets a whole /64, so counting each address would let it walk around the limit).
 */
export function addressKey(ip: string): string {
  // `::ffff:1.2.3.4` is 1.2.3.4: every such address must not share one /64.
  ip = unmapIpv4(ip);
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
  const storageKey = (name: RateLimitName, key: string) =>
    `${name}:${name.endsWith('PerIp') ? addressKey(key) : key.toLowerCase()}`;
  const secondsUntil = (resetAt: number, now: number) =>
    Math.max(1, Math.ceil((resetAt - now) / 1000));

  return {
    async enforce(name, key) {
      const rule = rules[name];
      const now = clock.now();
      const { count, resetAt } = await storage.rateLimits.hit(
        storageKey(name, key),
        rule.windowMs,
        now,
      );
      if (count > rule.limit) throw rateLimited(secondsUntil(resetAt, now));
    },

    async peek(name, key) {
      const rule = rules[name];
      const now = clock.now();
      const { count, resetAt } = await storage.rateLimits.peek(
        storageKey(name, key),
        rule.windowMs,
        now,
      );
      return { count, limit: rule.limit, retryAfter: secondsUntil(resetAt, now) };
    },

    async record(name, key) {
      await storage.rateLimits.hit(storageKey(name, key), rules[name].windowMs, clock.now());
    },
  };
}
