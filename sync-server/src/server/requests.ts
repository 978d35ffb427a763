import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { SyncSocket } from '../collab/websocket';
import type { Config } from '../config';
import { createDigest } from '../digest';
import { createAppPwaRoutes } from '../http/app-pwa';
import { type ClientHandler, createClientFiles } from '../http/client-files';
import { createEmojiImages } from '../http/emoji-images';
import { createMetricsEndpoint } from '../http/metrics-endpoint';
import { createMonitoringRoute } from '../http/monitoring';
import {
  contentSecurityPolicy,
  RESOURCE_CSP,
  setSecurityHeaders,
  wantsHsts,
} from '../http/security-headers';
import { createServerRenderer, rendererFileFor, requestOrigin } from '../http/server-render';
import { routeOf } from '../metrics';
import {
  currentRequest,
  type RequestContext,
  requestIdFor,
  runInRequest,
} from '../request-context';
import type { ServerServices, ServerState } from './services';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** The handlers of every HTTP route outside the websocket (http/), built once per server. */
export interface ServerRoutes {
  serveMetrics: Handler;
  api: Handler;
  /**
   * A GET to the API from a page rendered on the server (http/server-render.ts), as the visitor's
   * browser would send it.
   */
  apiOnBehalfOf(apiPath: string, req: IncomingMessage): Promise<Response>;
  appPwa: ReturnType<typeof createAppPwaRoutes>;
  emojiImages: Handler;
  monitoringRoute: ReturnType<typeof createMonitoringRoute>;
  /** The Content-Security-Policy of the client's pages (none in dev). */
  clientCsp: string | undefined;
}

export function createRoutes(
  config: Config,
  services: ServerServices,
  customClient: boolean,
): ServerRoutes {
  const { api, storage, sessions, logger, monitoring, rateLimiter, metrics } = services;
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
  const serveMetrics = createMetricsEndpoint({
    registry: metrics.registry,
    token: config.metricsToken,
    logger,
  });
  // The built client's files share the shell's policy (the service worker runs under it); Vite's
  // dev pages need inline script, so in dev the client sets none.
  const clientCsp = customClient ? undefined : contentSecurityPolicy();
  return {
    serveMetrics,
    api: (req, res) => void apiListener(req, res),
    apiOnBehalfOf,
    appPwa,
    emojiImages,
    monitoringRoute,
    clientCsp,
  };
}

/** Each request's (and websocket upgrade's) id and route, for its log lines and metrics. */
const contextOf = (req: IncomingMessage): RequestContext => ({
  requestId: requestIdFor(req.headers['x-request-id']),
  route: routeOf(req.url),
});

/**
 * The HTTP server: each request gets its id, security headers and metrics, then goes to its
 * route's handler; everything outside them goes to `client()` (none yet: 503).
 */
export function createRequestServer(
  config: Config,
  { logger, metrics, monitoring }: ServerServices,
  routes: ServerRoutes,
  state: ServerState,
  client: () => ClientHandler | undefined,
): HttpServer {
  const httpServer = createHttpServer((req, res) => {
    const request = contextOf(req);
    res.setHeader('X-Request-Id', request.requestId);
    setSecurityHeaders(res, {
      csp: request.route === 'client' ? routes.clientCsp : RESOURCE_CSP,
      hsts: wantsHsts(req, config.publicOrigin, config.trustProxy),
    });
    metrics.observeResponse(req, res, request);
    // While shutting down, finish this request but keep no connection open for another one.
    if (state.shuttingDown) res.shouldKeepAlive = false;
    // A request under way when the shutdown began was answered keep-alive: close its connection now
    // rather than when the client's keep-alive timer ends (seconds the shutdown would wait for).
    res.once('finish', () => {
      if (state.shuttingDown) setImmediate(() => httpServer.closeIdleConnections());
    });
    runInRequest(request, () => {
      try {
        dispatch(request.route, req, res, routes, client());
      } catch (error) {
        const digest = createDigest();
        logger.error({ err: error, digest, path: req.url }, 'request handler threw');
        monitoring.reportServerError({ error, digest, method: req.method, path: req.url });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    });
  });
  httpServer.on('clientError', answerClientError);
  return httpServer;
}

/**
 * A request Node's parser cannot read (bytes past a Content-Length that lied, a broken request
 * line, headers too large) is answered in the API's error shape, as every other refusal is, rather
 * than with Node's bare status line; then the connection closes, since what follows on it cannot
 * be read either. A timeout or a connection already gone is closed as Node would.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const code = error.code ?? '';
  if (!code.startsWith('HPE_') || !socket.writable) {
    if (code === 'ERR_HTTP_REQUEST_TIMEOUT' && socket.writable)
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    else socket.destroy();
    return;
  }
  const tooLarge = code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    error: tooLarge
      ? { code: 'payload_too_large', message: 'The request’s headers are too large.' }
      : { code: 'validation_failed', message: 'The request could not be read as HTTP.' },
  });
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Sends a request to the handler of its route. */
function dispatch(
  route: string,
  req: IncomingMessage,
  res: ServerResponse,
  routes: ServerRoutes,
  client: ClientHandler | undefined,
): void {
  if (route === '/metrics') routes.serveMetrics(req, res);
  else if (route === '/api/*') routes.api(req, res);
  else if (route.startsWith('/apps/:id/')) routes.appPwa.handle(req, res);
  else if (route === '/emoji/:file') routes.emojiImages(req, res);
  else if (route === '/monitoring') routes.monitoringRoute.handle(req, res);
  else if (client) client(req, res);
  else res.writeHead(503).end();
}

/** Websocket upgrades go to the sync socket; a request it does not take is refused. */
export function handleUpgrades(
  httpServer: HttpServer,
  sync: SyncSocket,
  logger: ServerServices['logger'],
  customClient: boolean,
): void {
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node takes its own error listener off a socket it hands over for an upgrade. Without one
    // here, a client that is gone before it is answered (it gave up while the server was busy,
    // and the 503 or 401 is written to a closed socket: EPIPE) would end the whole process.
    // The websocket library adds its own once the upgrade is accepted.
    socket.on('error', () => socket.destroy());
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
}

/** The built client under `config.clientDir`, with the pages the server renders. */
export function createBuiltClient(
  config: Config,
  { logger, monitoring }: ServerServices,
  routes: ServerRoutes,
): ClientHandler {
  return createClientFiles({
    dir: config.clientDir,
    logger,
    reportServerError: monitoring.reportServerError,
    canSeeApp: routes.appPwa.canSeeApp,
    canOpenEditor: routes.appPwa.canOpenEditor,
    fetchApi: routes.apiOnBehalfOf,
    serverRender: createServerRenderer({
      clientDir: config.clientDir,
      rendererFile: rendererFileFor(config.clientDir),
      fetchApi: routes.apiOnBehalfOf,
      originOf: (req) => requestOrigin(req, config.publicOrigin, config.trustProxy),
      logger,
    }),
  });
}
