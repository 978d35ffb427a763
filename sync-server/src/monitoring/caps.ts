import type { Logger } from '../logger';
import type { MonitoringStore } from '../storage/types';
import type { DropCounter } from './drops';

export interface StoredCaps {
  maxEvents: number;
  maxGroups: number;
}

/**
 * Keeps the stored reports under their caps after each new one, oldest first (MonitoringStore
 * evict), counting what goes as dropped. One eviction runs at a time: reports that arrive while one
 * runs share the next, so a flood costs one eviction after another, not one per report. Never
 * throws: a failed eviction is logged and the next report tries again.
 */
export function createCapKeeper(options: {
  store: MonitoringStore;
  caps: StoredCaps;
  drops: DropCounter;
  logger: Logger;
}): { enforce(): Promise<void> } {
  const { store, caps, drops, logger } = options;
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;

  async function evict(): Promise<void> {
    try {
      const removed = await store.evict(caps);
      if (removed.events > 0 || removed.groups > 0) {
        drops.count('evicted', removed.events);
        logger.debug({ ...removed, ...caps }, 'removed the oldest error reports (over the cap)');
      }
    } catch (error) {
      logger.warn({ err: error }, 'removing error reports over the cap failed');
    }
  }

  function enforce(): Promise<void> {
    if (!running) {
      running = evict().finally(() => (running = undefined));
      return running;
    }
    next ??= running.then(() => {
      next = undefined;
      return enforce();
    });
    return next;
  }

  return { enforce };
}
