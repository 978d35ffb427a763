import type { Clock } from '../../src/accounts/clock';

export interface TestClock extends Clock {
  /** Runs `fn` with the clock `ms` ahead of real time, then puts it back, even if `fn` throws. */
  later<T>(ms: number, fn: () => Promise<T>): Promise<T>;
}

/** Real time that a test can move forward for a while (token expiry, idle sessions, username holds). */
export function testClock(): TestClock {
  let offsetMs = 0;
  return {
    now: () => Date.now() + offsetMs,
    async later(ms, fn) {
      offsetMs = ms;
      try {
        return await fn();
      } finally {
        offsetMs = 0;
      }
    },
  };
}
