import { describe, expect, it } from 'vitest';
import { backoffDelay, retryPolicy } from '../../src/scheduler/retry';

describe('retry backoff', () => {
  const policy = retryPolicy({ retryLimit: 10, baseDelayMs: 1_000, maxDelayMs: 30_000 });

  it('doubles per attempt, with half of each delay random, up to the cap', () => {
    const low = (attempt: number) => backoffDelay(policy, attempt, () => 0);
    const high = (attempt: number) => backoffDelay(policy, attempt, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7].map(low)).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000,
    ]);
    expect([1, 2, 3, 4, 5, 6, 7].map(high)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(3_000);
    expect(high(1_000)).toBe(30_000);
  });

  it('refuses a policy that makes no sense, saying which setting', () => {
    expect(() => retryPolicy({ retryLimit: 1.5 })).toThrow(/retryLimit/);
    expect(() => retryPolicy({ baseDelayMs: -1 })).toThrow(/baseDelayMs/);
    expect(() => retryPolicy({ baseDelayMs: 10, maxDelayMs: 5 })).toThrow(
      /maxDelayMs \(5\) is below baseDelayMs/,
    );
    expect(retryPolicy({ retryLimit: undefined })).toMatchObject({ retryLimit: 5 });
  });
});
