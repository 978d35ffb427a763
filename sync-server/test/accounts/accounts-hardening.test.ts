import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../src/accounts/rate-limits';
import { sha256Hex } from '../../src/accounts/random';
import { ApiClient, errorCode } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { linkIn } from '../support/smtp';

/** Regressions for what a security review found; each failed before its fix. */
describe.each(ENGINES)('account hardening on %s', (engine) => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer(engine);
  });
  afterAll(() => h.close());

  const tokenIn = async (to: string, subject: RegExp, page: string) =>
    linkIn(await h.smtp.waitFor(to, subject), page).searchParams.get('token')!;
  /** Asks to move `client`'s account to `email`; the token of the confirmation link sent there. */
  const changeEmail = async (client: ApiClient, email: string) => {
    await client.post('/api/account/email', { email, password: TEST_PASSWORD });
    return tokenIn(email, /Confirm your new email/, '/confirm-email-change');
  };

  it('a password reset ends a pending email change, so an intruder cannot finish it', async () => {
    await h.signup('carol');
    const intruder = await h.login('carol');
    const changeToken = await changeEmail(intruder, 'intruder@example.org');

    await h.client().post('/api/auth/forgot-password', { email: 'carol@example.org' }, true);
    const resetToken = await tokenIn('carol@example.org', /Reset/, '/reset-password');
    const carol = h.client();
    expect(
      (
        await carol.post('/api/auth/reset-password', {
          token: resetToken,
          password: 'carol takes it back',
        })
      ).status,
    ).toBe(200);

    expect(
      errorCode(await h.client().post('/api/auth/confirm-email-change', { token: changeToken })),
    ).toBe('token_used');
    expect((await carol.get('/api/account')).body).toMatchObject({
      account: { email: 'carol@example.org', pendingEmail: null },
    });
  });

  it('a password change ends pending links too', async () => {
    const dave = await h.signup('dave');
    const changeToken = await changeEmail(dave, 'dave.new@example.org');
    await dave.post('/api/account/password', {
      currentPassword: TEST_PASSWORD,
      newPassword: 'dave changes his mind',
    });
    expect(
      errorCode(await h.client().post('/api/auth/confirm-email-change', { token: changeToken })),
    ).toBe('token_used');
  });

  it('a reset link sent to the old address stops working once the email changes', async () => {
    const erin = await h.signup('erin');
    await h.client().post('/api/auth/forgot-password', { email: 'erin@example.org' }, true);
    const resetToken = await tokenIn('erin@example.org', /Reset/, '/reset-password');
    const changeToken = await changeEmail(erin, 'erin.new@example.org');
    expect(
      (await h.client().post('/api/auth/confirm-email-change', { token: changeToken })).status,
    ).toBe(200);
    const reset = await h
      .client()
      .post('/api/auth/reset-password', { token: resetToken, password: 'someone else now' });
    expect(['token_used', 'token_invalid']).toContain(errorCode(reset));
    await h.login('erin.new@example.org'); // the password did not change
  });

  it('refuses a link of another kind (a verification link used to reset)', async () => {
    await h.signup('fay');
    const verifyToken = await tokenIn('fay@example.org', /Confirm your email/, '/verify-email');
    const reset = await h
      .client()
      .post('/api/auth/reset-password', { token: verifyToken, password: 'sneaky new password' });
    expect(errorCode(reset)).toBe('token_invalid');
    // And the verification link still works for what it is for.
    expect(
      (await h.client().post('/api/auth/verify-email', { token: verifyToken })).body,
    ).toMatchObject({ verified: true });
  });

  it('refuses to confirm an address someone else took meanwhile, changing nothing', async () => {
    const gus = await h.signup('gus');
    const token = await changeEmail(gus, 'contested@example.org');
    await h.signup('hal', 'contested@example.org');
    const refused = await h.client().post('/api/auth/confirm-email-change', { token });
    expect(errorCode(refused)).toBe('email_taken');
    expect((await gus.get('/api/account')).body).toMatchObject({
      account: { email: 'gus@example.org' },
    });
    expect((await h.pipit.server.storage.tokens.find(sha256Hex(token)))?.usedAt).toBeNull();
  });

  it('limits password guesses from a signed-in session (10 an hour)', async () => {
    const limited = await startAccountsServer(engine, { rateLimits: {} });
    try {
      const victim = await limited.signup('ivan');
      for (let i = 0; i < 10; i++) {
        const r = await victim.request('DELETE', '/api/account', {
          body: { password: `guess ${i}` },
        });
        expect(errorCode(r)).toBe('invalid_credentials');
      }
      const eleventh = await victim.request('DELETE', '/api/account', {
        body: { password: TEST_PASSWORD },
      });
      expect(errorCode(eleventh)).toBe('rate_limited');
      expect((await victim.get('/api/account')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('counts wrong passwords per login as typed (any case), so no count tells what is whose', async () => {
    const limited = await startAccountsServer(engine, {
      // Only the login's count: the per-address one (10 a minute too) would stop it first.
      rateLimits: { loginPerIp: { limit: 10_000, windowMs: 60_000 } },
      env: { TRUST_PROXY: 'true' },
    });
    try {
      await limited.signup('judy');
      const attempt = async (login: string) =>
        errorCode(
          await limited.client().request('POST', '/api/auth/login', {
            body: { login, password: 'wrong password' },
            humanCheck: true,
            headers: { 'X-Forwarded-For': '198.51.100.1' },
          }),
        );
      const results: Array<string | undefined> = [];
      for (let i = 1; i <= 11; i++) results.push(await attempt(i % 2 ? 'judy' : 'JUDY'));
      expect(results.slice(0, 10).every((c) => c === 'invalid_credentials')).toBe(true);
      expect(results[10]).toBe('rate_limited');
      // The account's email is counted apart, like anyone else's: the answer links nothing.
      expect(await attempt('judy@example.org')).toBe('invalid_credentials');
    } finally {
      await limited.close();
    }
  });

  it('caps a chunked avatar upload at 5 MB as it streams', async () => {
    const kim = await h.signup('kim');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 7 * 1024 * 1024) return controller.close();
        sent += 256 * 1024;
        controller.enqueue(new Uint8Array(256 * 1024));
      },
    });
    const response = await fetch(`${h.pipit.url}/api/account/avatar`, {
      method: 'POST',
      headers: { Origin: h.pipit.url, 'Content-Type': 'image/png', Cookie: kim.cookie! },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'payload_too_large',
    );
  });
});

