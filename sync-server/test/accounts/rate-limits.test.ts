import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres';
import { ApiClient, errorCode } from '../support/api-client';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { type RunningPipit, startPipit } from '../support/start-server';

const PASSWORD = 'correct horse battery staple';
/** For a test about another limit than the one this replaces. */
const ROOMY = { limit: 10_000, windowMs: 60_000 };

function retryAfterOf(response: { headers: Headers; body: unknown }) {
  return {
    header: Number(response.headers.get('retry-after')),
    body: (response.body as { error: { retryAfter: number } }).error.retryAfter,
  };
}

describe.each(ENGINES)('the rate limits of docs/product/quotas.md on %s', (engine) => {
  let h: AccountsHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('allows 10 wrong passwords a minute per account and address, then answers 429 with Retry-After', async () => {
    // The per-address limit (also 10 a minute) would stop the address first: lifted, to see this
    // one.
    h = await startAccountsServer(engine, {
      rateLimits: { loginPerIp: ROOMY },
      env: { TRUST_PROXY: 'true' },
    });
    await h
      .client()
      .post(
        '/api/auth/signup',
        { username: 'target', email: 't@example.org', password: PASSWORD },
        true,
      );
    const attempt = (password: string, address = '10.0.0.1', login = 'target') =>
      h!.client().request('POST', '/api/auth/login', {
        body: { login, password },
        humanCheck: true,
        headers: { 'X-Forwarded-For': address },
      });
    for (let i = 1; i <= 10; i++) {
      expect(errorCode(await attempt('wrong password'))).toBe('invalid_credentials');
    }
    const limited = await attempt('wrong password');
    expect(limited.status).toBe(429);
    expect(errorCode(limited)).toBe('rate_limited');
    const { header, body } = retryAfterOf(limited);
    expect(header).toBeGreaterThan(0);
    expect(header).toBeLessThanOrEqual(60);
    expect(body).toBe(header);
    // That address is done guessing this account for now, even with the right password…
    expect(errorCode(await attempt(PASSWORD))).toBe('rate_limited');
    // …but not another account, and the owner elsewhere signs in; which resets nothing.
    expect(errorCode(await attempt('wrong password', '10.0.0.1', 'someone_else'))).toBe(
      'invalid_credentials',
    );
    expect((await attempt(PASSWORD, '10.0.1.1')).status).toBe(200);
    expect(errorCode(await attempt(PASSWORD))).toBe('rate_limited');
  }, 60_000);

  it('allows 10 sign-in attempts a minute per address, whichever accounts they try', async () => {
    h = await startAccountsServer(engine, { rateLimits: {}, env: { TRUST_PROXY: 'true' } });
    const attempt = (i: number) =>
      h!.client().request('POST', '/api/auth/login', {
        body: { login: `someone${i}`, password: 'wrong password' },
        humanCheck: true,
        headers: { 'X-Forwarded-For': '192.0.2.7' },
      });
    for (let i = 1; i <= 10; i++) expect(errorCode(await attempt(i))).toBe('invalid_credentials');
    expect(errorCode(await attempt(11))).toBe('rate_limited');
    // Another address is not affected.
    const other = await h.client().request('POST', '/api/auth/login', {
      body: { login: 'someone12', password: 'wrong password' },
      humanCheck: true,
      headers: { 'X-Forwarded-For': '192.0.2.8' },
    });
    expect(errorCode(other)).toBe('invalid_credentials');
  }, 60_000);

  it('allows 5 sign-ups an hour per address', async () => {
    h = await startAccountsServer(engine, { rateLimits: {} });
    for (let i = 1; i <= 5; i++) {
      const ok = await h
        .client()
        .post(
          '/api/auth/signup',
          { username: `person${i}`, email: `p${i}@example.org`, password: PASSWORD },
          true,
        );
      expect(ok.status).toBe(201);
    }
    const sixth = await h
      .client()
      .post(
        '/api/auth/signup',
        { username: 'person6', email: 'p6@example.org', password: PASSWORD },
        true,
      );
    expect(errorCode(sixth)).toBe('rate_limited');
    expect(retryAfterOf(sixth).header).toBeGreaterThan(3000);
    expect(await h.pipit.server.storage.users.findByUsername('person6')).toBeNull();
  }, 60_000);

  it('sends at most 3 reset emails an hour per address', async () => {
    h = await startAccountsServer(engine, { rateLimits: {} });
    await h
      .client()
      .post(
        '/api/auth/signup',
        { username: 'resetter', email: 'r@example.org', password: PASSWORD },
        true,
      );
    for (let i = 0; i < 3; i++) {
      expect(
        (await h.client().post('/api/auth/forgot-password', { email: 'r@example.org' }, true))
          .status,
      ).toBe(202);
    }
    expect(
      errorCode(
        await h.client().post('/api/auth/forgot-password', { email: 'R@example.org' }, true),
      ),
    ).toBe('rate_limited');
    // The refused request sends nothing; the three accepted ones each send a mail, in their time.
    const { smtp } = h;
    await vi.waitFor(() =>
      expect(smtp.messages.filter((m) => /Reset/.test(m.subject))).toHaveLength(3),
    );
  }, 60_000);
});

describe('rate limits across two server instances sharing PostgreSQL', () => {
  let database: TestDatabase;
  const servers: RunningPipit[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    await database?.drop();
  });

  it('count wrong passwords made on either instance together', async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startPipit({
          storage: await openPostgresStorage(database.url),
          env: { HUMAN_CHECK_DIFFICULTY: '500', TRUST_PROXY: 'true' },
          rateLimits: { loginPerIp: ROOMY },
        }),
      );
    }
    const a = new ApiClient(servers[0]!.url);
    await a.post(
      '/api/auth/signup',
      { username: 'shared', email: 's@example.org', password: PASSWORD },
      true,
    );
    const results: string[] = [];
    for (let i = 1; i <= 11; i++) {
      const client = i % 2 ? new ApiClient(servers[0]!.url) : new ApiClient(servers[1]!.url);
      const response = await client.request('POST', '/api/auth/login', {
        body: { login: 'shared', password: 'wrong password' },
        humanCheck: true,
        headers: { 'X-Forwarded-For': '10.9.0.1' },
      });
      results.push(errorCode(response) ?? String(response.status));
    }
    expect(results.slice(0, 10).every((r) => r === 'invalid_credentials')).toBe(true);
    expect(results[10]).toBe('rate_limited');
    // The owner, elsewhere, signs in on either instance.
    const owner = await new ApiClient(servers[1]!.url).request('POST', '/api/auth/login', {
      body: { login: 'shared', password: PASSWORD },
      humanCheck: true,
      headers: { 'X-Forwarded-For': '10.9.0.2' },
    });
    expect(owner.status).toBe(200);
  }, 60_000);
});
