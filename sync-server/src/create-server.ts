import type { Server as HttpServer } from 'node:http';
import type { Agent } from 'node:https';
import type { Hocuspocus } from '@hocuspocus/server';
import type { SpaceActivity } from './activity/activity';
import type { Mailer } from './accounts/mailer';
import type { Clock } from './accounts/clock';
import type { RateLimits } from './accounts/rate-limits';
import type { DocumentAccess } from './collab/access';
import type { ResourceLimits } from './collab/resource-limits';
import { createSyncSocket } from './collab/websocket';
import type { Config } from './config';
import type { ClientHandler } from './http/client-files';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { Push } from './push/push';
import type { CreatorNotifications } from './creators/creator-notifications';
import type { Reminders } from './reminders/reminders';
import {
  createBuiltClient,
  createRequestServer,
  createRoutes,
  handleUpgrades,
} from './server/requests';
import type { Attribution } from './history/attribution';
import type { ScheduledBackups } from './backup/scheduled-backups';
import type { SharedScheduler } from './scheduler';
import type { Heartbeat } from './server/heartbeat';
import { createServices, type ServerState } from './server/services';
import { type CloseReport, shutdown } from './server/shutdown';
import type { Storage } from './storage/types';

/**
 * Connections the kernel queues before the server accepts them. A restart sends every socket
 * back at once: with Node's default (511) the rest's handshakes were dropped and their clients
 * waited out TCP's retransmissions (1, 3, 7, 15 s…), half of 10,000 for more than 30 s. The
 * kernel caps it at net.core.somaxconn (4096 on Linux since 5.4).
 */
const LISTEN_BACKLOG = 4_096;

export type { CloseReport } from './server/shutdown';

export interface CreateServerOptions {
  config: Config;
  logger?: Logger;
  /** Opened from `config` when not given. The server owns it either way and closes it. */
  storage?: Storage;
  /**
   * Who may open which Yjs document; by default docs/product/roles.md's roles from the session and
   * the apps.
   */
  access?: DocumentAccess;
  /**
   * Serves everything outside /api. Default: the built client under `config.clientDir`.
   * `npm run dev` passes Vite's middleware, which also needs the HTTP server (its hot-reload socket
   * shares it).
   */
  client?: (httpServer: HttpServer) => Promise<ClientHandler>;
  /** Debounce of document stores (tests shorten it). */
  storeDebounceMs?: number;
  /** The longest a store waits while edits keep coming (tests shorten it). */
  storeMaxDebounceMs?: number;
  /** Time (tests move it: token expiry, username release). */
  clock?: Clock;
  /** Rate-limit rules; docs/product/quotas.md's by default. */
  rateLimits?: Partial<RateLimits>;
  /** How long a human-check challenge stays valid (tests shorten it). */
  humanCheckTtlMs?: number;
  /** Prometheus metrics; a registry of this server's own by default. */
  metrics?: Metrics;
  /** What a document, a socket and a person may hold in memory (tests lower or raise them). */
  resourceLimits?: Partial<ResourceLimits>;
  /**
   * The https.Agent Web Push requests go through: none in production; tests pass the push-service
   * stand-in's, which trusts its certificate.
   */
  pushAgent?: Agent;
  /**
   * Which push endpoints subscriptions may name: public push services' by default
   * (push/endpoints.ts); tests accept the stand-in's, on 127.0.0.1.
   */
  pushEndpoints?: (endpoint: URL) => boolean;
  /** How often the job scheduler looks for due jobs (tests make it quick). */
  schedulerPollMs?: number;
  /** The window a space's activity is batched over (ACTIVITY_BATCH_MS; tests lengthen it). */
  activityBatchMs?: number;
  /**
   * How soon a job whose instance died runs again: SQLite's lease, pg-boss's expiry and how often
   * its maintenance looks (a minute and 30 s by default; fault tests that kill an instance
   * shorten them).
   */
  schedulerLeases?: {
    leaseMs?: number;
    expireInSeconds?: number;
    maintenanceIntervalSeconds?: number;
  };
}

export interface PipitServer {
  readonly httpServer: HttpServer;
  readonly storage: Storage;
  readonly hocuspocus: Hocuspocus;
  readonly logger: Logger;
  readonly mailer: Mailer;
  readonly metrics: Metrics;
  /** Web Push: the VAPID keys and the sender (docs/decisions/0012-web-push-and-scheduler.md). */
  readonly push: Push;
  /** Apps' reminders: their queue and their delivery (docs/product/reminders.md). */
  readonly reminders: Reminders;
  /** Telling members what others do in a space (docs/product/reminders.md#space-activity). */
  readonly spaceActivity: SpaceActivity;
  /** Who changed what in each app (docs/product/history.md#who-changed-what). */
  readonly attribution: Attribution;
  /** Creators' notifications and their email digest (docs/product/reminders.md). */
  readonly creators: CreatorNotifications;
  /** Backups on BACKUP_SCHEDULE (docs/operations.md#scheduled-backups). */
  readonly backups: ScheduledBackups;
  /** The one job queue every kind of job shares. */
  readonly scheduler: SharedScheduler;
  /** This instance's figures for the operator's health view (docs/operations.md). */
  readonly heartbeat: Heartbeat;
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /**
   * Graceful shutdown: stop accepting, close sync connections, flush every pending document store
   * (retrying until the deadline), then close storage.
   */
  close(): Promise<CloseReport>;
}

/**
 * Builds the whole Pipit server: one HTTP server for the client, /api and the sync websocket. The
 * parts live in server/: the services and their wiring (services.ts), what this instance does
 * about the cluster's events (cluster-events.ts), request dispatch (requests.ts) and the graceful
 * shutdown (shutdown.ts).
 */
export async function createServer(options: CreateServerOptions): Promise<PipitServer> {
  const { config } = options;
  const state: ServerState = { shuttingDown: false, listeningPort: config.port };
  const services = await createServices(options, state);
  const { storage, logger, mailer, metrics, collab } = services;
  const { hocuspocus } = collab;
  const customClient = options.client !== undefined;
  const routes = createRoutes(config, services, customClient);
  let client: ClientHandler | undefined = undefined;
  const httpServer = createRequestServer(config, services, routes, state, () => client);

  const sync = createSyncSocket(hocuspocus, {
    publicOrigin: config.publicOrigin,
    logger,
    access: services.access,
    bounds: collab.bounds,
    timings: metrics.collab,
  });
  metrics.observeCollab({
    websocketConnections: () => sync.openConnections(),
    documentsLoaded: () => hocuspocus.documents.size,
  });
  handleUpgrades(httpServer, sync, logger, customClient);

  client = options.client
    ? await options.client(httpServer)
    : createBuiltClient(config, services, routes);

  let closing: Promise<CloseReport> | undefined;

  return {
    httpServer,
    storage,
    hocuspocus,
    logger,
    mailer,
    metrics,
    push: services.push,
    reminders: services.reminders,
    spaceActivity: services.spaceActivity,
    backups: services.backups,
    heartbeat: services.heartbeat,
    scheduler: services.scheduler,
    attribution: services.attribution,
    creators: services.creators,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
          httpServer.off('error', reject);
          const address = httpServer.address();
          const actualPort = typeof address === 'object' && address ? address.port : port;
          state.listeningPort = actualPort;
          resolve({ port: actualPort, url: `http://localhost:${actualPort}` });
        });
      });
    },
    close() {
      closing ??= shutdown(config, services, httpServer, sync, state);
      return closing;
    },
  };
}
