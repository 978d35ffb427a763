import type { Clock } from '../accounts/clock';
import type { Logger } from '../logger';
import type { MonitoringStore } from '../storage/types';

export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Prunes stored reports older than the retention (configurable, 30 days by default): once
 * now, then every hour. `stop` ends the schedule and waits for a prune under way, so storage can be
 * closed after it (shutdown).
 */
export function startRetention(options: {
  store: MonitoringStore;
  retentionDays: number;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
}): { stop(): Promise<void> } {
  const { store, retentionDays, clock, logger } = options;
  let running: Promise<void> | undefined;
  const prune = async () => {
    try {
      const removed = await store.prune(clock.now() - retentionDays * DAY_MS);
      if (removed.events > 0 || removed.groups > 0) {
        logger.info({ ...removed, retentionDays }, 'pruned old error reports');
      }
    } catch (error) {
      logger.warn({ err: error }, 'pruning old error reports failed; trying again later');
    } finally {
      running = undefined;
    }
  };
  // A slow prune is not stacked on by the next tick.
  const tick = () => void (running ??= prune());
  tick();
  const timer = setInterval(tick, options.intervalMs ?? RETENTION_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
