import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSchema } from '@pipit/protocol';
import { sha256Hex } from '../../src/accounts/random';
import { errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { linkIn } from '../support/smtp';

const PASSWORD = 'correct horse battery staple';

describe.each(ENGINES)('sign-up and sign-in on %s', (engine) => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer(engine);
  });
  afterAll(() => h.close());

  async function signup(username: string, email = `${username}@example.org`, password = PASSWORD) {
    const client = h.client();
    const response = await client.post('/api/auth/signup', { username, email, password }, true);
    return { client, response };
  }

  it('creates the account, signs the person in with a safe cookie, and emails a verification link', async () => {
    const { client, response } = await signup('ada');
    expect(response.status).toBe(201);
    const account = accountSchema.parse(response.body.account);
    expect(account).toMatchObject({
      username: 'ada',
      email: 'ada@example.org',
      emailVerified: false,
    });

    // The cookie: HttpOnly, SameSite=Lax, Path=/; not Secure on plain-http localhost.
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^pipit-session=[0-9a-f]{32}\.[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
    expect((await client.get('/api/auth/session')).body).toMatchObject({
      account: { username: 'ada' },
    });

    // The database keeps a SHA-256 of the session secret, never the secret.
    const [id, secret] = client.cookie!.split('=')[1]!.split('.') as [string, string];
    const session = await h.pipit.server.storage.sessions.findById(id);
    expect(session?.secretHash).toBe(sha256Hex(secret));
    expect(JSON.stringify(session)).not.toContain(secret);

    // The password is hashed with Argon2id at OWASP's parameters.
    const user = await h.pipit.server.storage.users.findByUsername('ada');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(user?.passwordHash).not.toContain(PASSWORD);

    // A real email with a plain-text and an HTML part; the token is stored only as a hash.
    const mail = await h.smtp.waitFor('ada@example.org', /Confirm your email/);
    expect(mail.parsed.from?.text).toContain('Pipit');
    expect(mail.html).toContain('Confirm my email');
    const token = linkIn(mail, '/verify-email').searchParams.get('token')!;
    expect(mail.html).toContain(token);
    expect(await h.pipit.server.storage.tokens.find(token)).toBeNull();
    expect(await h.pipit.server.storage.tokens.find(sha256Hex(token))).toMatchObject({
      kind: 'verify_email',
    });

    const verified = await client.post('/api/auth/verify-email', { token });
    expect(verified.body).toMatchObject({ verified: true, account: { emailVerified: true } });
    const again = await client.post('/api/auth/verify-email', { token });
    expect(errorCode(again)).toBe('token_used');
  });

  it('signs in by username or by email, case-insensitively, with a new session each time', async () => {
    await signup('grace');
    const byName = h.client();
    expect(
      (await byName.post('/api/auth/login', { login: 'Grace', password: PASSWORD }, true)).status,
    ).toBe(200);
    const byEmail = h.client();
    const response = await byEmail.post(
      '/api/auth/login',
      { login: 'GRACE@example.org', password: PASSWORD },
      true,
    );
    expect(response.body).toMatchObject({ account: { username: 'grace' } });
    expect(byName.cookie).not.toBe(byEmail.cookie);

    // Signing in again rotates the session: the old cookie stops working.
    const old = byName.cookie;
    await byName.post('/api/auth/login', { login: 'grace', password: PASSWORD }, true);
    expect(byName.cookie).not.toBe(old);
    const stale = h.client();
    stale.cookie = old;
    expect((await stale.get('/api/auth/session')).body).toEqual({ account: null });
  });

  it('signs out: the session ends on the server and the cookie is cleared', async () => {
    const { client } = await signup('leaves');
    const cookie = client.cookie;
    const response = await client.post('/api/auth/logout');
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    const replay = h.client();
    replay.cookie = cookie;
    expect((await replay.get('/api/auth/session')).body).toEqual({ account: null });
  });

  describe('refuses, with its error and no change', () => {
    it.each([
      ['a wrong password', { login: 'ada', password: 'not the password' }],
      ['an unknown user', { login: 'nobody_at_all', password: PASSWORD }],
      ['an unknown email', { login: 'nobody@example.org', password: PASSWORD }],
    ])('%s: invalid_credentials, same message, no session', async (_what, body) => {
      const client = h.client();
      const response = await client.post('/api/auth/login', body, true);
      expect(response.status).toBe(401);
      expect(errorCode(response)).toBe('invalid_credentials');
      expect((response.body as { error: { message: string } }).error.message).toContain(
        'don’t match',
      );
      expect(client.cookie).toBeNull();
    });

    it('a taken username (any case) and a taken email', async () => {
      const before = await h.pipit.server.storage.users.findByUsername('ada');
      const name = await signup('ADA', 'another@example.org');
      expect(name.response.status).toBe(409);
      expect(errorCode(name.response)).toBe('username_taken');
      const mail = await signup('someone_new', 'Ada@Example.org');
      expect(errorCode(mail.response)).toBe('email_taken');
      expect(await h.pipit.server.storage.users.findByUsername('someone_new')).toBeNull();
      expect(await h.pipit.server.storage.users.findByUsername('ada')).toEqual(before);
      expect(name.client.cookie).toBeNull();
    });

    it.each([
      [
        'a reserved username',
        { username: 'admin', email: 'a1@example.org', password: PASSWORD },
        'username',
      ],
      [
        'a malformed username',
        { username: '1-bad', email: 'a2@example.org', password: PASSWORD },
        'username',
      ],
      [
        'an invalid email',
        { username: 'valid_name', email: 'not-an-email', password: PASSWORD },
        'email',
      ],
      [
        'a short password',
        { username: 'valid_name', email: 'a3@example.org', password: 'short' },
        'password',
      ],
      [
        'a common password',
        { username: 'valid_name', email: 'a4@example.org', password: 'password123' },
        'password',
      ],
      [
        'the username as password',
        { username: 'longusername1', email: 'a5@example.org', password: 'LongUsername1' },
        'password',
      ],
      [
        'the email as password',
        { username: 'valid_name', email: 'mailbox@ex.org', password: 'mailbox@ex.org' },
        'password',
      ],
    ])('%s: validation_failed naming the field', async (_what, body, field) => {
      const client = h.client();
      const response = await client.post('/api/auth/signup', body, true);
      expect(response.status).toBe(400);
      expect(errorCode(response)).toBe('validation_failed');
      expect(Object.keys((response.body as { error: { fields: object } }).error.fields)).toContain(
        field,
      );
      expect(await h.pipit.server.storage.users.findByUsername(body.username)).toBeNull();
      expect(client.cookie).toBeNull();
    });

    it('a state-changing request from a foreign Origin: forbidden', async () => {
      const response = await fetch(`${h.pipit.url}/api/auth/login`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
        body: JSON.stringify({ login: 'ada', password: PASSWORD }),
      });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('forbidden');
      expect(response.headers.get('set-cookie')).toBeNull();
    });

    it('a request without the human check: human_check_failed', async () => {
      const response = await h.client().request('POST', '/api/auth/signup', {
        body: { username: 'botty', email: 'bot@example.org', password: PASSWORD },
      });
      expect(response.status).toBe(403);
      expect(errorCode(response)).toBe('human_check_failed');
      expect(await h.pipit.server.storage.users.findByUsername('botty')).toBeNull();
    });
  });
});

describe('cookies behind https', () => {
  it('are __Host- prefixed and Secure when the public origin is https', async () => {
    const h = await startAccountsServer('sqlite', {
      env: { PUBLIC_ORIGIN: 'https://pipit.example.org' },
    });
    try {
      const client = h.client();
      const response = await client.request('POST', '/api/auth/signup', {
        body: { username: 'secure', email: 'secure@example.org', password: PASSWORD },
        humanCheck: true,
        headers: { Origin: 'https://pipit.example.org' },
      });
      expect(response.status).toBe(201);
      const cookie = response.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^__Host-pipit-session=/);
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('Path=/');
      expect(cookie).not.toMatch(/Domain=/i);
      // Emailed links use the public origin, never the request's Host header.
      const mail = await h.smtp.waitFor('secure@example.org');
      expect(linkIn(mail, '/verify-email').origin).toBe('https://pipit.example.org');
    } finally {
      await h.close();
    }
  });
});
