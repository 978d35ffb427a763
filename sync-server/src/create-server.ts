import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { Hocuspocus } from '@hocuspocus/server';
import { hasDefinition, readDefinition } from '@pipit/app-definition';
import { documentName, parseDocumentName } from '@pipit/protocol';
import { getRequestListener } from '@hono/node-server';
import { createAccountService } from './accounts/account-service';
import { type Clock, systemClock } from './accounts/clock';
import { createHumanCheck } from './accounts/human-check';
import { createMailer, type Mailer } from './accounts/mailer';
import { createOperators } from './accounts/operators';
import { createProfileService } from './accounts/profile-service';
import { createRateLimiter, DEFAULT_RATE_LIMITS, type RateLimits } from './accounts/rate-limits';
import { createSessionService } from './accounts/sessions';
import { createDocumentAccess, type DocumentAccess } from './collab/access';
import { createCollab } from './collab/create-collab';
import type { ConnectionContext } from './collab/authenticate';
import { SyncRefusal } from './collab/refusal';
import { createDataRemoval } from './collab/data-removal';
import { type ClusterEvent, createCluster } from './collab/fan-out';
import {
  DEFAULT_RESOURCE_LIMITS,
  defaultHeapBudgetBytes,
  type ResourceLimits,
} from './collab/resource-limits';
import { createSpaceRules } from './collab/space-rules';
import { createSyncSocket } from './collab/websocket';
import type { Config } from './config';
import { createDigest } from './digest';
import { createHistory } from './history/checkpoints';
import { createAiProvider } from './ai/provider';
import { createApi } from './http/api';
import { createMetricsEndpoint } from './http/metrics-endpoint';
import {
  contentSecurityPolicy,
  RESOURCE_CSP,
  setSecurityHeaders,
  wantsHsts,
} from './http/security-headers';
import { createAppPwaRoutes } from './http/app-pwa';
import { type ClientHandler, createClientFiles } from './http/client-files';
import { createEmojiImages } from './http/emoji-images';
import { createServerRenderer, rendererFileFor, requestOrigin } from './http/server-render';
import { createMonitoringRoute } from './http/monitoring';
import { createLogger, type Logger } from './logger';
import { createMonitoring } from './monitoring/create-monitoring';
import { createMetrics, type Metrics, routeOf } from './metrics';
import { closeRefusedVisitors } from './publishing/visitor-connections';
import { currentRequest, type RequestContext, requestIdFor, runInRequest } from './request-context';
import { openStorage } from './storage/open-storage';
import type { Storage } from './storage/types';

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
}

export interface CloseReport {
  /** Documents whose last changes could not be stored before the shutdown deadline. */
  unsaved: string[];
}

