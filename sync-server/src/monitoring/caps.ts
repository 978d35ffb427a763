import type { Logger } from '../logger';
import type { ErrorSource, MonitoringStore } from '../storage/types';
import type { DropCounter } from './drops';

export interface StoredCaps {
  maxEvents: number;
  maxGroups: number;
}

/**
 * Keeps the stored reports under their caps after each new one, oldest first (MonitoringStore
 * evict), counting what goes as dropped. Only the new report's source is looked at: each source has
 * its own caps, and a report adds to its own source alone. One eviction per source runs at a time:
 * reports that arrive while one runs share the next, so a flood costs one eviction after another,
 * not one per report. Never throws: a failed eviction is logged and the next report of that source
 * tries again.
 */
export function createCapKeeper(options: {
  store: MonitoringStore;
  caps: StoredCaps;
  drops: DropCounter;
  logger: Logger;
}): { enforce(source: ErrorSource): Promise<void> } {
  const { store, caps, drops, logger } = options;
  const running = new Map<ErrorSource, Promise<void>>();
  const next = new Map<ErrorSource, Promise<void>>();

  async function evict(source: ErrorSource): Promise<void> {
    try {
      const removed = await store.evict(caps, [source]);
      if (removed.events > 0 || removed.groups > 0) {
        drops.count('evicted', removed.events);
        logger.debug(
          { ...removed, ...caps, source },
          'removed the oldest error reports (over the cap)',
        );
      }
    } catch (error) {
      logger.warn({ err: error, source }, 'removing error reports over the cap failed');
    }
  }

  function enforce(source: ErrorSource): Promise<void> {
    const current = running.get(source);
    if (!current) {
      const started = evict(source).finally(() => running.delete(source));
      running.set(source, started);
      return started;
    }
    let queued = next.get(source);
    if (!queued) {
      queued = current.then(() => {
        next.delete(source);
        return enforce(source);
      });
      next.set(source, queued);
    }
    return queued;
  }

  return { enforce };
}
