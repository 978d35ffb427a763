import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminMessagesResponseSchema,
  clientConfigSchema,
  errorDetailSchema,
  errorGroupsResponseSchema,
} from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { errorEvent, eventEnvelope } from '../support/collector';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { makeOperator } from '../support/operators';

const DSN = 'http://5f3c9a@errors.example.org/42';

describe.each(ENGINES)('the operator’s inbox and the client’s settings (%s)', (engine) => {
  let h: AccountsHarness;
  let operator: ApiClient;
  let member: ApiClient;

  /** A browser's report through the tunnel the client settings name. */
  async function report(message: string, route: string) {
    const config = clientConfigSchema.parse((await h.client().get('/api/client-config')).body);
    const tunnel = config.errorReporting!.tunnel;
    const response = await fetch(`${h.pipit.url}${tunnel}`, {
      method: 'POST',
      headers: { Origin: h.pipit.url, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: new Uint8Array(eventEnvelope(DSN, errorEvent({ message, route }))),
    });
    expect(response.status).toBe(200);
  }

  beforeAll(async () => {
    h = await startAccountsServer(engine, {
      env: { MONITORING_DSN: DSN, MONITORING_ORG: 'acme' },
    });
    operator = await h.signup(`olga`);
    await makeOperator(h.pipit.server.storage, 'olga');
    member = await h.signup(`mia_${engine}`);
  });
  afterAll(() => h.close());

  it('tells every browser where to report: the DSN, the same-origin tunnel, release, environment', async () => {
    const response = await h.client().get('/api/client-config');
    expect(response.status).toBe(200);
    expect(clientConfigSchema.parse(response.body)).toEqual({
      errorReporting: {
        dsn: DSN,
        tunnel: '/monitoring?o=acme&p=42',
        release: expect.any(String),
        environment: 'production',
      },
    });
  });

  it('is not found for anyone but an operator, signed in or not', async () => {
    for (const client of [h.client(), member]) {
      for (const path of [
        '/api/admin/errors',
        '/api/admin/errors/abc',
        '/api/admin/digests/0123456789ab',
        '/api/admin/messages',
      ]) {
        const response = await client.get(path);
        expect(response.status, path).toBe(404);
        expect((response.body as { error: { code: string } }).error.code).toBe('not_found');
      }
    }
  });

  it('lists error groups with counts and routes, and shows one with its latest report', async () => {
    await report('Habit 1 has no title', '/apps/$id');
    await report('Habit 2 has no title', '/apps/$id/pwa');
    await report('Another failure', '/explore');
    const listed = errorGroupsResponseSchema.parse((await operator.get('/api/admin/errors')).body);
    expect(listed.total).toBeGreaterThanOrEqual(2);
    expect(listed.dropped).toEqual({
      total: 0,
      since: null,
      byReason: { rate_limited: 0, over_budget: 0, too_large: 0, evicted: 0 },
    });
    const habits = listed.groups.find((g) => g.message.includes('has no title'))!;
    expect(habits).toMatchObject({ source: 'client', count: 2, type: 'TypeError' });
    expect(habits.routes.sort()).toEqual(['/apps/$id', '/apps/$id/pwa']);
    expect(habits.browsers[0]).toMatch(/^Chrome/);

    const detail = errorDetailSchema.parse(
      (await operator.get(`/api/admin/errors/${habits.fingerprint}`)).body,
    );
    expect(detail.group.fingerprint).toBe(habits.fingerprint);
    expect(detail.sample.route).toBe('/apps/$id/pwa');
    expect(detail.sample.event).toMatchObject({ exception: expect.any(Object) });
    expect((await operator.get('/api/admin/errors/no-such-group')).status).toBe(404);
    expect((await operator.get('/api/admin/errors?page=0')).status).toBe(400);
  });

  it('says how many reports were dropped since when, and why', async () => {
    const tooLarge = await fetch(`${h.pipit.url}/monitoring?o=acme&p=42`, {
      method: 'POST',
      headers: { Origin: h.pipit.url, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: new Uint8Array(
        eventEnvelope(DSN, errorEvent({ extra: { padding: 'x'.repeat(1_100_000) } })),
      ),
    });
    expect(tooLarge.status).toBe(413);
    const dropped = async () =>
      errorGroupsResponseSchema.parse((await operator.get('/api/admin/errors')).body).dropped;
    await expect.poll(async () => (await dropped()).total).toBe(1);
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    expect(await dropped()).toEqual({
      total: 1,
      since: today,
      byReason: { rate_limited: 0, over_budget: 0, too_large: 1, evicted: 0 },
    });
  });

  it('finds a server error by the digest the person saw', async () => {
    const { users } = h.pipit.server.storage;
    const original = users.findByUsername;
    users.findByUsername = () => Promise.reject(new Error('replica lag exceeded'));
    let digest: string;
    try {
      const failed = await h.client().get('/api/profiles/ada');
      expect(failed.status).toBe(500);
      digest = (failed.body as { error: { digest: string } }).error.digest;
    } finally {
      users.findByUsername = original;
    }
    await expect
      .poll(async () => (await operator.get(`/api/admin/digests/${digest}`)).status)
      .toBe(200);
    const detail = errorDetailSchema.parse(
      (await operator.get(`/api/admin/digests/${digest.toUpperCase()}`)).body,
    );
    expect(detail.sample).toMatchObject({
      digest,
      route: '/api/profiles/ada',
      environment: 'production',
    });
    expect(detail.group).toMatchObject({ source: 'server', message: 'replica lag exceeded' });
    expect(JSON.stringify(detail.sample.event)).toContain('replica lag exceeded');
    expect((await operator.get('/api/admin/digests/000000000000')).status).toBe(404);
    expect((await operator.get('/api/admin/digests/not-a-digest')).status).toBe(400);
  });

  it('shows contact and feedback messages, newest first, with the sender', async () => {
    const send = (client: ApiClient, body: Record<string, unknown>) =>
      client.request('POST', '/api/messages', { body, humanCheck: true });
    expect(
      (await send(h.client(), { kind: 'contact', email: 'a@example.org', body: 'Hello' })).status,
    ).toBe(201);
    expect(
      (await send(member, { kind: 'feedback', body: 'Love it', page: '/explore' })).status,
    ).toBe(201);
    const { messages } = adminMessagesResponseSchema.parse(
      (await operator.get('/api/admin/messages')).body,
    );
    expect(messages.slice(0, 2)).toMatchObject([
      { kind: 'feedback', body: 'Love it', username: `mia_${engine}`, page: '/explore' },
      { kind: 'contact', body: 'Hello', email: 'a@example.org', username: null },
    ]);
  });
});