export interface PipitServer {
  readonly httpServer: HttpServer;
  readonly storage: Storage;
  readonly hocuspocus: Hocuspocus;
  readonly logger: Logger;
  readonly mailer: Mailer;
  readonly metrics: Metrics;
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /**
   * Graceful shutdown: stop accepting, close sync connections, flush every pending document store
   * (retrying until the deadline), then close storage.
   */
  close(): Promise<CloseReport>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the whole Pipit server: one HTTP server for the client, /api and the sync websocket. */
export async function createServer(options: CreateServerOptions): Promise<PipitServer> {
  const { config } = options;
  const logger = options.logger ?? createLogger(config.logLevel);
  const storage = options.storage ?? (await openStorage(config, logger));
  const clock = options.clock ?? systemClock;
  const metrics =
    options.metrics ?? createMetrics({ processMetrics: config.metricsToken !== undefined });
  let shuttingDown = false;
  let listeningPort = config.port;
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logger,
  });
  // A session that ends (sign-out, sign-out everywhere, password change) loses its documents too,
  // on every instance.
  const sessions = createSessionService(storage, clock, (ids) => {
    void cluster.broadcast({ kind: 'sessions-ended', sessionIds: ids });
  });
  const access =
    options.access ??
    createDocumentAccess({
      storage,
      sessions,
      publicOrigin: config.publicOrigin,
      trustProxy: config.trustProxy,
    });
  /**
   * What this instance does about a decision made on any instance (fan-out.ts): close the
   * connections it concerns, or stop writing documents being deleted.
   */
  async function carryOut(event: ClusterEvent): Promise<void> {
    switch (event.kind) {
      case 'sessions-ended': {
        const ended = new Set(event.sessionIds);
        collab.disconnect('forbidden', (context) => ended.has(context.sessionId));
        return;
      }
      case 'app-access':
        collab.disconnect(
          event.reason,
          (context) => event.userId === null || context.userId === event.userId,
          documentName({ kind: 'app', appId: event.appId }),
        );
        return;
      case 'space-access':
        collab.disconnect(
          event.reason,
          (context) => event.userId === null || context.userId === event.userId,
          documentName({ kind: 'space', spaceId: event.spaceId }),
        );
        return;
      case 'visitors-changed':
        await closeRefusedVisitors(event.appId, {
          storage,
          openDocuments: () => hocuspocus.documents.keys(),
          close: (name) => collab.disconnect('forbidden', () => true, name),
          logger,
        });
        return;
      case 'deleting':
        await collab.closeForDeletion((name) => {
          const document = parseDocumentName(name);
          if (!document) return false;
          if ('spaceId' in event) {
            return document.kind === 'space' && document.spaceId === event.spaceId;
          }
          if ('appId' in event) {
            return (
              (document.kind === 'app' || document.kind === 'data') &&
              document.appId === event.appId
            );
          }
          return (
            (document.kind === 'user' || document.kind === 'data') &&
            document.userId === event.userId
          );
        });
        return;
    }
  }
  /**
   * Every open connection checked against storage again (its session, its role): after this
   * instance could not hear the others, the decisions they made meanwhile are carried out here.
   */
  async function checkConnectionsAgain(): Promise<void> {
    let closed = 0;
    for (const document of [...hocuspocus.documents.values()]) {
      const parsed = parseDocumentName(document.name);
      if (!parsed) continue;
      for (const connection of document.getConnections()) {
        const held = connection.context as ConnectionContext;
        let grant: Awaited<ReturnType<DocumentAccess['grantFor']>>;
        try {
          grant = await access.grantFor({ document: parsed, request: connection.request });
        } catch (error) {
          // Refused (the app was deleted meanwhile): it goes. Storage out of reach: it stays.
          if (!(error instanceof SyncRefusal)) throw error;
          grant = null;
        }
        if (grant && grant.role === held.role && grant.sessionId === held.sessionId) continue;
        connection.close({ code: 4403, reason: grant ? 'role_changed' : 'forbidden' });
        closed += 1;
      }
    }
    logger.info({ closed }, 'checked every open connection again after Redis came back');
  }
  const cluster = await createCluster({
    redis: config.redis,
    instanceName: config.instanceName,
    logger,
    handle: carryOut,
    onRejoined: checkConnectionsAgain,
  });
  const history = createHistory({ storage, clock, logger });
  const collab = createCollab({
    fanOut: cluster.extension,
    // A person's refusals slow them down for a minute of the server's clock (tests move it).
    now: () => clock.now(),
    // Which records of a shared space each member may change: its app's published rules.
    spaceRules: createSpaceRules({
      storage,
      appOfSpace: async (spaceId) => (await storage.spaces.get(spaceId))?.appId ?? null,
      onRefreshFailed: (spaceId, err: unknown) =>
        logger.warn({ err, spaceId }, "reading a space's record rules again failed"),
    }),
    // An app's history starts with its first definition, never with the empty document before it.
    afterAppStored: (appId, document, authorIds, final) =>
      hasDefinition(document)
        ? history.afterStore(appId, () => readDefinition(document), authorIds, final)
        : Promise.resolve(false),
    documents: storage.documents,
    apps: storage.apps,
    access,
    limits: {
      ...DEFAULT_RESOURCE_LIMITS,
      heapBudgetBytes: config.heapBudgetBytes ?? defaultHeapBudgetBytes(),
      ...options.resourceLimits,
    },
    logger,
    timings: metrics.collab,
    ...(options.storeDebounceMs !== undefined ? { debounceMs: options.storeDebounceMs } : {}),
    ...(options.storeMaxDebounceMs !== undefined
      ? { maxDebounceMs: options.storeMaxDebounceMs }
      : {}),
  });
  const { hocuspocus, persistence } = collab;
  const dataRemoval = createDataRemoval(storage, cluster, clock);
  const rateLimiter = createRateLimiter(
    storage,
    { ...DEFAULT_RATE_LIMITS, ...options.rateLimits },
    clock,
  );
  // Error reports from browsers (/monitoring) and from this server's own failures (issue 6).
  const monitoring = createMonitoring({
    config: config.monitoring,
    store: storage.monitoring,
    budgetStore: storage.rateLimits,
    clock,
    logger,
  });
  const accounts = createAccountService({
    storage,
    sessions,
    mailer,
    rateLimiter,
    clock,
    logger,
    // Links in emails never follow a request's Host header (an attacker could choose it).
    linkBase: () => config.publicOrigin ?? `http://localhost:${listeningPort}`,
    usernameHoldMs: config.usernameHoldDays * 24 * 60 * 60 * 1000,
    removeAccountData: dataRemoval.account,
  });
  const api = createApi({
    storage,
    logger,
    publicOrigin: config.publicOrigin,
    trustProxy: config.trustProxy,
    sessions,
    accounts,
    profiles: createProfileService({
      storage,
      clock,
      releaseHeldUsername: accounts.releaseHeldUsername,
    }),
    humanCheck: createHumanCheck({
      storage,
      difficulty: config.humanCheckDifficulty,
      clock,
      ...(options.humanCheckTtlMs !== undefined ? { challengeTtlMs: options.humanCheckTtlMs } : {}),
    }),
    rateLimiter,
    clock,
    liveDocuments: hocuspocus.documents,
    history,
    reportServerError: monitoring.reportServerError,
    monitoring: config.monitoring,
    ai: createAiProvider(config.ai, logger),
    aiDailyRuns: config.aiDailyRuns,
    operators: createOperators({ storage, clock }),
    shuttingDown: () => shuttingDown,
    dataRemoval,
    accessChanges: {
      revoked: (appId, userId) =>
        cluster.broadcast({ kind: 'app-access', appId, userId, reason: 'forbidden' }),
      roleChanged: (appId, userId) =>
        cluster.broadcast({ kind: 'app-access', appId, userId, reason: 'role_changed' }),
      visitorsChanged: (appId) => cluster.broadcast({ kind: 'visitors-changed', appId }),
      spaceRevoked: (spaceId, userId) =>
        cluster.broadcast({ kind: 'space-access', spaceId, userId, reason: 'forbidden' }),
      spaceRoleChanged: (spaceId, userId) =>
        cluster.broadcast({ kind: 'space-access', spaceId, userId, reason: 'role_changed' }),
    },
  });
  const apiListener = getRequestListener(api.fetch, { overrideGlobalObjects: false });
  /**
   * A GET to the API from a page rendered on the server (http/server-render.ts), as the visitor's
   * browser would send it: their address and user agent, no cookie. Its own request context (the
   * page's id, so the log lines go together): the page request keeps its route for the metrics.
   */
  const apiOnBehalfOf = (apiPath: string, req: IncomingMessage): Promise<Response> => {
    const headers = new Headers({ Accept: 'application/json' });
    for (const name of ['user-agent', 'x-forwarded-for', 'x-forwarded-proto']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const context = {
      requestId: currentRequest()?.requestId ?? requestIdFor(undefined),
      route: '',
    };
    return runInRequest(context, async () =>
      api.fetch(new Request(new URL(apiPath, 'http://pipit.internal'), { headers }), {
        incoming: req,
      }),
    );
  };
  const appPwa = createAppPwaRoutes({
    storage,
    sessions,
    logger,
    publicOrigin: config.publicOrigin,
    trustProxy: config.trustProxy,
  });
  const emojiImages = createEmojiImages({ logger });
  const monitoringRoute = createMonitoringRoute({
    monitoring,
    rateLimiter,
    logger,
    publicOrigin: config.publicOrigin,
    trustProxy: config.trustProxy,
    onOutcome: (outcome) => metrics.monitoringReport(outcome),
  });
  let client: ClientHandler | undefined = undefined;

  const serveMetrics = createMetricsEndpoint({
    registry: metrics.registry,
    token: config.metricsToken,
    logger,
  });
  // The built client's files share the shell's policy (the service worker runs under it); Vite's
  // dev pages need inline script, so in dev the client sets none.
  const clientCsp = options.client ? undefined : contentSecurityPolicy();

  /** Each request's (and websocket upgrade's) id and route, for its log lines and metrics. */
  const contextOf = (req: IncomingMessage): RequestContext => ({
    requestId: requestIdFor(req.headers['x-request-id']),
    route: routeOf(req.url),
  });

  const httpServer = createHttpServer((req, res) => {
    const request = contextOf(req);
    res.setHeader('X-Request-Id', request.requestId);
    setSecurityHeaders(res, {
      csp: request.route === 'client' ? clientCsp : RESOURCE_CSP,
      hsts: wantsHsts(req, config.publicOrigin, config.trustProxy),
    });
    metrics.observeResponse(req, res, request);
    // While shutting down, finish this request but keep no connection open for another one.
    if (shuttingDown) res.shouldKeepAlive = false;
    // A request under way when the shutdown began was answered keep-alive: close its connection now
    // rather than when the client's keep-alive timer ends (seconds the shutdown would wait for).
    res.once('finish', () => {
      if (shuttingDown) setImmediate(() => httpServer.closeIdleConnections());
    });
    runInRequest(request, () => {
      try {
        const { route } = request;
        if (route === '/metrics') serveMetrics(req, res);
        else if (route === '/api/*') void apiListener(req, res);
        else if (route.startsWith('/apps/:id/')) appPwa.handle(req, res);
        else if (route === '/emoji/:file') emojiImages(req, res);
        else if (route === '/monitoring') monitoringRoute.handle(req, res);
        else if (client) client(req, res);
        else res.writeHead(503).end();
      } catch (error) {
        const digest = createDigest();
        logger.error({ err: error, digest, path: req.url }, 'request handler threw');
        monitoring.reportServerError({ error, digest, method: req.method, path: req.url });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    });
  });

  const sync = createSyncSocket(hocuspocus, {
    publicOrigin: config.publicOrigin,
    logger,
    access,
    bounds: collab.bounds,
    timings: metrics.collab,
  });
  metrics.observeCollab({
    websocketConnections: () => sync.openConnections(),
    documentsLoaded: () => hocuspocus.documents.size,
  });
  const customClient = options.client !== undefined;
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    runInRequest(contextOf(req), () => {
      try {
        if (sync.handleUpgrade(req, socket, head)) return;
      } catch (error) {
        logger.warn({ err: error }, 'upgrade request failed');
        socket.destroy();
        return;
      }
      // With a custom client (Vite in dev), its hot-reload socket listens on this server too.
      if (!customClient) socket.destroy();
    });
  });

  client = options.client
    ? await options.client(httpServer)
    : createClientFiles({
        dir: config.clientDir,
        logger,
        reportServerError: monitoring.reportServerError,
        canSeeApp: appPwa.canSeeApp,
        canOpenEditor: appPwa.canOpenEditor,
        fetchApi: apiOnBehalfOf,
        serverRender: createServerRenderer({
          clientDir: config.clientDir,
          rendererFile: rendererFileFor(config.clientDir),
          fetchApi: apiOnBehalfOf,
          originOf: (req) => requestOrigin(req, config.publicOrigin, config.trustProxy),
          logger,
        }),
      });

  let closing: Promise<CloseReport> | undefined;

  /** Waits until every change is stored, or the deadline passes. */
  async function storesSettled(deadline: number): Promise<void> {
    while (persistence.unsavedDocuments().length > 0 && Date.now() < deadline) await sleep(20);
  }

  async function shutdown(): Promise<CloseReport> {
    const deadline = Date.now() + config.shutdownTimeoutMs;
    const remaining = () => Math.max(0, deadline - Date.now());
    shuttingDown = true;
    sync.stopAccepting();
    const httpClosed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
    httpServer.closeIdleConnections();

    // Providers are told to go (they reconnect to another instance, or to this one once restarted),
    // then every pending debounced store runs now.
    hocuspocus.closeConnections();
    sync.closeAll({ force: false });
    hocuspocus.flushPendingStores();
    await storesSettled(deadline);
    sync.closeAll({ force: true });
    await Promise.race([httpClosed, sleep(remaining())]);
    httpServer.closeAllConnections();

    // An update that was in flight when the shutdown began is stored too.
    hocuspocus.flushPendingStores();
    await storesSettled(deadline);
    const unsaved = persistence.unsavedDocuments();
    if (unsaved.length > 0) {
      persistence.abandonRetries();
      logger.error({ unsaved }, 'shutting down with documents whose last changes are not stored');
    }
    // Nothing more to tell the other instances (the fan-out's channels close with it).
    await Promise.race([
      cluster
        .close()
        .catch((error: unknown) => logger.warn({ err: error }, 'closing Redis failed')),
      sleep(Math.min(remaining(), 2_000)),
    ]);
    // Reports being recorded are kept; an unreachable database holds nothing past the deadline.
    await Promise.race([monitoring.close(), sleep(remaining())]);
    // A store stuck on an unreachable database must not hold the process past its deadline.
    await Promise.race([
      storage
        .close()
        .catch((error: unknown) => logger.warn({ err: error }, 'closing storage failed')),
      sleep(Math.max(remaining(), 1_000)),
    ]);
    return { unsaved };
  }

  return {
    httpServer,
    storage,
    hocuspocus,
    logger,
    mailer,
    metrics,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          const address = httpServer.address();
          const actualPort = typeof address === 'object' && address ? address.port : port;
          listeningPort = actualPort;
          resolve({ port: actualPort, url: `http://localhost:${actualPort}` });
        });
      });
    },
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}
