import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FORWARD_TIMEOUT_MS } from '../../src/monitoring/forward';
import type { Storage } from '../../src/storage/types';
import {
  errorEvent,
  eventEnvelope,
  readEnvelope,
  sentryEnvelope,
  startTestCollector,
  type TestCollector,
} from '../support/collector';
import { ENGINES, openEngine } from '../support/engines';
import { type RunningPipit, startPipit } from '../support/start-server';

const DSN = 'http://5f3c9a@errors.example.org/42';
const TUNNEL = '/monitoring?o=acme&p=42';

function post(pipit: RunningPipit, body: string | Uint8Array, path = TUNNEL) {
  return fetch(`${pipit.url}${path}`, {
    method: 'POST',
    headers: { Origin: pipit.url, 'Content-Type': 'text/plain;charset=UTF-8' },
    body,
  });
}

describe.each(ENGINES)('forwarding reports upstream on %s', (engine) => {
  let upstream: TestCollector;
  /** A collector nobody configured: its address only ever appears inside requests. */
  let rogue: TestCollector;
  let pipit: RunningPipit;
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let upstreamDsn: string;

  beforeAll(async () => {
    upstream = await startTestCollector();
    rogue = await startTestCollector();
    ({ storage, cleanup } = await openEngine(engine));
    upstreamDsn = upstream.dsn('upkey', '7', '/sentry');
    pipit = await startPipit({
      storage,
      env: {
        MONITORING_DSN: DSN,
        MONITORING_ORG: 'acme',
        MONITORING_UPSTREAM_DSN: upstreamDsn,
      },
      rateLimits: { monitoringPerIp: { limit: 10_000, windowMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await pipit.close();
    await cleanup();
    await upstream.close();
    await rogue.close();
  });
  afterEach(() => upstream.respondWith(200));

  /** The envelopes the upstream collector has received whose event has this message. */
  const arrived = (message: string) =>
    upstream.requests.filter((r) => r.body.toString('utf8').includes(message));

  it('forwards an accepted envelope with the upstream DSN, X-Sentry-Auth and the redacted event', async () => {
    const event = errorEvent({ message: 'Forward me' });
    const response = await post(pipit, eventEnvelope(DSN, event));
    expect(response.status).toBe(200);
    await expect.poll(() => arrived('Forward me').length).toBe(1);
    const [received] = arrived('Forward me');
    expect(received).toMatchObject({
      method: 'POST',
      url: '/sentry/api/7/envelope/',
      headers: {
        'content-type': 'application/x-sentry-envelope',
        'x-sentry-auth': 'Sentry sentry_version=7, sentry_key=upkey, sentry_client=pipit-tunnel/1',
      },
    });
    expect(received!.headers.cookie).toBeUndefined();
    const envelope = readEnvelope(received!.body);
    expect(envelope.header).toMatchObject({ dsn: upstreamDsn, event_id: event.event_id });
    expect(envelope.items).toHaveLength(1);
    expect(envelope.items[0]!.header.type).toBe('event');
    const payload = JSON.parse(envelope.items[0]!.payload) as Record<string, unknown>;
    expect(payload.exception).toEqual(event.exception);
    expect(envelope.items[0]!.payload).not.toContain('secret-token');
    expect(envelope.items[0]!.payload).not.toContain('pipit-session');
  });

  it('forwards health counters but not attachments', async () => {
    const event = errorEvent({ message: 'With an attachment' });
    const body = sentryEnvelope({ dsn: DSN, event_id: event.event_id }, [
      { type: 'event', payload: event },
      { type: 'attachment', payload: new TextEncoder().encode('private notes'), withLength: true },
      { type: 'client_report', payload: { discarded_events: [] } },
    ]);
    expect((await post(pipit, body)).status).toBe(200);
    await expect.poll(() => arrived('With an attachment').length).toBe(1);
    const envelope = readEnvelope(arrived('With an attachment')[0]!.body);
    expect(envelope.items.map((i) => i.header.type)).toEqual(['event', 'client_report']);
    expect(arrived('With an attachment')[0]!.body.toString()).not.toContain('private notes');
  });

  it('never contacts an address a request names, accepted or refused', async () => {
    const rogueDsn = rogue.dsn('5f3c9a', '42');
    const before = upstream.requests.length;
    const refused = [
      // The right key and project at the rogue's host: a forged DSN.
      post(pipit, eventEnvelope(rogueDsn, errorEvent({ message: 'Forged' }))),
      post(pipit, eventEnvelope(rogue.dsn('upkey', '7', '/sentry'), errorEvent())),
      post(pipit, eventEnvelope(DSN, errorEvent()), `/monitoring?o=acme&p=7&r=${rogue.url}`),
      post(pipit, `${JSON.stringify({ dsn: rogueDsn })}\nnot an item`),
    ];
    for (const response of await Promise.all(refused))
      expect(response.status).toBeGreaterThanOrEqual(400);
    // Accepted, with the rogue's address everywhere a request can put one but the configured DSN.
    const accepted = errorEvent({ message: 'Accepted with a rogue address' });
    (accepted.request as Record<string, unknown>).url = `${rogue.url}/page`;
    accepted.tags = { route: rogue.url, dsn: rogueDsn, upstream: rogue.url };
    const header = {
      dsn: DSN,
      event_id: accepted.event_id,
      upstream: rogue.url,
      tunnel: rogue.url,
    };
    const response = await post(
      pipit,
      sentryEnvelope(header, [{ type: 'event', payload: accepted }]),
      `${TUNNEL}&dsn=${encodeURIComponent(rogueDsn)}&upstream=${encodeURIComponent(rogue.url)}`,
    );
    expect(response.status).toBe(200);
    // Forwards start in request order: once the last one has arrived, any earlier would have too.
    await expect.poll(() => arrived('Accepted with a rogue address').length).toBe(1);
    expect(upstream.requests.length).toBe(before + 1);
    expect(rogue.connections).toBe(0);
    expect(rogue.requests).toEqual([]);
  });

  it('answers the browser at once while the upstream collector hangs', async () => {
    upstream.respondWith('hang');
    const started = Date.now();
    const response = await post(
      pipit,
      eventEnvelope(DSN, errorEvent({ message: 'Slow upstream' })),
    );
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(FORWARD_TIMEOUT_MS);
    // The 200 came back while the forward is still waiting for its answer.
    await expect.poll(() => arrived('Slow upstream').length).toBe(1);
    const { groups } = await storage.monitoring.listGroups({ limit: 100, offset: 0 });
    expect(groups.some((g) => g.message === 'Slow upstream')).toBe(true);
  });

  it('keeps the report and says so in the log when the upstream refuses it', async () => {
    upstream.respondWith(503);
    const response = await post(
      pipit,
      eventEnvelope(DSN, errorEvent({ message: 'Refused upstream' })),
    );
    expect(response.status).toBe(200);
    await expect
      .poll(() => pipit.logs.find((l) => l.msg === 'the upstream collector refused a report'))
      .toMatchObject({ level: 'warn', status: 503 });
    const { groups } = await storage.monitoring.listGroups({ limit: 100, offset: 0 });
    expect(groups.some((g) => g.message === 'Refused upstream')).toBe(true);
    expect(arrived('Refused upstream')).toHaveLength(1); // never retried
  });
});

describe('without an upstream collector', () => {
  it('keeps reports here and forwards none', async () => {
    const rogue = await startTestCollector();
    const pipit = await startPipit({ env: { MONITORING_DSN: DSN, MONITORING_ORG: 'acme' } });
    try {
      const event = errorEvent({ message: 'Local only' });
      (event.request as Record<string, unknown>).url = `${rogue.url}/page`;
      const response = await post(
        pipit,
        eventEnvelope(DSN, event),
        `${TUNNEL}&upstream=${encodeURIComponent(rogue.url)}`,
      );
      expect(response.status).toBe(200);
      const { groups } = await pipit.server.storage.monitoring.listGroups({ limit: 10, offset: 0 });
      expect(groups.map((g) => g.message)).toEqual(['Local only']);
      expect(rogue.connections).toBe(0);
    } finally {
      await pipit.close();
      await rogue.close();
    }
  });
});
