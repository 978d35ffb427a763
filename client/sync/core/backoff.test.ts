import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBackoff } from './backoff';

describe('a retry that backs off', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits twice as long each time up to its longest, once at a time, and soon again after a reset', () => {
    const retry = vi.fn();
    const backoff = createBackoff(retry, 1_000, 3_000);
    /** Retries seen just before `ms` and at `ms` after asking (twice: still one retry). */
    const firesAfter = (ms: number) => {
      const start = retry.mock.calls.length;
      backoff.schedule();
      backoff.schedule();
      vi.advanceTimersByTime(ms - 1);
      const early = retry.mock.calls.length - start;
      vi.advanceTimersByTime(1);
      return [early, retry.mock.calls.length - start];
    };
    expect(firesAfter(1_000)).toEqual([0, 1]);
    expect(firesAfter(2_000)).toEqual([0, 1]);
    expect(firesAfter(3_000)).toEqual([0, 1]);
    expect(firesAfter(3_000)).toEqual([0, 1]);
    backoff.reset();
    expect(firesAfter(1_000)).toEqual([0, 1]);
    expect(retry).toHaveBeenCalledTimes(5);

    backoff.schedule();
    backoff.cancel();
    vi.advanceTimersByTime(10_000);
    expect(retry).toHaveBeenCalledTimes(5);
  });
});
