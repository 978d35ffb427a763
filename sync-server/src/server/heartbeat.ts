import type { Clock } from '../accounts/clock';
import { DAY_MS, utcDay } from '../ai/runs';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import type { Storage } from '../storage/types';
import { VERSION } from '../version';

/** How often an instance writes its figures (docs/operations.md#the-operators-view). */
export const HEARTBEAT_MS = 15_000;
/** Days of the database's size kept, for its growth. */
const SIZE_DAYS_KEPT = 90;
/** The size is read this often, not every beat: growth is told per day. */
const SIZE_EVERY_MS = 10 * 60 * 1000;

export interface Heartbeat {
  /** Writes this instance's figures now (tests; the timer does it every HEARTBEAT_MS). */
  beat(): Promise<void>;
  stop(): void;
}

/**
 * This instance's figures for the operator's health view, written into the database every 15 s
 * so that any instance's /admin shows every instance: the same figures as its /metrics (open
 * sockets, loaded documents, HTTP responses and 5xx among them since the last beat; memory), its
 * version and when it started, and (every 10 minutes) the database's size of the day. A failed write is logged and
 * tried at the next beat, whose window then covers both.
 */
export function startHeartbeat(deps: {
  storage: Storage;
  metrics: Metrics;
  clock: Clock;
  logger: Logger;
  instanceName: string;
  intervalMs?: number;
}): Heartbeat {
  const { storage, metrics, clock, logger } = deps;
  const startedAt = clock.now();
  let last = { at: startedAt, requests: 0, serverErrors: 0 };
  let sizeReadAt = -Infinity;

  async function beat() {
    const now = clock.now();
    const figures = await metrics.snapshot();
    await storage.instances.beat(
      {
        name: deps.instanceName,
        version: VERSION,
        startedAt,
        seenAt: now,
        sockets: figures.sockets,
        documents: figures.documents,
        rssBytes: figures.rssBytes,
        heapBytes: figures.heapBytes,
        windowMs: now - last.at,
        requests: figures.requests - last.requests,
        serverErrors: figures.serverErrors - last.serverErrors,
      },
      now - DAY_MS,
    );
    last = { at: now, requests: figures.requests, serverErrors: figures.serverErrors };
    if (now - sizeReadAt < SIZE_EVERY_MS) return;
    const today = utcDay(now);
    await storage.instances.recordSize(
      today,
      await storage.instances.databaseBytes(),
      today - SIZE_DAYS_KEPT * DAY_MS,
    );
    sizeReadAt = now;
  }

  const beatAndLog = () =>
    beat().catch((err: unknown) =>
      logger.warn({ err, task: 'heartbeat' }, "writing this instance's figures failed"),
    );
  const timer = setInterval(() => void beatAndLog(), deps.intervalMs ?? HEARTBEAT_MS).unref();
  void beatAndLog();
  return {
    beat,
    stop() {
      clearInterval(timer);
    },
  };
}
