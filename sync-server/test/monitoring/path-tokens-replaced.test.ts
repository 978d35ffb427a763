import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@pipit/protocol';
import type { ErrorEventRecord, Storage } from '../../src/storage/types';
import {
  errorEvent,
  readEnvelope,
  sentryEnvelope,
  startTestCollector,
  type TestCollector,
} from '../support/collector';
import { openEngine } from '../support/engines';
import { type RunningPipit, startPipit } from '../support/start-server';

const DSN = 'http://5f3c9a@errors.example.org/42';
const TUNNEL = '/monitoring?o=acme&p=42';

/** An invitation token as the server makes them: 32 url-safe characters. */
const newToken = () => randomBytes(24).toString('base64url');

/**
 * A report @sentry/browser makes on `/join/{token}` when accepting the invitation fails: the token
 * is in the page URL, the transaction (the page's path), the breadcrumbs (the navigation there,
 * the API requests it made, a console line) and — from code of any age — in tags, extra, the
 * culprit and the error's own words.
 */
function reportOnJoinPage(token: string, message: string): Record<string, unknown> {
  const event = errorEvent({ message: `${message} (POST /api/space-invites/${token}/accept)` });
  return {
    ...event,
    request: {
      url: `http://localhost:8080/join/${token}`,
      headers: (event.request as { headers: Record<string, string> }).headers,
    },
    transaction: `/join/${token}`,
    culprit: `http://localhost:8080/join/${token}`,
    tags: { route: '/join/$token', page: `/join/${token}` },
    extra: { link: `https://pipit.example/join/${token}` },
    breadcrumbs: [
      {
        category: 'navigation',
        data: { from: `/login?redirect=%2Fjoin%2F${token}`, to: `/join/${token}` },
      },
      { category: 'fetch', data: { method: 'GET', url: `/api/space-invites/${token}` } },
      {
        category: 'fetch',
        data: { method: 'POST', url: `http://localhost:8080/api/space-invites/${token}/accept` },
      },
      { category: 'console', message: `Could not join via /JOIN/${token}` },
      { category: 'navigation', message: `Opened /login?redirect=%2Fjoin%2F${token}` },
    ],
  };
}

/** The envelope, with the page also in its header's trace context (as a DSC may carry it). */
function envelopeOf(event: Record<string, unknown>) {
  return sentryEnvelope(
    {
      event_id: event.event_id,
      sent_at: new Date().toISOString(),
      dsn: DSN,
      trace: { trace_id: 'a'.repeat(32), transaction: event.transaction },
    },
    [{ type: 'event', payload: event }],
  );
}

/** The stored report a digest names, once the background recording has landed. */
async function reportOf(storage: Storage, digest: string): Promise<ErrorEventRecord> {
  await expect.poll(() => storage.monitoring.findByDigest(digest)).not.toBeNull();
  return (await storage.monitoring.findByDigest(digest))!;
}

/**
 * An invitation link's token is in its path (`/join/{token}`, and the API's
 * `/api/space-invites/{token}`), and whoever holds it may join the space. Error reports cut the
 * query off URLs, so the emailed links' `?token=` never reached the operator's inbox; the path's
 * token did, in the page URL and the breadcrumbs, and forwarded upstream too. The server replaces
 * it in every string of a report before storing or forwarding it, whatever the browser did.
 */
