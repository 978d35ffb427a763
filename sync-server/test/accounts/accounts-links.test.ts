import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/accounts/random';
import { errorCode } from '../support/api-client';
import { testClock } from '../support/clock';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { linkIn } from '../support/smtp';
import { sleep } from '../support/timing';

const PASSWORD = TEST_PASSWORD;
const HOUR_MS = 60 * 60 * 1000;

describe.each(ENGINES)('emailed links on %s', (engine) => {
  let h: AccountsHarness;
  const clock = testClock();

  beforeAll(async () => {
    h = await startAccountsServer(engine, { clock });
  });
  afterAll(() => h.close());

  describe('password reset', () => {
    it('sends a link for a known email, the same answer for an unknown one, and no mail then', async () => {
      await h.signup('rita');
      const known = await h
        .client()
        .post('/api/auth/forgot-password', { email: 'rita@example.org' }, true);
      const unknown = await h
        .client()
        .post('/api/auth/forgot-password', { email: 'ghost@example.org' }, true);
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      await h.smtp.waitFor('rita@example.org', /Reset your Pipit password/);
      // A fixed wait on purpose: no mail for the unknown address is what is checked.
      await sleep(200);
      expect(h.smtp.messages.some((m) => m.to === 'ghost@example.org')).toBe(false);
    });

    it('sets the new password, ends every other session, and the link works once', async () => {
      const phone = await h.signup('sam');
      const laptop = await h.login('sam');
      await h.client().post('/api/auth/forgot-password', { email: 'sam@example.org' }, true);
      const mail = await h.smtp.waitFor('sam@example.org', /Reset/);
      const token = linkIn(mail, '/reset-password').searchParams.get('token')!;
      expect(await h.pipit.server.storage.tokens.find(sha256Hex(token))).toMatchObject({
        kind: 'reset_password',
      });

      // A refused password does not spend the link.
      const browser = h.client();
      const weak = await browser.post('/api/auth/reset-password', {
        token,
        password: 'password123',
      });
      expect(errorCode(weak)).toBe('validation_failed');

      const reset = await browser.post('/api/auth/reset-password', {
        token,
        password: 'a brand new passphrase',
      });
      expect(reset.status).toBe(200);
      expect(browser.cookie).toBeTruthy();
      for (const old of [phone, laptop]) {
        expect((await old.get('/api/auth/session')).body).toEqual({ account: null });
      }
      expect((await browser.get('/api/auth/session')).body).toMatchObject({
        account: { username: 'sam' },
      });
      expect(
        errorCode(
          await h.client().post('/api/auth/login', { login: 'sam', password: PASSWORD }, true),
        ),
      ).toBe('invalid_credentials');
      await h.login('sam', 'a brand new passphrase');
      expect(
        errorCode(
          await h
            .client()
            .post('/api/auth/reset-password', { token, password: 'another new one!' }),
        ),
      ).toBe('token_used');
    });

    it('refuses an expired link (after 1 hour) and a forged one, changing nothing', async () => {
      await h.signup('tim');
      await h.client().post('/api/auth/forgot-password', { email: 'tim@example.org' }, true);
      const token = linkIn(
        await h.smtp.waitFor('tim@example.org', /Reset/),
        '/reset-password',
      ).searchParams.get('token')!;
      await clock.later(HOUR_MS + 1000, async () => {
        const expired = await h
          .client()
          .post('/api/auth/reset-password', { token, password: 'a brand new passphrase' });
        expect(expired.status).toBe(410);
        expect(errorCode(expired)).toBe('token_expired');
      });
      const forged = await h.client().post('/api/auth/reset-password', {
        token: 'A'.repeat(43),
        password: 'a brand new passphrase',
      });
      expect(errorCode(forged)).toBe('token_invalid');
      const malformed = await h
        .client()
        .post('/api/auth/reset-password', { token: 'short', password: 'a brand new passphrase' });
      expect(errorCode(malformed)).toBe('validation_failed');
      await h.login('tim'); // the old password still works
    });

    it('lets exactly one of several simultaneous uses of a link through', async () => {
      await h.signup('uma');
      await h.client().post('/api/auth/forgot-password', { email: 'uma@example.org' }, true);
      const token = linkIn(
        await h.smtp.waitFor('uma@example.org', /Reset/),
        '/reset-password',
      ).searchParams.get('token')!;
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          h
            .client()
            .post('/api/auth/reset-password', { token, password: `racing passphrase ${i}` }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => errorCode(r) === 'token_used')).toHaveLength(4);
    });
  });

  describe('email verification', () => {
    it('expires after 48 hours, and a resend replaces the earlier link', async () => {
      const client = await h.signup('vic');
      const first = linkIn(
        await h.smtp.waitFor('vic@example.org', /Confirm your email/),
        '/verify-email',
      );
      expect((await client.post('/api/auth/resend-verification', undefined, true)).status).toBe(
        200,
      );
      await expect
        .poll(() => h.smtp.messages.filter((m) => m.to === 'vic@example.org').length)
        .toBe(2);
      const second = linkIn(
        h.smtp.messages.filter((m) => m.to === 'vic@example.org')[1]!,
        '/verify-email',
      );
      expect(
        errorCode(
          await client.post('/api/auth/verify-email', { token: first.searchParams.get('token') }),
        ),
      ).toBe('token_used');
      await clock.later(48 * HOUR_MS + 1000, async () => {
        expect(
          errorCode(
            await client.post('/api/auth/verify-email', {
              token: second.searchParams.get('token'),
            }),
          ),
        ).toBe('token_expired');
      });
    });

    it('needs a session to resend', async () => {
      expect(
        errorCode(await h.client().post('/api/auth/resend-verification', undefined, true)),
      ).toBe('unauthenticated');
    });
  });

  describe('email change', () => {
    it('confirms the new address by link, tells the old one, ends sessions, and the new email signs in', async () => {
      const client = await h.signup('walt');
      const wrong = await client.post('/api/account/email', {
        email: 'walt.new@example.org',
        password: 'wrong one',
      });
      expect(errorCode(wrong)).toBe('invalid_credentials');
      const taken = await client.post('/api/account/email', {
        email: 'rita@example.org',
        password: PASSWORD,
      });
      expect(errorCode(taken)).toBe('email_taken');

      const requested = await client.post('/api/account/email', {
        email: 'walt.new@example.org',
        password: PASSWORD,
      });
      expect(requested.status).toBe(202);
      expect(requested.body).toMatchObject({
        account: { email: 'walt@example.org', pendingEmail: 'walt.new@example.org' },
      });
      const notice = await h.smtp.waitFor('walt@example.org', /about to change/);
      expect(notice.text).toContain('walt.new@example.org');
      const confirm = await h.smtp.waitFor('walt.new@example.org', /Confirm your new email/);
      const token = linkIn(confirm, '/confirm-email-change').searchParams.get('token')!;

      const confirmed = await h.client().post('/api/auth/confirm-email-change', { token });
      expect(confirmed.body).toEqual({ confirmed: true });
      expect((await client.get('/api/auth/session')).body).toEqual({ account: null });
      expect(
        errorCode(
          await h
            .client()
            .post('/api/auth/login', { login: 'walt@example.org', password: PASSWORD }, true),
        ),
      ).toBe('invalid_credentials');
      const again = await h.login('walt.new@example.org');
      expect((await again.get('/api/account')).body).toMatchObject({
        account: { email: 'walt.new@example.org', emailVerified: true, pendingEmail: null },
      });
      expect(errorCode(await h.client().post('/api/auth/confirm-email-change', { token }))).toBe(
        'token_used',
      );
    });

    it('expires after 24 hours', async () => {
      const client = await h.signup('xena');
      await client.post('/api/account/email', {
        email: 'xena.new@example.org',
        password: PASSWORD,
      });
      const token = linkIn(
        await h.smtp.waitFor('xena.new@example.org'),
        '/confirm-email-change',
      ).searchParams.get('token')!;
      await clock.later(24 * HOUR_MS + 1000, async () => {
        expect(errorCode(await h.client().post('/api/auth/confirm-email-change', { token }))).toBe(
          'token_expired',
        );
      });
      expect((await client.get('/api/account')).body).toMatchObject({
        account: { email: 'xena@example.org' },
      });
    });
  });
});
