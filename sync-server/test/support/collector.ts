import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedRequest {
  method: string;
  /** Path and query, as the request line had them. */
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface TestCollector {
  /** http://127.0.0.1:{port} */
  url: string;
  port: number;
  /** Every request received, complete bodies only, in arrival order. */
  readonly requests: CollectedRequest[];
  /** TCP connections opened to it, requests or not: "contacted at all". */
  readonly connections: number;
  /** A DSN for this collector: `http://{key}@127.0.0.1:{port}{prefix}/{project}`. */
  dsn(key: string, project: string, prefix?: string): string;
  /** How it answers from now on: 200 `{}`, a status, or never (the request hangs). */
  respondWith(mode: number | 'hang'): void;
  close(): Promise<void>;
}

/**
 * A stand-in for an upstream error collector (Sentry's envelope endpoint,
 * `POST {prefix}/api/{project}/envelope/`): a plain HTTP server that records what it receives.
 */
export async function startTestCollector(): Promise<TestCollector> {
  const requests: CollectedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let connections = 0;
  let mode: number | 'hang' = 200;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      if (mode === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(mode, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    requests,
    get connections() {
      return connections;
    },
    dsn: (key, project, prefix = '') => `http://${key}@127.0.0.1:${port}${prefix}/${project}`,
    respondWith(next) {
      mode = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Safari/537.36';

export interface TestErrorEvent {
  eventId?: string;
  type?: string;
  message?: string;
  /** The in-app frame nearest the throw. */
  frame?: { filename: string; function: string };
  /** The route the client tags the report with. */
  route?: string;
  /** The page's path (the report's URL adds a token query that must not be kept). */
  path?: string;
  userAgent?: string;
  /** Merged over the event last. */
  extra?: Record<string, unknown>;
}

/** A browser error event shaped as @sentry/browser sends it, with a fresh event id. */
export function errorEvent(options: TestErrorEvent = {}): Record<string, unknown> {
  const eventId = options.eventId ?? randomBytes(16).toString('hex');
  const frame = options.frame ?? {
    filename: 'http://localhost:8080/assets/index-BKx3Yc9f.js',
    function: 'saveHabit',
  };
  return {
    event_id: eventId,
    timestamp: Date.now() / 1000,
    platform: 'javascript',
    level: 'error',
    release: 'pipit@0.1.0',
    environment: 'production',
    exception: {
      values: [
        {
          type: options.type ?? 'TypeError',
          value: options.message ?? "Cannot read properties of undefined (reading 'title')",
          stacktrace: {
            frames: [
              {
                filename: 'http://localhost:8080/assets/vendor-Zx81Qa0p.js',
                function: 'a',
                in_app: false,
              },
              { ...frame, in_app: true, lineno: 1, colno: 2048 },
              {
                filename: 'http://localhost:8080/assets/vendor-Zx81Qa0p.js',
                function: 'b',
                in_app: false,
              },
            ],
          },
          mechanism: { type: 'onerror', handled: false },
        },
      ],
    },
    request: {
      url: `http://localhost:8080${options.path ?? '/apps/x/edit'}?token=secret-token`,
      headers: { 'User-Agent': options.userAgent ?? CHROME_UA, Cookie: 'pipit-session=abc.def' },
    },
    tags: { route: options.route ?? '/apps/$appId/edit' },
    breadcrumbs: [
      { category: 'navigation', data: { from: '/reset?token=abc', to: '/apps' } },
      { category: 'console', message: 'saving', data: { arguments: ['my habit list'] } },
    ],
    ...options.extra,
  };
}

export interface EnvelopeItemSpec {
  type: string;
  /** JSON-serialised unless a string or bytes already. */
  payload: unknown;
  /** Give the item header a `length` (the SDK does for attachments). */
  withLength?: boolean;
}

/** An envelope as the SDK serialises it: header line, then item header / payload pairs. */
export function sentryEnvelope(header: Record<string, unknown>, items: EnvelopeItemSpec[]): Buffer {
  const parts: Buffer[] = [Buffer.from(JSON.stringify(header))];
  for (const item of items) {
    const payload =
      item.payload instanceof Uint8Array
        ? Buffer.from(item.payload)
        : Buffer.from(
            typeof item.payload === 'string' ? item.payload : JSON.stringify(item.payload),
          );
    const itemHeader = { type: item.type, ...(item.withLength ? { length: payload.length } : {}) };
    parts.push(Buffer.from(`\n${JSON.stringify(itemHeader)}\n`), payload);
  }
  return Buffer.concat(parts);
}

/** The usual envelope: one error event for `dsn`. */
export function eventEnvelope(dsn: string, event = errorEvent()): Buffer {
  return sentryEnvelope(
    {
      event_id: event.event_id,
      sent_at: new Date().toISOString(),
      dsn,
      sdk: { name: 'sentry.javascript.react', version: '11.12.0' },
    },
    [{ type: 'event', payload: event }],
  );
}

/** The first line and items of an envelope a collector received. */
export function readEnvelope(body: Buffer): {
  header: Record<string, unknown>;
  items: Array<{ header: Record<string, unknown>; payload: string }>;
} {
  const lines = body.toString('utf8').split('\n');
  const header = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  const items = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    items.push({
      header: JSON.parse(lines[i] ?? '') as Record<string, unknown>,
      payload: lines[i + 1] ?? '',
    });
  }
  return { header, items };
}
