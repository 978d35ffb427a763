import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_EVENT_MAX_BYTES } from '../../src/monitoring/event-json';
import { storedBytes } from '../../src/monitoring/ingest';
import type { Storage } from '../../src/storage/types';
import { errorEvent, eventEnvelope, sentryEnvelope } from '../support/collector';
import { ENGINES, type Engine, openEngine } from '../support/engines';
import { type RunningPipit, type StartOptions, startPipit } from '../support/start-server';
import { sleep } from '../support/timing';

const DSN = 'http://5f3c9a@errors.example.org/42';
const TUNNEL = '/monitoring?o=acme&p=42';
const ENV = { MONITORING_DSN: DSN, MONITORING_ORG: 'acme' };
const ROOMY = { monitoringPerIp: { limit: 10_000, windowMs: 60_000 } };
const MiB = 1024 * 1024;

interface Harness {
  pipit: RunningPipit;
  storage: Storage;
  close(): Promise<void>;
}

async function start(
  engine: Engine,
  rateLimits: StartOptions['rateLimits'] = ROOMY,
  env: Record<string, string> = {},
): Promise<Harness> {
  const { storage, cleanup } = await openEngine(engine);
  const pipit = await startPipit({ storage, env: { ...ENV, ...env }, rateLimits });
  return {
    pipit,
    storage,
    async close() {
      await pipit.close();
      await cleanup();
    },
  };
}

function post(
  pipit: RunningPipit,
  body: string | Uint8Array,
  options: { path?: string; headers?: Record<string, string>; method?: string } = {},
) {
  return fetch(`${pipit.url}${options.path ?? TUNNEL}`, {
    method: options.method ?? 'POST',
    headers: { Origin: pipit.url, 'Content-Type': 'text/plain;charset=UTF-8', ...options.headers },
    body,
  });
}

async function everything(storage: Storage) {
  return storage.monitoring.listGroups({ limit: 1_000, offset: 0 });
}

