import { describe, expect, it } from 'vitest';
import {
  BUSY_RETRY_MAX_MS,
  busyRetryDelay,
  reconnectDelay,
  socketRetryDelay,
  SYNC_SOCKET_RETRY,
} from '../src';

describe('sync retries are spread', () => {
  it('a closed socket comes back 250–1,000 ms later, each client at its own moment', () => {
    expect(reconnectDelay(() => 0)).toBe(SYNC_SOCKET_RETRY.minDelay);
    expect(reconnectDelay(() => 0.999_999)).toBe(SYNC_SOCKET_RETRY.delay);
    const delays = new Set(Array.from({ length: 100 }, () => reconnectDelay()));
    expect(delays.size).toBeGreaterThan(50);
  });

  it('a document the server was too busy for asks again after 1–2 s, then twice as long, up to a minute', () => {
    expect([1, 2, 3].map((attempt) => busyRetryDelay(attempt, () => 0))).toEqual([
      1_000, 2_000, 4_000,
    ]);
    expect([1, 2, 3].map((attempt) => busyRetryDelay(attempt, () => 0.999_999))).toEqual([
      2_000, 4_000, 8_000,
    ]);
    expect(busyRetryDelay(50, () => 0.999_999)).toBe(BUSY_RETRY_MAX_MS);
    expect(busyRetryDelay(50, () => 0)).toBe(BUSY_RETRY_MAX_MS / 2);
  });

  it("a socket's tries back off as the provider's do: up to 1 s, 2 s, 4 s, … 10 s", () => {
    const most = [1, 2, 3, 4, 5, 9].map((attempt) => socketRetryDelay(attempt, () => 0.999_999));
    expect(most).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
    expect(socketRetryDelay(3, () => 0)).toBe(SYNC_SOCKET_RETRY.minDelay);
  });
});
