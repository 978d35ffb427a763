import type { ReportDropReason } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { Logger } from '../logger';
import type { MonitoringStore } from '../storage/types';

export interface DropCounter {
  /** Counts reports not kept; written in the background, never failing the caller. */
  count(reason: ReportDropReason, reports?: number): void;
  /** Resolves once every count so far is written (or has failed and been logged). */
  settled(): Promise<void>;
}

/**
 * Counts dropped reports for the inbox. Refusals come fastest exactly when someone floods the
 * tunnel, so counts made while one write is under way are added up and written together by the
 * next: at most one write at a time, whatever the rate of refusals.
 */
export function createDropCounter(options: {
  store: MonitoringStore;
  clock: Clock;
  logger: Logger;
}): DropCounter {
  const { store, clock, logger } = options;
  const pending = new Map<ReportDropReason, number>();
  let writing: Promise<void> | undefined;

  async function write(): Promise<void> {
    while (pending.size > 0) {
      const batch = [...pending];
      pending.clear();
      const at = clock.now();
      await Promise.all(
        batch.map(([reason, reports]) =>
          store.countDrops(reason, at, reports).catch((error: unknown) => {
            logger.warn({ err: error, reason, reports }, 'counting dropped error reports failed');
          }),
        ),
      );
    }
    writing = undefined;
  }

  return {
    count(reason, reports = 1) {
      if (reports <= 0) return;
      pending.set(reason, (pending.get(reason) ?? 0) + reports);
      writing ??= write();
    },
    settled: () => writing ?? Promise.resolve(),
  };
}