describe.each(ENGINES)('POST /monitoring on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await start(engine);
  });
  afterAll(() => h.close());

  it('stores a report and groups occurrences of the same error', async () => {
    const first = errorEvent({ message: 'Habit 41 has no title', route: '/apps/$appId/edit' });
    const second = errorEvent({ message: 'Habit 7 has no title', route: '/apps/$appId/pwa' });
    for (const event of [first, second]) {
      const response = await post(h.pipit, eventEnvelope(DSN, event));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
    const { groups } = await everything(h.storage);
    // The group keeps the message it was first seen with.
    const group = groups.find((g) => g.message === 'Habit 41 has no title');
    expect(group).toMatchObject({
      source: 'client',
      type: 'TypeError',
      topFrame: '/assets/index.js:saveHabit',
      count: 2,
      browsers: ['Chrome 126'],
    });
    expect(group?.routes.sort()).toEqual(['/apps/$appId/edit', '/apps/$appId/pwa']);
    const sample = await h.storage.monitoring.sampleEvent(group!.fingerprint);
    expect(sample?.id).toBe(second.event_id);
    expect(sample?.url).toBe('http://localhost:8080/apps/x/edit');
    expect(JSON.parse(sample!.eventJson)).toMatchObject({
      exception: { values: [{ type: 'TypeError', value: 'Habit 7 has no title' }] },
      breadcrumbs: [{ category: 'navigation', data: { from: '/reset', to: '/apps' } }, {}],
    });
  });

  it('keeps no password, token or cookie of a report', async () => {
    const event = errorEvent({
      message: 'Sign-in failed',
      extra: {
        extra: { password: 'hunter2', note: 'kept' },
        contexts: { form: { token: 'tok-123' } },
      },
    });
    (event.request as Record<string, unknown>).cookies = { session: 'abc' };
    (event.request as Record<string, unknown>).data = { password: 'hunter2' };
    (event.request as { headers: Record<string, string> }).headers.Authorization = 'Bearer xyz';
    expect((await post(h.pipit, eventEnvelope(DSN, event))).status).toBe(200);
    const group = (await everything(h.storage)).groups.find((g) => g.message === 'Sign-in failed');
    const stored = (await h.storage.monitoring.sampleEvent(group!.fingerprint))!.eventJson;
    for (const secret of ['hunter2', 'tok-123', 'abc.def', 'Bearer', 'secret-token', 'my habit']) {
      expect(stored).not.toContain(secret);
    }
    // Nor anything else the inbox does not show.
    expect(JSON.parse(stored)).not.toHaveProperty('extra');
  });

  it('stores a few kilobytes of a report padded with 250 KB of contexts and extra', async () => {
    const blob = 'x'.repeat(250_000);
    const event = errorEvent({
      message: 'Padded report',
      extra: {
        contexts: { padding: { blob } },
        extra: { padding: blob },
        breadcrumbs: Array.from({ length: 100 }, (_, i) => ({ message: `${i}`.repeat(2_048) })),
      },
    });
    const body = eventEnvelope(DSN, event);
    expect(body.length).toBeGreaterThan(700_000);
    expect((await post(h.pipit, body)).status).toBe(200);
    const group = (await everything(h.storage)).groups.find((g) => g.message === 'Padded report');
    const sample = (await h.storage.monitoring.sampleEvent(group!.fingerprint))!;
    expect(Buffer.byteLength(sample.eventJson)).toBeLessThanOrEqual(STORED_EVENT_MAX_BYTES);
    expect(storedBytes(sample)).toBeLessThan(24 * 1024);
    const stored = JSON.parse(sample.eventJson) as Record<string, unknown>;
    expect(stored).not.toHaveProperty('contexts');
    expect(stored).not.toHaveProperty('extra');
    expect(sample.browser).toBe('Chrome 126');
  });

  it('stores a report sent twice once', async () => {
    const event = errorEvent({ message: 'Sent twice' });
    expect((await post(h.pipit, eventEnvelope(DSN, event))).status).toBe(200);
    expect((await post(h.pipit, eventEnvelope(DSN, event))).status).toBe(200);
    const group = (await everything(h.storage)).groups.find((g) => g.message === 'Sent twice');
    expect(group?.count).toBe(1);
  });

  it('accepts an envelope without an error (sessions, client reports) and stores nothing', async () => {
    const before = await everything(h.storage);
    const body = sentryEnvelope({ dsn: DSN, sent_at: new Date().toISOString() }, [
      { type: 'session', payload: { sid: 'x', status: 'ok' } },
      { type: 'client_report', payload: { discarded_events: [] }, withLength: true },
    ]);
    const response = await post(h.pipit, body, {
      headers: { 'Content-Type': 'application/x-sentry-envelope' },
    });
    expect(response.status).toBe(200);
    expect(await everything(h.storage)).toEqual(before);
  });

  const foreign: Array<
    [string, number, (pipit: RunningPipit, event: Record<string, unknown>) => Promise<Response>]
  > = [
    [
      'a foreign project (p)',
      403,
      (p, e) => post(p, eventEnvelope(DSN, e), { path: '/monitoring?o=acme&p=43' }),
    ],
    [
      'a foreign organisation (o)',
      403,
      (p, e) => post(p, eventEnvelope(DSN, e), { path: '/monitoring?o=evil&p=42' }),
    ],
    [
      'no organisation',
      403,
      (p, e) => post(p, eventEnvelope(DSN, e), { path: '/monitoring?p=42' }),
    ],
    [
      'a region none is configured for',
      403,
      (p, e) => post(p, eventEnvelope(DSN, e), { path: `${TUNNEL}&r=eu` }),
    ],
    [
      'a forged DSN: another key',
      403,
      (p, e) => post(p, eventEnvelope('http://forged@errors.example.org/42', e)),
    ],
    [
      'a forged DSN: another host',
      403,
      (p, e) => post(p, eventEnvelope('http://5f3c9a@evil.example/42', e)),
    ],
    [
      'a DSN for another project',
      403,
      (p, e) => post(p, eventEnvelope('http://5f3c9a@errors.example.org/43', e)),
    ],
    [
      'no DSN in the envelope header',
      403,
      (p, e) => post(p, sentryEnvelope({ event_id: e.event_id }, [{ type: 'event', payload: e }])),
    ],
    [
      'a cross-site page',
      403,
      (p, e) => post(p, eventEnvelope(DSN, e), { headers: { Origin: 'https://evil.example' } }),
    ],
    [
      'a cross-site fetch metadata',
      403,
      (p, e) => post(p, eventEnvelope(DSN, e), { headers: { 'Sec-Fetch-Site': 'cross-site' } }),
    ],
    [
      'a malformed first line',
      400,
      (p, e) =>
        post(
          p,
          Buffer.concat([
            Buffer.from('{"dsn": nope\n{"type":"event"}\n'),
            Buffer.from(JSON.stringify(e)),
          ]),
        ),
    ],
    [
      'broken item framing (a length past the end)',
      400,
      (p, e) =>
        post(
          p,
          `${JSON.stringify({ dsn: DSN })}\n{"type":"event","length":999999}\n${JSON.stringify(e)}`,
        ),
    ],
    [
      'broken item framing (a payload longer than its length)',
      400,
      (p, e) =>
        post(
          p,
          `${JSON.stringify({ dsn: DSN })}\n{"type":"event","length":5}\n${JSON.stringify(e)}`,
        ),
    ],
    [
      'an event that is not JSON',
      400,
      (p) => post(p, `${JSON.stringify({ dsn: DSN })}\n{"type":"event"}\n{not json`),
    ],
    [
      'two events in one envelope',
      400,
      (p, e) =>
        post(
          p,
          sentryEnvelope({ dsn: DSN }, [
            { type: 'event', payload: e },
            { type: 'event', payload: errorEvent() },
          ]),
        ),
    ],
    [
      'a body that is not an envelope type',
      415,
      (p, e) => post(p, eventEnvelope(DSN, e), { headers: { 'Content-Type': 'application/json' } }),
    ],
    ['a GET', 405, (p) => fetch(`${p.url}${TUNNEL}`, { headers: { Origin: p.url } })],
    [
      'a declared body over 1 MiB',
      413,
      (p, e) => post(p, eventEnvelope(DSN, { ...e, extra: { padding: 'x'.repeat(MiB) } })),
    ],
  ];

  it.each(foreign)('answers %s with %i and stores nothing', async (_, status, send) => {
    const before = await everything(h.storage);
    const event = errorEvent({ message: `Refused ${status}` });
    const response = await send(h.pipit, event);
    expect(response.status).toBe(status);
    if (status === 405) expect(response.headers.get('allow')).toBe('POST');
    else expect(((await response.json()) as { error: { code: string } }).error.code).toBeTruthy();
    expect(await everything(h.storage)).toEqual(before);
  });

  it('stops reading a chunked body without a length once it passes 1 MiB (413), storing nothing', async () => {
    const before = await everything(h.storage);
    const head = Buffer.from(`${JSON.stringify({ dsn: DSN })}\n{"type":"event"}\n{"padding":"`);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const total = 8 * MiB;
    const { status, sent } = await new Promise<{ status: number; sent: number }>(
      (resolve, reject) => {
        let sent = 0;
        const req = httpRequest(`${h.pipit.url}${TUNNEL}`, {
          method: 'POST',
          headers: { Origin: h.pipit.url, 'Content-Type': 'text/plain' }, // no length: chunked
        });
        req.on('response', (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, sent });
          req.destroy();
        });
        req.on('error', reject);
        const pump = () => {
          while (sent < total) {
            sent += chunk.length;
            if (!req.write(sent === chunk.length ? Buffer.concat([head, chunk]) : chunk)) {
              req.once('drain', pump);
              return;
            }
          }
          req.end();
        };
        pump();
      },
    );
    expect(status).toBe(413);
    // The server answered long before the 8 MiB were sent: it stopped reading.
    expect(sent).toBeLessThan(total);
    expect(await everything(h.storage)).toEqual(before);
  });
});