describe('tokens in a path, in error reports', () => {
  let upstream: TestCollector;
  let pipit: RunningPipit;
  let storage: Storage;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    upstream = await startTestCollector();
    ({ storage, cleanup } = await openEngine('sqlite'));
    // No client build here: a page request fails with the error page (and its digest).
    const clientDir = path.join(mkdtempSync(path.join(tmpdir(), 'pipit-no-client-')), 'missing');
    pipit = await startPipit({
      storage,
      clientDir,
      env: {
        MONITORING_DSN: DSN,
        MONITORING_ORG: 'acme',
        MONITORING_UPSTREAM_DSN: upstream.dsn('upkey', '7'),
      },
      rateLimits: { monitoringPerIp: { limit: 10_000, windowMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await pipit.close();
    await cleanup();
    await upstream.close();
  });

  const post = (body: Uint8Array) =>
    fetch(`${pipit.url}${TUNNEL}`, {
      method: 'POST',
      headers: { Origin: pipit.url, 'Content-Type': 'text/plain;charset=UTF-8' },
      body,
    });

  it('stores and forwards a report made on /join/{token} with the token replaced', async () => {
    const token = newToken();
    const event = reportOnJoinPage(token, 'Joining failed');
    expect(JSON.stringify(event).split(token).length - 1).toBeGreaterThanOrEqual(10);
    expect((await post(envelopeOf(event))).status).toBe(200);

    // Forwarded: nowhere in the envelope, its header included.
    await expect
      .poll(() => upstream.requests.filter((r) => r.body.includes(String(event.event_id))).length)
      .toBe(1);
    const forwarded = upstream.requests.find((r) => r.body.includes(String(event.event_id)))!;
    expect(forwarded.body.toString('utf8')).not.toContain(token);
    const envelope = readEnvelope(forwarded.body);
    expect(envelope.header.trace).toEqual({
      trace_id: 'a'.repeat(32),
      transaction: '/join/[Filtered]',
    });
    const sent = JSON.parse(envelope.items[0]!.payload) as Record<string, unknown>;
    expect(sent).toMatchObject({
      request: { url: 'http://localhost:8080/join/[Filtered]' },
      transaction: '/join/[Filtered]',
      culprit: 'http://localhost:8080/join/[Filtered]',
      // The route's own notation is not a token, and stays.
      tags: { route: '/join/$token', page: '/join/[Filtered]' },
      extra: { link: 'https://pipit.example/join/[Filtered]' },
      breadcrumbs: [
        // The query was cut off `from` already; `to` keeps its path, not its token.
        { data: { from: '/login', to: '/join/[Filtered]' } },
        { data: { url: '/api/space-invites/[Filtered]' } },
        { data: { url: 'http://localhost:8080/api/space-invites/[Filtered]/accept' } },
        { message: 'Could not join via /JOIN/[Filtered]' },
        { message: 'Opened /login?redirect=%2Fjoin%2F[Filtered]' },
      ],
    });

    // Stored: the row's columns and the event the inbox shows.
    const { groups } = await storage.monitoring.listGroups({ limit: 100, offset: 0 });
    const group = groups.find((g) => g.message.startsWith('Joining failed'))!;
    expect(group.message).toBe('Joining failed (POST /api/space-invites/[Filtered]/accept)');
    const stored = (await storage.monitoring.sampleEvent(group.fingerprint))!;
    expect(stored).toMatchObject({
      route: '/join/$token',
      url: 'http://localhost:8080/join/[Filtered]',
    });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.eventJson).toContain('/api/space-invites/[Filtered]');
  });

  it('groups reports made with different tokens together', async () => {
    const [a, b] = [newToken(), newToken()];
    for (const token of [a, b]) {
      expect((await post(envelopeOf(reportOnJoinPage(token, 'Two links')))).status).toBe(200);
    }
    const { groups } = await storage.monitoring.listGroups({ limit: 100, offset: 0 });
    const twoLinks = groups.filter((g) => g.message.startsWith('Two links'));
    expect(twoLinks.map((g) => g.count)).toEqual([2]);
    expect(JSON.stringify(groups)).not.toContain(a);
    expect(JSON.stringify(groups)).not.toContain(b);
  });

  it('replaces the token in the server’s own failures on /join/{token}', async () => {
    const token = newToken();
    const response = await fetch(`${pipit.url}/join/${token}`, {
      headers: { Accept: 'text/html' },
    });
    expect(response.status).toBe(500);
    const digest = /data-testid="error-digest">([0-9a-f]+)</.exec(await response.text())?.[1];
    const report = await reportOf(storage, digest!);
    expect(report).toMatchObject({ route: '/join/[Filtered]', url: '/join/[Filtered]' });
    expect(JSON.stringify(report)).not.toContain(token);
  });

  it('replaces the token in an API failure on /api/space-invites/{token}, words included', async () => {
    const token = newToken();
    const original = storage.spaces.inviteByTokenHash;
    storage.spaces.inviteByTokenHash = () =>
      Promise.reject(new Error(`lookup failed for /api/space-invites/${token}`));
    let response: Response;
    try {
      response = await fetch(`${pipit.url}/api/space-invites/${token}`);
    } finally {
      storage.spaces.inviteByTokenHash = original;
    }
    expect(response.status).toBe(500);
    const digest = apiErrorSchema.parse(await response.json()).error.digest!;
    const report = await reportOf(storage, digest);
    expect(report).toMatchObject({
      route: '/api/space-invites/[Filtered]',
      message: 'lookup failed for /api/space-invites/[Filtered]',
    });
    expect(JSON.stringify(report)).not.toContain(token);
  });
});
