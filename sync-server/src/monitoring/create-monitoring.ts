import type { Clock } from '../accounts/clock';
import type { MonitoringConfig } from '../config';
import type { Logger } from '../logger';
import { currentRequest } from '../request-context';
import type { MonitoringStore } from '../storage/types';
import { createForwarder } from './forward';
import { createIngest, type IngestResult } from './ingest';
import { startRetention } from './retention';
import { type ServerErrorReport, serverErrorRecord } from './server-error';

export interface Monitoring {
  readonly config: MonitoringConfig;
  /** One envelope from the tunnel (see createIngest for what it throws). */
  ingest(body: Uint8Array): Promise<IngestResult>;
  /**
   * Records a server failure in the background. Never throws and never waits: a request that is
   * already failing must not fail differently because reporting did.
   */
  reportServerError(report: ServerErrorReport): void;
  /** Stops pruning and forwarding, and waits for recordings under way (before storage closes). */
  close(): Promise<void>;
}

/** Error reporting (issue 6): the tunnel's ingestion, server errors, forwarding and retention. */
export function createMonitoring(options: {
  config: MonitoringConfig;
  store: MonitoringStore;
  clock: Clock;
  logger: Logger;
}): Monitoring {
  const { config, store, clock, logger } = options;
  const forwarder = createForwarder(config.upstream, logger);
  const ingest = createIngest({ config, store, forwarder, clock });
  const retention = startRetention({
    store,
    retentionDays: config.retentionDays,
    clock,
    logger,
  });
  const recording = new Set<Promise<void>>();

  return {
    config,
    ingest,
    reportServerError(report) {
      try {
        const requestId = report.requestId ?? currentRequest()?.requestId;
        const record = serverErrorRecord({ ...report, requestId }, clock.now(), config.environment);
        const done = store
          .record(record)
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
    async close() {
      forwarder.close();
      await retention.stop();
      await Promise.all(recording);
    },
  };
}