describe('session cookies over https', () => {
  it('count only the __Host- cookie: a planted plain cookie neither signs in nor wins', async () => {
    const h = await startAccountsServer('sqlite', {
      env: { PUBLIC_ORIGIN: 'https://pipit.example.org' },
    });
    try {
      const origin = { Origin: 'https://pipit.example.org' };
      const signup = async (username: string) => {
        const client = new ApiClient(h.pipit.url);
        await client.request('POST', '/api/auth/signup', {
          body: { username, email: `${username}@example.org`, password: TEST_PASSWORD },
          humanCheck: true,
          headers: origin,
        });
        return client.cookie!.split('=')[1]!;
      };
      const alice = await signup('alice');
      const bob = await signup('bob');
      const ask = (cookie: string) =>
        fetch(`${h.pipit.url}/api/auth/session`, { headers: { Cookie: cookie } }).then(
          (r) => r.json() as Promise<{ account: { username: string } | null }>,
        );
      expect((await ask(`__Host-pipit-session=${alice}`)).account?.username).toBe('alice');
      expect((await ask(`pipit-session=${alice}`)).account).toBeNull();
      expect(
        (await ask(`pipit-session=${bob}; __Host-pipit-session=${alice}`)).account?.username,
      ).toBe('alice');
    } finally {
      await h.close();
    }
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses and groups IPv6 addresses by /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8:0:1:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0db8:0000:0001:0:0:0:9')).toBe('2001:db8:0:1::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('2001:db8:0:2::1')).not.toBe(addressKey('2001:db8:0:1::1'));
  });
});
