import { afterEach, describe, expect, it } from 'vitest';
import { errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';

const PASSWORD = 'correct horse battery staple';
const WRONG = 'wrong password';

/**
 * Anyone could lock a person out of signing in: the per-account limit counted every attempt, from
 * anywhere, before the password was checked, so ten wrong guesses a minute kept the owner out from
 * their own device. Now an account counts only wrong passwords, per address; these suites run
 * with the real limits (10 a minute per address and per account and address).
 */
describe.each(ENGINES)('sign-in cannot be locked by someone else (%s)', (engine) => {
  let h: AccountsHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function start(rateLimits = {}) {
    h = await startAccountsServer(engine, { rateLimits, env: { TRUST_PROXY: 'true' } });
    const signup = await h
      .client()
      .post(
        '/api/auth/signup',
        { username: 'target', email: 'target@example.org', password: PASSWORD },
        true,
      );
    expect(signup.status).toBe(201);
    return h;
  }

  /** One sign-in from `address` (through a trusted proxy, as X-Forwarded-For says). */
  const signIn = (address: string, password: string, login = 'target') =>
    h!
      .client()
      .request<{ error?: { retryAfter?: number; message: string } }>('POST', '/api/auth/login', {
        body: { login, password },
        humanCheck: true,
        headers: { 'X-Forwarded-For': address },
      });

  it('lets the owner in from their own address after ten wrong guesses from another', async () => {
    await start();
    for (let i = 0; i < 10; i++) {
      expect(errorCode(await signIn('203.0.113.66', WRONG))).toBe('invalid_credentials');
    }
    const blocked = await signIn('203.0.113.66', WRONG);
    expect(errorCode(blocked)).toBe('rate_limited');
    expect(blocked.body.error!.retryAfter).toBeGreaterThan(0);
    expect(blocked.body.error!.retryAfter).toBeLessThanOrEqual(60);

    const owner = await signIn('198.51.100.7', PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ account: { username: 'target' } });
    // The owner signing in resets nothing: the guessing address stays stopped, right password or not.
    expect(errorCode(await signIn('203.0.113.66', WRONG))).toBe('rate_limited');
    expect(errorCode(await signIn('203.0.113.66', PASSWORD))).toBe('rate_limited');
  }, 60_000);

  it('lets the owner in while wrong guesses come from many addresses', async () => {
    await start();
    for (let i = 1; i <= 15; i++) {
      expect(errorCode(await signIn(`192.0.2.${i}`, WRONG))).toBe('invalid_credentials');
    }
    expect((await signIn('198.51.100.7', PASSWORD)).status).toBe(200);
  }, 60_000);

  it('gives each address one guess a minute once an account is under attack, never refusing a fresh one', async () => {
    // The account-wide threshold (100 wrong passwords an hour) made small, so five addresses reach it.
    await start({ loginFailuresPerAccount: { limit: 5, windowMs: 60 * 60_000 } });
    for (let i = 1; i <= 5; i++) {
      expect(errorCode(await signIn(`192.0.2.${i}`, WRONG))).toBe('invalid_credentials');
    }
    // Under attack: an address that failed waits for its minute to end…
    const again = await signIn('192.0.2.1', WRONG);
    expect(errorCode(again)).toBe('rate_limited');
    expect(again.body.error!.retryAfter).toBeLessThanOrEqual(60);
    expect(again.body.error!.message).toMatch(
      /^Too many wrong passwords\. Wait \d+ seconds and try again, or reset your password\.$/,
    );
    // …and a new one gets one guess.
    expect(errorCode(await signIn('192.0.2.6', WRONG))).toBe('invalid_credentials');
    expect(errorCode(await signIn('192.0.2.6', WRONG))).toBe('rate_limited');
    // The owner, from an address that has not failed, signs in.
    expect((await signIn('198.51.100.7', PASSWORD)).status).toBe(200);
    // One who mistypes during the attack waits a minute (or resets their password).
    expect(errorCode(await signIn('198.51.100.8', WRONG))).toBe('invalid_credentials');
    expect(errorCode(await signIn('198.51.100.8', PASSWORD))).toBe('rate_limited');
  }, 60_000);

  it('counts an unknown login exactly like an account, so answers tell nothing', async () => {
    await start();
    const answers = async (login: string, address: string) => {
      const codes: Array<string | undefined> = [];
      for (let i = 0; i < 11; i++) codes.push(errorCode(await signIn(address, WRONG, login)));
      return codes;
    };
    const known = await answers('target', '203.0.113.1');
    const unknown = await answers('nobody_by_that_name', '203.0.113.2');
    expect(unknown).toEqual(known);
    expect(known.at(-1)).toBe('rate_limited');
    // And, like an account's, they stop only the address that made them.
    expect(errorCode(await signIn('203.0.113.3', WRONG, 'nobody_by_that_name'))).toBe(
      'invalid_credentials',
    );
  }, 60_000);
});
