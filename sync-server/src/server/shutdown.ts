import type { Server as HttpServer } from 'node:http';
import type { Persistence } from '../collab/persistence';
import type { SyncSocket } from '../collab/websocket';
import type { Config } from '../config';
import type { ServerServices, ServerState } from './services';
import { sleep } from '../sleep';

export interface CloseReport {
  /** Documents whose last changes could not be stored before the shutdown deadline. */
  unsaved: string[];
}

/** Waits until every change is stored, or the deadline passes. */
async function storesSettled(persistence: Persistence, deadline: number): Promise<void> {
  while (persistence.unsavedDocuments().length > 0 && Date.now() < deadline) await sleep(20);
}

/**
 * Graceful shutdown: stop accepting, close sync connections, flush every pending document store
 * (retrying until the deadline), then close storage.
 */
export async function shutdown(
  config: Config,
  {
    logger,
    storage,
    cluster,
    collab,
    monitoring,
    recordFileSweep,
    backups,
    heartbeat,
    reminders,
    spaceActivity,
    creators,
    scheduler,
    attribution,
  }: ServerServices,
  httpServer: HttpServer,
  sync: SyncSocket,
  state: ServerState,
): Promise<CloseReport> {
  const { hocuspocus, persistence } = collab;
  const deadline = Date.now() + config.shutdownTimeoutMs;
  const remaining = () => Math.max(0, deadline - Date.now());
  state.shuttingDown = true;
  sync.stopAccepting();
  const httpClosed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
  httpServer.closeIdleConnections();

  // Providers are told to go (they reconnect to another instance, or to this one once restarted),
  // then every pending debounced store runs now.
  hocuspocus.closeConnections();
  sync.closeAll({ force: false });
  hocuspocus.flushPendingStores();
  await storesSettled(persistence, deadline);
  sync.closeAll({ force: true });
  await Promise.race([httpClosed, sleep(remaining())]);
  httpServer.closeAllConnections();

  // An update that was in flight when the shutdown began is stored too.
  hocuspocus.flushPendingStores();
  await storesSettled(persistence, deadline);
  const unsaved = persistence.unsavedDocuments();
  if (unsaved.length > 0) {
    persistence.abandonRetries();
    logger.error({ unsaved }, 'shutting down with documents whose last changes are not stored');
  }
  // Nothing more to tell the other instances (the fan-out's channels close with it).
  await Promise.race([
    cluster.close().catch((error: unknown) => logger.warn({ err: error }, 'closing Redis failed')),
    sleep(Math.min(remaining(), 2_000)),
  ]);
  // Reports being recorded are kept; an unreachable database holds nothing past the deadline.
  await Promise.race([monitoring.close(), sleep(remaining())]);
  await Promise.race([recordFileSweep.stop(), sleep(remaining())]);
  backups.stop();
  heartbeat.stop();
  // Who changed what, gathered since the last write, is written before storage closes.
  await Promise.race([attribution.stop(), sleep(remaining())]);
  await Promise.race([creators.stop(), sleep(remaining())]);
  // A reminder being sent finishes (or is retried by another instance once its lease ends).
  await Promise.race([
    Promise.all([reminders.stop(), spaceActivity.stop()])
      .then(() => scheduler.stop())
      .catch((error: unknown) => logger.warn({ err: error }, 'stopping the scheduler failed')),
    sleep(remaining()),
  ]);
  // A store stuck on an unreachable database must not hold the process past its deadline.
  await Promise.race([
    storage
      .close()
      .catch((error: unknown) => logger.warn({ err: error }, 'closing storage failed')),
    sleep(Math.max(remaining(), 1_000)),
  ]);
  return { unsaved };
}