describe.each(ENGINES)('the /monitoring rate limit on %s', (engine) => {
  it('answers the 61st envelope in a minute with 429, Retry-After and X-Sentry-Rate-Limits, and stores it not', async () => {
    const h = await start(engine, {});
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        const response = await post(h.pipit, eventEnvelope(DSN, errorEvent({ message: 'Burst' })));
        statuses.push(response.status);
      }
      expect(statuses.every((s) => s === 200)).toBe(true);
      const over = await post(h.pipit, eventEnvelope(DSN, errorEvent({ message: 'One too many' })));
      expect(over.status).toBe(429);
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(over.headers.get('x-sentry-rate-limits')).toBe(
        `${retryAfter}::organization:rate_limited`,
      );
      const { groups } = await everything(h.storage);
      expect(groups.find((g) => g.message === 'Burst')?.count).toBe(60);
      expect(groups.some((g) => g.message === 'One too many')).toBe(false);
    } finally {
      await h.close();
    }
  });
});

const DAY_S = 24 * 60 * 60;

/** Drops counted so far, by reason (written in the background: waited for). */
async function dropsOf(storage: Storage, reason: string): Promise<number> {
  const rows = await storage.monitoring.drops();
  return rows.find((row) => row.reason === reason)?.count ?? 0;
}

