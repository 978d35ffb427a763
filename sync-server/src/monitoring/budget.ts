import { addressKey } from '../accounts/rate-limits';
import type { Clock } from '../accounts/clock';
import type { RateLimitStore } from '../storage/types';

const DAY_MS = 24 * 60 * 60 * 1000;

/** An address has stored its day's worth of reports: 429, for `retryAfter` seconds. */
export class OverBudgetError extends Error {
  constructor(readonly retryAfter: number) {
    super('This address has sent as many error reports as are kept in a day.');
  }
}

export interface ReportBudget {
  /** Counts `bytes` stored for `address`; throws OverBudgetError once its day's budget is spent. */
  spend(address: string, bytes: number): Promise<void>;
}

/**
 * Bytes of error reports stored per address (an IPv6 address by its /64) in a fixed day, counted
 * in the shared rate-limit store so every instance spends from the same budget. The per-minute
 * envelope limit bounds how fast one address can write; this bounds how much it can keep.
 */
export function createReportBudget(options: {
  store: RateLimitStore;
  bytesPerDay: number;
  clock: Clock;
}): ReportBudget {
  const { store, bytesPerDay, clock } = options;
  return {
    async spend(address, bytes) {
      const now = clock.now();
      const { count, resetAt } = await store.hit(
        `monitoringBytesPerIp:${addressKey(address)}`,
        DAY_MS,
        now,
        bytes,
      );
      if (count > bytesPerDay) {
        throw new OverBudgetError(Math.max(1, Math.ceil((resetAt - now) / 1000)));
      }
    },
  };
}
