import type { IncomingMessage, ServerResponse } from 'node:http';
import { MONITORING_PATH, type UpdateRefusalReason } from '@pipit/protocol';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestContext } from './request-context';

/**
 * Prometheus metrics (operations), kept in a registry of this server's own rather than
 * prom-client's global one, so two servers in one process (tests, a dev restart) never mix counts.
 * Labels are bounded: a route is the matched pattern (`/api/apps/:id`), never the raw path.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Counts the response when it is done (or the client gave up), with its duration. */
  observeResponse(req: IncomingMessage, res: ServerResponse, request: RequestContext): void;
  /** Where the gauges read their values at each scrape (no counting that could drift). */
  observeCollab(sources: CollabSources): void;
  /** Storage latency seen by the collab layer. */
  readonly collab: CollabTimings;
  /** One `/monitoring` envelope received, by what became of it. */
  monitoringReport(outcome: MonitoringOutcome): void;
  /** This instance's figures as `/metrics` gives them, read from the same registry (/admin). */
  snapshot(): Promise<MetricsSnapshot>;
}

export interface MetricsSnapshot {
  sockets: number;
  documents: number;
  /** HTTP responses since the process started, and those with a 5xx status. */
  requests: number;
  serverErrors: number;
  rssBytes: number;
  heapBytes: number;
}

export interface CollabSources {
  websocketConnections(): number;
  documentsLoaded(): number;
}

/** What the collab layer measures: each timing starts a timer (calling its result records it). */
export interface CollabTimings {
  documentStore(): () => void;
  updateLogAppend(): () => void;
  /** A client's sync message refused (its connection to the document closed), by reason. */
  protocolError(reason: UpdateRefusalReason): void;
  /**
   * A socket (503) or a document (`server_busy`) told to come back later: the server was opening
   * as many at once as it takes (ResourceLimits.openingAtOnce).
   */
  openingShed(what: OpeningKind): void;
}

/** What is being opened: a sync socket, or a document on one. */
export type OpeningKind = 'socket' | 'document';
export const OPENING_KINDS: readonly OpeningKind[] = ['socket', 'document'];

/** Every reason a client's sync message is refused for: each a series from the start. */
export const PROTOCOL_ERROR_REASONS: readonly UpdateRefusalReason[] = [
  'update_rejected',
  'document_too_large',
  'over_capacity',
  'slow_down',
  'server_busy',
];

export const MONITORING_OUTCOMES = ['accepted', 'rejected', 'rate_limited', 'too_large'] as const;
export type MonitoringOutcome = (typeof MONITORING_OUTCOMES)[number];

/** Timings that the collab layer uses when no metrics are wired (tests of persistence alone). */
export const NO_COLLAB_TIMINGS: CollabTimings = {
  documentStore: () => () => undefined,
  updateLogAppend: () => () => undefined,
  protocolError: () => undefined,
  openingShed: () => undefined,
};

const HTTP_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STORAGE_BUCKETS_SECONDS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** nginx's convention for "the client closed the connection before the answer was complete". */
const CLIENT_CLOSED_STATUS = '499';

const APP_MANIFEST = /^\/apps\/[^/]+\/manifest\.webmanifest$/;
const APP_ICON = /^\/apps\/[^/]+\/icons\/[^/]+$/;
const EMOJI_IMAGE = /^\/emoji\/[^/]+$/;

/** The handler a request goes to, by its path: what the server dispatches on, and metrics count. */
export type RequestRoute =
  | '/metrics'
  | '/monitoring'
  | '/api/*'
  | '/apps/:id/manifest.webmanifest'
  | '/apps/:id/icons/:file'
  | '/emoji/:file'
  | 'client';

/**
 * The route label a request starts with, from its path alone. The API replaces `/api/*` with the
 * pattern it matched; everything the client files serve (shell, assets, service worker) is one
 * `client` route, since its paths are as many as the files and pages.
 */
export function routeOf(url: string | undefined): RequestRoute {
  const pathname = (url ?? '/').split('?')[0] ?? '/';
  if (pathname === '/metrics') return '/metrics';
  if (pathname === MONITORING_PATH) return '/monitoring';
  if (pathname === '/api' || pathname.startsWith('/api/')) return '/api/*';
  if (APP_MANIFEST.test(pathname)) return '/apps/:id/manifest.webmanifest';
  if (APP_ICON.test(pathname)) return '/apps/:id/icons/:file';
  if (EMOJI_IMAGE.test(pathname)) return '/emoji/:file';
  return 'client';
}

