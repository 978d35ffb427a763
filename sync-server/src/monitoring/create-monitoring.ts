import type { ReportDropReason } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { MonitoringConfig } from '../config';
import type { Logger } from '../logger';
import { currentRequest } from '../request-context';
import type { ErrorEventRecord, MonitoringStore, RateLimitStore } from '../storage/types';
import { createReportBudget, OverBudgetError } from './budget';
import { createCapKeeper } from './caps';
import { createDropCounter } from './drops';
import { createForwarder } from './forward';
import { createIngest, type IngestResult } from './ingest';
import { startRetention } from './retention';
import { type ServerErrorReport, serverErrorRecord } from './server-error';

export interface Monitoring {
  readonly config: MonitoringConfig;
  /** One envelope from the tunnel, sent from `address` (see createIngest for what it throws). */
  ingest(body: Uint8Array, address: string): Promise<IngestResult>;
  /**
   * Records a server failure in the background. Never throws and never waits: a request that is
   * already failing must not fail differently because reporting did.
   */
  reportServerError(report: ServerErrorReport): void;
  /** Counts reports refused before they were read (rate limit, size), for the inbox. */
  countDropped(reason: ReportDropReason): void;
  /** Stops pruning and forwarding, and waits for recordings under way (before storage closes). */
  close(): Promise<void>;
}

/** Error reporting (docs/product/error-reporting.md): the tunnel's ingestion, server errors, forwarding and retention. */
export function createMonitoring(options: {
  config: MonitoringConfig;
  store: MonitoringStore;
  /** Where each address's daily byte budget is counted (shared by instances). */
  budgetStore: RateLimitStore;
  clock: Clock;
  logger: Logger;
}): Monitoring {
  const { config, store, clock, logger } = options;
  const forwarder = createForwarder(config.upstream, logger);
  const drops = createDropCounter({ store, clock, logger });
  const caps = createCapKeeper({
    store,
    caps: { maxEvents: config.maxEvents, maxGroups: config.maxGroups },
    drops,
    logger,
  });
  const budget = createReportBudget({
    store: options.budgetStore,
    bytesPerDay: config.dailyBytesPerAddress,
    clock,
  });
  /** Stores an occurrence, then keeps the store under its caps (browser and server reports alike). */
  const keep = async (record: ErrorEventRecord): Promise<boolean> => {
    const stored = await store.record(record);
    if (stored) await caps.enforce(record.source);
    return stored;
  };
  const ingest = createIngest({ config, keep, budget, forwarder, clock });
  const retention = startRetention({
    store,
    retentionDays: config.retentionDays,
    clock,
    logger,
  });
  const recording = new Set<Promise<void>>();

  return {
    config,
    async ingest(body, address) {
      try {
        return await ingest(body, address);
      } catch (error) {
        if (error instanceof OverBudgetError) drops.count('over_budget');
        throw error;
      }
    },
    reportServerError(report) {
      try {
        const requestId = report.requestId ?? currentRequest()?.requestId;
        const record = serverErrorRecord({ ...report, requestId }, clock.now(), config.environment);
        const done = keep(record)
          .then(
            () => undefined,
            (error: unknown) => {
              logger.warn({ err: error, digest: report.digest }, 'recording a server error failed');
            },
          )
          .finally(() => recording.delete(done));
        recording.add(done);
      } catch (error) {
        logger.warn({ err: error, digest: report.digest }, 'recording a server error failed');
      }
    },
    countDropped(reason) {
      drops.count(reason);
    },
    async close() {
      forwarder.close();
      await retention.stop();
      await Promise.all(recording);
      await drops.settled();
    },
  };
}
