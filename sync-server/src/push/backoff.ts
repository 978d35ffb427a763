/** The first wait after a failure, doubled with each one after it. */
export const PUSH_RETRY_BASE_MS = 30_000;
/** No wait is longer, whatever the failures, and no Retry-After is honoured past it. */
export const PUSH_RETRY_MAX_MS = 6 * 60 * 60 * 1000;

/**
 * How long to wait before sending again after the `failures`-th consecutive failure:
 * exponential, capped, with "equal jitter" (half fixed, half random) so that many messages that
 * failed together do not all come back at the same moment.
 */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(PUSH_RETRY_MAX_MS, PUSH_RETRY_BASE_MS * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * A Retry-After header (RFC 9110: seconds, or an HTTP date) as milliseconds from `now`; undefined
 * when absent or unreadable. A date in the past means now.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, PUSH_RETRY_MAX_MS);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, at - now), PUSH_RETRY_MAX_MS);
}
