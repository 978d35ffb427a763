/**
 * A retry that backs off: the first comes `firstMs` after the call that asked for it, each next one
 * twice as long after, up to `maxMs`. For work the server could not take now (the network is often
 * not usable for a moment after `online`): the outbox's writes, the AI runs queued on the device.
 */
export interface Backoff {
  /** Runs the retry after the current delay, then doubles it; nothing if one is already waiting. */
  schedule(): void;
  /** The work went through (or a fresh start, back online): the next retry comes soon again. */
  reset(): void;
  /** Drops the retry waiting, if any. */
  cancel(): void;
}

export function createBackoff(retry: () => void, firstMs: number, maxMs: number): Backoff {
  let delay = firstMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    schedule() {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        retry();
      }, delay);
      delay = Math.min(maxMs, delay * 2);
    },
    reset() {
      delay = firstMs;
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
