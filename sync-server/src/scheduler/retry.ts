import type { RetryPolicy } from './types';

/** Reminders are minute-grained: a few quick retries, then a pause of minutes, not hours. */
export const DEFAULT_RETRY: RetryPolicy = {
  retryLimit: 5,
  baseDelayMs: 5_000,
  maxDelayMs: 10 * 60_000,
};

export function retryPolicy(options: Partial<RetryPolicy>): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...stripUndefined(options) };
  if (!Number.isSafeInteger(policy.retryLimit) || policy.retryLimit < 0) {
    throw new RangeError(
      `retryLimit must be a whole number of 0 or more; got ${String(policy.retryLimit)}.`,
    );
  }
  for (const name of ['baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(policy[name]) || policy[name] < 0) {
      throw new RangeError(`${name} must be 0 ms or more; got ${String(policy[name])}.`);
    }
  }
  if (policy.maxDelayMs < policy.baseDelayMs) {
    throw new RangeError(
      `maxDelayMs (${policy.maxDelayMs}) is below baseDelayMs (${policy.baseDelayMs}).`,
    );
  }
  return policy;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The delay before retry number `attempt` (1 for the first): base·2^(attempt−1), capped, then
 * "equal jitter" — half of it fixed, half random — so that jobs failing together (a push
 * service down) do not come back together, and none comes back sooner than half its delay.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, random = Math.random): number {
  const exponential = policy.baseDelayMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30);
  const capped = Math.min(exponential, policy.maxDelayMs);
  return Math.round(capped / 2 + random() * (capped / 2));
}

export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  // The column holds a reason, not a dump: a long message is cut.
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}
