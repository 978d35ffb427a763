import sharp from 'sharp';
import { readPipitFile } from '@pipit/app-definition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSchema, publicProfileSchema, sessionListSchema } from '@pipit/protocol';
import { errorCode } from '../support/api-client';
import { testClock } from '../support/clock';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';

const PASSWORD = TEST_PASSWORD;
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(ENGINES)('account settings on %s', (engine) => {
  let h: AccountsHarness;
  const clock = testClock();

  beforeAll(async () => {
    h = await startAccountsServer(engine, { clock });
  });
  afterAll(() => h.close());

  it('needs a session for every account endpoint', async () => {
    const anonymous = h.client();
    for (const [method, path] of [
      ['GET', '/api/account'],
      ['PATCH', '/api/account/profile'],
      ['POST', '/api/account/password'],
      ['GET', '/api/account/sessions'],
      ['GET', '/api/account/export'],
      ['DELETE', '/api/account'],
    ] as const) {
      const response = await anonymous.request(method, path, method === 'GET' ? {} : { body: {} });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(errorCode(response)).toBe('unauthenticated');
    }
  });

  describe('profile', () => {
    it('updates name, bio, links, emoji avatar and username, shown on the public profile', async () => {
      const client = await h.signup('pat');
      const response = await client.request('PATCH', '/api/account/profile', {
        body: {
          displayName: 'Pat Lee',
          bio: 'Makes small apps.',
          links: [{ label: 'Site', url: 'https://pat.example.org' }],
          avatar: { kind: 'emoji', emoji: '🦉', color: '#336699' },
          username: 'pat_lee',
        },
      });
      expect(response.status).toBe(200);
      expect(accountSchema.parse(response.body.account)).toMatchObject({
        username: 'pat_lee',
        displayName: 'Pat Lee',
      });
      const profile = publicProfileSchema.parse(
        (await h.client().get('/api/profiles/pat_lee')).body,
      );
      expect(profile).toMatchObject({ bio: 'Makes small apps.', avatar: { emoji: '🦉' } });
      expect((await h.client().get('/api/profiles/pat')).status).toBe(404);
    });

    it.each([
      ['a javascript: link', { links: [{ label: 'x', url: 'javascript:alert(1)' }] }, 'links'],
      [
        'six links',
        {
          links: Array.from({ length: 6 }, (_, i) => ({ label: `${i}`, url: 'https://a.example' })),
        },
        'links',
      ],
      ['a long bio', { bio: 'x'.repeat(281) }, 'bio'],
      ['a long name', { displayName: 'x'.repeat(61) }, 'displayName'],
      ['a reserved username', { username: 'explore' }, 'username'],
      ['an image avatar by URL', { avatar: { kind: 'image', url: '/api/uploads/x' } }, 'avatar'],
    ])('refuses %s with validation_failed and changes nothing', async (_what, body, field) => {
      const client = await h.login('pat_lee');
      const before = (await client.get('/api/account')).body;
      const response = await client.request('PATCH', '/api/account/profile', { body });
      expect(errorCode(response)).toBe('validation_failed');
      expect(
        Object.keys((response.body as { error: { fields: object } }).error.fields).join(),
      ).toContain(field);
      expect((await client.get('/api/account')).body).toEqual(before);
    });

    it.each([{}, { login: 1.5 }, { password: 'x' }])(
      'refuses a change with no field it knows (%j) as validation_failed, naming the fields, and changes nothing',
      async (body) => {
        const client = await h.login('pat_lee');
        const before = (await client.get('/api/account')).body;
        const response = await client.request('PATCH', '/api/account/profile', { body });
        expect(response.status).toBe(400);
        expect(errorCode(response)).toBe('validation_failed');
        expect((response.body as { error: { message: string } }).error.message).toMatch(
          /username, displayName, bio, links, avatar, pinnedAppIds/,
        );
        expect((await client.get('/api/account')).body).toEqual(before);
      },
    );

    it('refuses a taken username', async () => {
      await h.signup('quinn');
      const client = await h.login('pat_lee');
      const response = await client.request('PATCH', '/api/account/profile', {
        body: { username: 'QUINN' },
      });
      expect(errorCode(response)).toBe('username_taken');
    });

    it('answers username availability, with reasons', async () => {
      const ask = async (name: string) => (await h.client().get(`/api/usernames/${name}`)).body;
      expect(await ask('fresh_name')).toEqual({ username: 'fresh_name', available: true });
      expect(await ask('Quinn')).toMatchObject({
        username: 'quinn',
        available: false,
        reason: expect.stringMatching(/taken/),
      });
      expect(await ask('about')).toMatchObject({
        available: false,
        reason: expect.stringMatching(/reserved/),
      });
      expect(await ask('ab')).toMatchObject({
        available: false,
        reason: expect.stringMatching(/at least 3/),
      });
    });

    it('re-encodes an uploaded image avatar to a 256 px WebP and serves it as an image', async () => {
      const client = await h.login('pat_lee');
      const png = await sharp({
        create: { width: 800, height: 400, channels: 3, background: '#ff8800' },
      })
        .png()
        .withMetadata({ exif: { IFD0: { Artist: 'Secret Name' } } })
        .toBuffer();
      const response = await fetch(`${h.pipit.url}/api/account/avatar`, {
        method: 'POST',
        headers: { Origin: h.pipit.url, 'Content-Type': 'image/png', Cookie: client.cookie! },
        body: png,
      });
      expect(response.status).toBe(200);
      const { account } = (await response.json()) as {
        account: { avatar: { kind: string; url: string } };
      };
      expect(account.avatar.kind).toBe('image');
      const image = await fetch(`${h.pipit.url}${account.avatar.url}`);
      expect(image.headers.get('content-type')).toBe('image/webp');
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      const bytes = Buffer.from(await image.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
      expect(meta.exif).toBeUndefined();
      expect(bytes.toString('latin1')).not.toContain('Secret Name');
    });

    it.each([
      [
        'an SVG',
        'image/svg+xml',
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'unsupported_media_type',
      ],
      [
        'text pretending to be a PNG',
        'image/png',
        Buffer.from('not an image at all'),
        'validation_failed',
      ],
      ['a JSON body', 'application/json', Buffer.from('{}'), 'unsupported_media_type'],
    ])('refuses %s as an avatar', async (_what, type, body, code) => {
      const client = await h.login('pat_lee');
      const before = (await client.get('/api/account')).body;
      const response = await fetch(`${h.pipit.url}/api/account/avatar`, {
        method: 'POST',
        headers: { Origin: h.pipit.url, 'Content-Type': type, Cookie: client.cookie! },
        body,
      });
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
      expect((await client.get('/api/account')).body).toEqual(before);
    });

    it('refuses an avatar over 5 MB before reading it', async () => {
      const client = await h.login('pat_lee');
      const response = await fetch(`${h.pipit.url}/api/account/avatar`, {
        method: 'POST',
        headers: { Origin: h.pipit.url, 'Content-Type': 'image/png', Cookie: client.cookie! },
        body: Buffer.alloc(5 * 1024 * 1024 + 1),
      });
      expect(response.status).toBe(413);
      // The message names this endpoint's limit, not the 1 MB of JSON bodies.
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /larger than 5 MB/,
      );
    });
  });

  describe('password and sessions', () => {
    it('lists sessions with their device, signs one out, then all the others', async () => {
      await h.signup('rosa');
      const phone = await h.login(
        'rosa',
        PASSWORD,
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      );
      const laptop = await h.login(
        'rosa',
        PASSWORD,
        'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      );
      const { sessions } = sessionListSchema.parse(
        (await laptop.get('/api/account/sessions')).body,
      );
      expect(sessions).toHaveLength(3);
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      expect(sessions.map((s) => s.device)).toEqual(
        expect.arrayContaining(['Safari on iOS', 'Firefox on Linux']),
      );
      expect(sessions.every((s) => s.ip === '127.0.0.1')).toBe(true);

      const phoneSession = sessions.find((s) => s.device === 'Safari on iOS')!;
      expect(
        (await laptop.request('DELETE', `/api/account/sessions/${phoneSession.id}`)).status,
      ).toBe(204);
      expect((await phone.get('/api/auth/session')).body).toEqual({ account: null });
      // Someone else's session cannot be ended from here.
      const other = await h.signup('sol');
      const otherId = sessionListSchema.parse((await other.get('/api/account/sessions')).body)
        .sessions[0]!.id;
      expect(errorCode(await laptop.request('DELETE', `/api/account/sessions/${otherId}`))).toBe(
        'not_found',
      );
      expect((await other.get('/api/auth/session')).body).toMatchObject({
        account: { username: 'sol' },
      });

      expect((await laptop.post('/api/account/sessions/revoke-others')).body).toEqual({ ended: 1 });
      expect(
        sessionListSchema.parse((await laptop.get('/api/account/sessions')).body).sessions,
      ).toHaveLength(1);
    });

    it('changes the password with the current one, keeping this device and ending the others', async () => {
      const here = await h.login('rosa');
      const elsewhere = await h.login('rosa');
      const wrong = await here.post('/api/account/password', {
        currentPassword: 'not it',
        newPassword: 'a new long passphrase',
      });
      expect(errorCode(wrong)).toBe('invalid_credentials');
      const weak = await here.post('/api/account/password', {
        currentPassword: PASSWORD,
        newPassword: 'rosa',
      });
      expect(errorCode(weak)).toBe('validation_failed');
      const common = await here.post('/api/account/password', {
        currentPassword: PASSWORD,
        newPassword: 'iloveyou12',
      });
      expect(errorCode(common)).toBe('validation_failed');

      const ok = await here.post('/api/account/password', {
        currentPassword: PASSWORD,
        newPassword: 'a new long passphrase',
      });
      expect(ok.body).toEqual({ changed: true });
      expect((await here.get('/api/auth/session')).body).toMatchObject({
        account: { username: 'rosa' },
      });
      expect((await elsewhere.get('/api/auth/session')).body).toEqual({ account: null });
      await h.smtp.waitFor('rosa@example.org', /password was changed/);
      const fresh = h.client();
      expect(
        (
          await fresh.post(
            '/api/auth/login',
            { login: 'rosa', password: 'a new long passphrase' },
            true,
          )
        ).status,
      ).toBe(200);
    });

    it('ends a session idle for 14 days', async () => {
      await h.signup('ivy');
      const client = await h.login('ivy');
      await clock.later(14 * DAY_MS + 1000, async () => {
        const response = await client.get('/api/auth/session');
        expect(response.body).toEqual({ account: null });
        expect(response.headers.get('set-cookie')).toMatch(/Max-Age=0/);
      });
    });
  });

  describe('export and deletion', () => {
    it('exports the account as a .pipit download: its JSON, and the apps it owns (none yet)', async () => {
      const client = await h.signup('xavi');
      const response = await fetch(`${h.pipit.url}/api/account/export`, {
        headers: { Cookie: client.cookie! },
      });
      expect(response.headers.get('content-type')).toBe('application/zip');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="pipit-xavi-\d{4}-\d{2}-\d{2}\.pipit"/,
      );
      const file = readPipitFile(new Uint8Array(await response.arrayBuffer()));
      expect(file.manifest).toMatchObject({ kind: 'account', apps: [] });
      const data = file.account();
      expect(data).toMatchObject({
        format: 'pipit-account',
        account: { username: 'xavi', email: 'xavi@example.org' },
        apps: [],
      });
      expect(JSON.stringify(data)).not.toMatch(/argon2|secret_hash|secretHash/);
    });

    it('deletes with the password: sessions end, profile gone, email free, username held 30 days', async () => {
      const client = await h.signup('yuri', 'yuri@example.org');
      const other = await h.login('yuri');
      const wrong = await client.request('DELETE', '/api/account', {
        body: { password: 'nope nope nope' },
      });
      expect(errorCode(wrong)).toBe('invalid_credentials');
      expect((await h.client().get('/api/profiles/yuri')).status).toBe(200);

      const cookie = client.cookie;
      const deleted = await client.request('DELETE', '/api/account', {
        body: { password: PASSWORD },
      });
      expect(deleted.status).toBe(204);
      expect((await h.client().get('/api/profiles/yuri')).status).toBe(404);
      expect((await other.get('/api/auth/session')).body).toEqual({ account: null });

      // The session cookie of a deleted account is refused and cleared.
      const stale = h.client();
      stale.cookie = cookie;
      const refused = await stale.get('/api/account');
      expect(errorCode(refused)).toBe('unauthenticated');
      expect(refused.headers.get('set-cookie')).toMatch(/Max-Age=0/);
      expect(
        errorCode(
          await h.client().post('/api/auth/login', { login: 'yuri', password: PASSWORD }, true),
        ),
      ).toBe('invalid_credentials');

      // The email is free at once; the username is held until 30 days have passed.
      await h.signup('yuri_again', 'yuri@example.org');
      const early = await h
        .client()
        .post(
          '/api/auth/signup',
          { username: 'yuri', email: 'y2@example.org', password: PASSWORD },
          true,
        );
      expect(errorCode(early)).toBe('username_taken');
      expect((await h.client().get('/api/usernames/yuri')).body).toMatchObject({
        available: false,
      });
      await clock.later(30 * DAY_MS + 1000, async () => {
        expect((await h.client().get('/api/usernames/yuri')).body).toMatchObject({
          available: true,
        });
        const later = await h
          .client()
          .post(
            '/api/auth/signup',
            { username: 'yuri', email: 'y3@example.org', password: PASSWORD },
            true,
          );
        expect(later.status).toBe(201);
      });
    });
  });
});