describe.each(ENGINES)('the daily byte budget of an address on %s', (engine) => {
  it('refuses with 429 and the SDK’s headers once an address’s day of stored reports is spent', async () => {
    const h = await start(engine, ROOMY, {
      MONITORING_DAILY_BYTES_PER_ADDRESS: String(16 * 1024),
      TRUST_PROXY: 'true',
    });
    try {
      const from = (address: string, message: string) =>
        post(h.pipit, eventEnvelope(DSN, errorEvent({ message })), {
          headers: { 'X-Forwarded-For': address },
        });
      let accepted = 0;
      let refused: Response | undefined;
      for (let i = 0; i < 40 && !refused; i++) {
        const response = await from('2001:db8:1:2::1', 'Within budget');
        if (response.status === 200) accepted += 1;
        else refused = response;
      }
      // About 16 KiB of the usual report, a kilobyte or two each: some, never all 40.
      expect(accepted).toBeGreaterThan(3);
      expect(refused?.status).toBe(429);
      const retryAfter = Number(refused!.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(DAY_S - 120);
      expect(retryAfter).toBeLessThanOrEqual(DAY_S);
      expect(refused!.headers.get('x-sentry-rate-limits')).toBe(
        `${retryAfter}::organization:rate_limited`,
      );
      // The same /64 shares the budget; another address has its own.
      expect((await from('2001:db8:1:2:ffff::9', 'Same network')).status).toBe(429);
      expect((await from('198.51.100.7', 'Elsewhere')).status).toBe(200);

      const { groups } = await everything(h.storage);
      expect(groups.find((g) => g.message === 'Within budget')?.count).toBe(accepted);
      expect(groups.some((g) => g.message === 'Same network')).toBe(false);
      await expect.poll(() => dropsOf(h.storage, 'over_budget')).toBe(2);
    } finally {
      await h.close();
    }
  });
});

describe.each(ENGINES)('the caps on stored reports on %s', (engine) => {
  it('keeps at most MONITORING_MAX_GROUPS kinds and MONITORING_MAX_EVENTS reports, the oldest going first', async () => {
    const h = await start(engine, ROOMY, {
      MONITORING_MAX_EVENTS: '3',
      MONITORING_MAX_GROUPS: '2',
    });
    try {
      const send = async (message: string) => {
        expect((await post(h.pipit, eventEnvelope(DSN, errorEvent({ message })))).status).toBe(200);
        await sleep(5); // one millisecond apart at least: "oldest" is by time received
      };
      for (const message of ['Cap one', 'Cap two', 'Cap three']) await send(message);
      let { groups } = await everything(h.storage);
      // A third kind of error: the least recently seen kind goes, with its report.
      expect(groups.map((g) => g.message)).toEqual(['Cap three', 'Cap two']);

      for (let i = 0; i < 3; i++) await send('Cap three');
      ({ groups } = await everything(h.storage));
      expect(groups.map((g) => [g.message, g.count])).toEqual([
        ['Cap three', 4],
        ['Cap two', 1],
      ]);
      // Three reports are kept: the newest three, all of the latest kind.
      expect(await h.storage.monitoring.sampleEvent(groups[1]!.fingerprint)).toBeNull();
      expect(await h.storage.monitoring.evict({ maxEvents: 3, maxGroups: 2 })).toEqual({
        events: 0,
        groups: 0,
      });
      // "Cap one" with its report, then Cap two's and the oldest of Cap three's.
      await expect.poll(() => dropsOf(h.storage, 'evicted')).toBe(3);
    } finally {
      await h.close();
    }
  });
});
