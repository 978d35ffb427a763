/**
 * When a sync client tries again, spread out: clients turned away at the same moment (every
 * socket of an instance that restarts, a burst of openings the server shed) must not all come
 * back at the same moment too (exponential back-off with jitter:
 * https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/).
 */

/**
 * The socket's retries (the Hocuspocus provider's): forever, backing off to 10 s, each wait a
 * random time up to the current step. (The retry library refuses a `delay` below `minDelay`,
 * silently, so both are set.)
 */
export const SYNC_SOCKET_RETRY = {
  maxAttempts: 0,
  delay: 1_000,
  minDelay: 250,
  maxDelay: 10_000,
  jitter: true,
} as const;

/**
 * The first try after an open socket closed (its instance restarted, a network blip), in ms:
 * anywhere in 250–1,000 ms, rather than the provider's fixed second for every client at once.
 */
export function reconnectDelay(random: () => number = Math.random): number {
  return socketRetryDelay(1, random);
}

/** The longest wait between tries of a document the server said it was too busy to open. */
export const BUSY_RETRY_MAX_MS = 60_000;

/**
 * How long a document waits before it asks again after the server said it was busy
 * (`server_busy`), `attempt` being how many times in a row it said so (1 for the first): 1–2 s,
 * then twice as long each time, up to a minute.
 */
export function busyRetryDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(BUSY_RETRY_MAX_MS / 2, 1_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(step * (1 + random()));
}

/**
 * The wait before the socket's `attempt`-th try to connect (1 for the first after a failed one),
 * as the provider's retry library computes it from SYNC_SOCKET_RETRY: a random time between
 * `minDelay` and `delay` × 2^(attempt − 1), capped at `maxDelay`. For clients that are not the
 * provider (the scale benchmark's raw sockets) to retry as the app does.
 */
export function socketRetryDelay(attempt: number, random: () => number = Math.random): number {
  const { minDelay, delay, maxDelay } = SYNC_SOCKET_RETRY;
  const step = Math.min(maxDelay, delay * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * (step - minDelay + 1)) + minDelay;
}
