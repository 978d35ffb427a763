import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createId } from '@pipit/protocol';
import { ConfigError, loadConfig } from '../../src/config';
import { MONITORING_OUTCOMES, OPENING_KINDS, PROTOCOL_ERROR_REASONS } from '../../src/metrics';
import { grantEveryone } from '../support/access';
import { ENGINES, openEngine } from '../support/engines';
import { acknowledged, connectProvider } from '../support/provider';
import { RawSyncClient, updateMessage } from '../support/raw-sync';
import { CLIENT_DIR, type RunningPipit, startPipit } from '../support/start-server';

const TOKEN = 'a-long-random-metrics-token-1234567890';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text exposition format, sample lines only. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name = '', value = ''] of (match[2] ?? '').matchAll(
      /(\w+)="((?:[^"\\]|\\.)*)"/g,
    )) {
      labels[name] = value;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

class Scrape {
  constructor(
    readonly text: string,
    readonly samples: Sample[],
  ) {}

  /** The sample with exactly these labels (0 when there is none yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    const wanted = Object.entries(labels);
    const found = this.samples.find(
      (s) =>
        s.name === name &&
        Object.keys(s.labels).length === wanted.length &&
        wanted.every(([k, v]) => s.labels[k] === v),
    );
    return found?.value ?? 0;
  }

  /** Asserts `name` has a series for each of `values` of `label` (counted from 0 at start). */
  expectSeries(name: string, label: string, values: readonly string[]): void {
    for (const value of values) {
      expect(
        this.samples.some((s) => s.name === name && s.labels[label] === value),
        value,
      ).toBe(true);
    }
  }

  has(name: string): boolean {
    return this.samples.some((s) => s.name === name);
  }
}

async function scrape(pipit: RunningPipit): Promise<Scrape> {
  const response = await fetch(`${pipit.url}/metrics`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  return new Scrape(text, parseMetrics(text));
}

describe.each(ENGINES)('GET /metrics on %s', (engine) => {
  let pipit: RunningPipit;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const opened = await openEngine(engine);
    cleanup = opened.cleanup;
    pipit = await startPipit({
      storage: opened.storage,
      env: { METRICS_TOKEN: TOKEN },
      access: grantEveryone('editor'),
      storeDebounceMs: 50,
    });
  });
  afterAll(async () => {
    await pipit.close();
    await cleanup();
  });

  it('answers only the configured bearer token', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-of-a-decent-length',
      `Bearer ${TOKEN}x`,
      `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const response = await fetch(`${pipit.url}/metrics`, {
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain('pipit_');
    }
    const response = await fetch(`${pipit.url}/metrics`, {
      headers: { Authorization: `bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('# TYPE pipit_http_requests_total counter');
  });

  it('counts requests by the route they matched, never by their raw path', async () => {
    const appId = createId();
    const script = readdirSync(path.join(CLIENT_DIR, 'assets')).find((f) => f.endsWith('.js'));
    const before = await scrape(pipit);
    const requests: Array<[string, RequestInit?]> = [
      ['/api/health'],
      ['/api/health'],
      [`/api/apps/${appId}`],
      [`/api/apps/${appId}/collaborators`],
      [`/api/nothing/here/${appId}`],
      ['/'],
      [`/assets/${script}`],
      [`/apps/${appId}/manifest.webmanifest`],
      [`/apps/${appId}/icons/192.png`],
      ['/monitoring?o=pipit&p=1', { method: 'POST', body: 'not an envelope' }],
      ['/metrics'],
    ];
    for (const [url, init] of requests) await (await fetch(`${pipit.url}${url}`, init)).text();
    const after = await scrape(pipit);

    const counted = (route: string, method: string, status: string) =>
      after.value('pipit_http_requests_total', { route, method, status }) -
      before.value('pipit_http_requests_total', { route, method, status });
    expect(counted('/api/health', 'GET', '200')).toBe(2);
    expect(counted('/api/apps/:id', 'GET', '401')).toBe(1);
    expect(counted('/api/apps/:id/collaborators', 'GET', '401')).toBe(1);
    expect(counted('/api/*', 'GET', '404')).toBe(1);
    expect(counted('client', 'GET', '200')).toBe(2);
    expect(counted('/apps/:id/manifest.webmanifest', 'GET', '404')).toBe(1);
    expect(counted('/apps/:id/icons/:file', 'GET', '404')).toBe(1);
    // The scrape before this test's requests, and the unauthorized one among them.
    expect(counted('/metrics', 'GET', '200')).toBe(1);
    expect(counted('/metrics', 'GET', '401')).toBe(1);
    const monitoring = after.samples.filter(
      (s) => s.name === 'pipit_http_requests_total' && s.labels.route === '/monitoring',
    );
    expect(monitoring.map((s) => s.labels.method)).toContain('POST');

    const timed = (route: string) =>
      after.value('pipit_http_request_duration_seconds_count', { route, method: 'GET' }) -
      before.value('pipit_http_request_duration_seconds_count', { route, method: 'GET' });
    expect(timed('/api/health')).toBe(2);
    expect(
      after.value('pipit_http_request_duration_seconds_sum', {
        route: '/api/health',
        method: 'GET',
      }),
    ).toBeGreaterThan(0);

    // Bounded labels: no id, no raw path.
    expect(after.text).not.toContain(appId);
    const routes = new Set(
      after.samples.filter((s) => s.labels.route !== undefined).map((s) => s.labels.route),
    );
    for (const route of routes) expect(route).toMatch(/^(client|\/[a-z/:*.-]*)$/);
  });

  it('shows open sync websockets and loaded documents, and times stores and log appends', async () => {
    const before = await scrape(pipit);
    expect(before.value('pipit_websocket_connections')).toBe(0);
    expect(before.value('pipit_documents_loaded')).toBe(0);

    const name = `app/${createId()}`;
    const client = connectProvider({ url: pipit.url, name });
    try {
      expect(await client.ready).toBe(true);
      let during = await scrape(pipit);
      expect(during.value('pipit_websocket_connections')).toBe(1);
      expect(during.value('pipit_documents_loaded')).toBe(1);

      client.doc.getArray<string>('edits').push(['first']);
      await acknowledged(client.provider);
      during = await scrape(pipit);
      expect(
        during.value('pipit_update_log_append_seconds_count') -
          before.value('pipit_update_log_append_seconds_count'),
      ).toBeGreaterThanOrEqual(1);
      await vi.waitFor(async () => {
        const now = await scrape(pipit);
        expect(
          now.value('pipit_document_store_seconds_count') -
            before.value('pipit_document_store_seconds_count'),
        ).toBeGreaterThanOrEqual(1);
      });
    } finally {
      client.destroy();
    }
    await vi.waitFor(async () => {
      const after = await scrape(pipit);
      expect(after.value('pipit_websocket_connections')).toBe(0);
      expect(after.value('pipit_documents_loaded')).toBe(0);
    });
  });

  it('counts sync messages refused, by reason, each reason a series from the start', async () => {
    const before = await scrape(pipit);
    before.expectSeries('pipit_sync_protocol_errors_total', 'reason', PROTOCOL_ERROR_REASONS);
    before.expectSeries('pipit_sync_openings_shed_total', 'what', OPENING_KINDS);
    const name = `app/${createId()}`;
    const raw = await RawSyncClient.open(pipit.url, name);
    try {
      expect(
        await raw.sendAndAnswer(name, updateMessage(name, new Uint8Array([1, 2, 3, 4]))),
      ).toMatchObject({ type: 'close-message', reason: 'update_rejected' });
    } finally {
      raw.close();
    }
    const after = await scrape(pipit);
    expect(
      after.value('pipit_sync_protocol_errors_total', { reason: 'update_rejected' }) -
        before.value('pipit_sync_protocol_errors_total', { reason: 'update_rejected' }),
    ).toBe(1);
  });

  it('counts error reports by outcome, each outcome a series from the start', async () => {
    const before = await scrape(pipit);
    before.expectSeries('pipit_monitoring_reports_total', 'outcome', MONITORING_OUTCOMES);
    pipit.server.metrics.monitoringReport('rate_limited');
    pipit.server.metrics.monitoringReport('rate_limited');
    pipit.server.metrics.monitoringReport('too_large');
    const after = await scrape(pipit);
    const counted = (outcome: string) =>
      after.value('pipit_monitoring_reports_total', { outcome }) -
      before.value('pipit_monitoring_reports_total', { outcome });
    expect(counted('rate_limited')).toBe(2);
    expect(counted('too_large')).toBe(1);
    expect(counted('accepted')).toBe(0);
  });

  it("includes the process's own metrics", async () => {
    const now = await scrape(pipit);
    expect(now.has('process_cpu_user_seconds_total')).toBe(true);
    expect(now.has('nodejs_heap_size_used_bytes')).toBe(true);
    expect(now.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let pipit: RunningPipit;
  beforeAll(async () => {
    pipit = await startPipit();
  });
  afterAll(() => pipit.close());

  it('does not exist, token or not', async () => {
    const tries: Array<Record<string, string>> = [{}, { Authorization: `Bearer ${TOKEN}` }];
    for (const headers of tries) {
      const response = await fetch(`${pipit.url}/metrics`, { headers });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('pipit_');
    }
  });

  it('keeps counting in the server’s own registry', async () => {
    await (await fetch(`${pipit.url}/api/health`)).text();
    const text = await pipit.server.metrics.registry.metrics();
    const health = parseMetrics(text).find(
      (s) => s.name === 'pipit_http_requests_total' && s.labels.route === '/api/health',
    );
    expect(health?.value).toBe(1);
  });
});

describe('METRICS_TOKEN', () => {
  it('must be long enough to be a secret', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'sixteen chars ok' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });
});