export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'pipit_http_requests_total',
    help: 'HTTP responses, by matched route, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'pipit_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to the end of its response.',
    labelNames: ['route', 'method'] as const,
    buckets: HTTP_BUCKETS_SECONDS,
    registers: [registry],
  });
  let sources: CollabSources | undefined;
  new Gauge({
    name: 'pipit_websocket_connections',
    help: 'Open sync websockets.',
    registers: [registry],
    collect() {
      this.set(sources?.websocketConnections() ?? 0);
    },
  });
  new Gauge({
    name: 'pipit_documents_loaded',
    help: 'Yjs documents loaded in memory.',
    registers: [registry],
    collect() {
      this.set(sources?.documentsLoaded() ?? 0);
    },
  });
  const documentStores = new Histogram({
    name: 'pipit_document_store_seconds',
    help: 'Time to store one document snapshot (each attempt).',
    buckets: STORAGE_BUCKETS_SECONDS,
    registers: [registry],
  });
  const logAppends = new Histogram({
    name: 'pipit_update_log_append_seconds',
    help: 'Time to append one batch of updates to the durable update log.',
    buckets: STORAGE_BUCKETS_SECONDS,
    registers: [registry],
  });
  /** A counter by one label whose every value is a series from the start (a rate over it is 0, not missing). */
  const countedBy = <L extends string>(
    name: string,
    help: string,
    label: L,
    values: readonly string[],
  ) => {
    const counter = new Counter<L>({ name, help, labelNames: [label], registers: [registry] });
    for (const value of values) counter.inc({ [label]: value } as Record<L, string>, 0);
    return counter;
  };
  const reports = countedBy(
    'pipit_monitoring_reports_total',
    'Error-report envelopes received at /monitoring, by outcome.',
    'outcome',
    MONITORING_OUTCOMES,
  );
  const protocolErrors = countedBy(
    'pipit_sync_protocol_errors_total',
    'Sync messages from clients refused (the connection to that document closed), by reason',
    'reason',
    PROTOCOL_ERROR_REASONS,
  );
  const openingsShed = countedBy(
    'pipit_sync_openings_shed_total',
    'Sync sockets (answered 503) and documents (refused server_busy) told to come back later because the server was opening as many at once as it takes',
    'what',
    OPENING_KINDS,
  );
  // The default collectors start process-wide observers (event loop, GC) that are never stopped:
  // only worth it when someone can scrape them.
  if (options.processMetrics) collectDefaultMetrics({ register: registry });

  return {
    registry,
    observeResponse(req, res, request) {
      const started = process.hrtime.bigint();
      res.once('close', () => {
        const method = METHODS.has(req.method ?? '') ? req.method! : 'other';
        const status = res.writableFinished ? String(res.statusCode) : CLIENT_CLOSED_STATUS;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        requests.inc({ route: request.route, method, status });
        durations.observe({ route: request.route, method }, seconds);
      });
    },
    observeCollab(given) {
      sources = given;
    },
    collab: {
      documentStore: () => documentStores.startTimer(),
      updateLogAppend: () => logAppends.startTimer(),
      protocolError: (reason) => protocolErrors.inc({ reason }),
      openingShed: (what) => openingsShed.inc({ what }),
    },
    monitoringReport(outcome) {
      reports.inc({ outcome });
    },
    async snapshot() {
      const sum = async (name: string, counts?: (labels: Record<string, unknown>) => boolean) => {
        const metric = registry.getSingleMetric(name);
        if (!metric) return 0;
        const { values } = await metric.get();
        return values
          .filter((v) => !counts || counts(v.labels))
          .reduce((total, v) => total + v.value, 0);
      };
      const memory = process.memoryUsage();
      return {
        sockets: await sum('pipit_websocket_connections'),
        documents: await sum('pipit_documents_loaded'),
        requests: await sum('pipit_http_requests_total'),
        serverErrors: await sum('pipit_http_requests_total', (l) =>
          String(l.status).startsWith('5'),
        ),
        rssBytes: memory.rss,
        heapBytes: memory.heapUsed,
      };
    },
  };
}
