import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/accounts/clock';
import { createOperators, type Operators } from '../../src/accounts/operators';
import type { ApiClient } from '../support/api-client';
import { errorCode } from '../support/api-client';
import { testClock } from '../support/clock';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { linkIn } from '../support/smtp';

const DAY_MS = 24 * 60 * 60 * 1000;
const ADMIN_PATHS = [
  '/api/admin/errors',
  '/api/admin/errors/abc',
  '/api/admin/digests/0123456789ab',
  '/api/admin/messages',
];

/**
 * The operator's inbox followed a username: whoever held an operator's name — by renaming to it,
 * signing up with it, or taking it after the operator renamed or was deleted — read contact
 * messages (with senders' emails) and error reports. Operators are now accounts, by id, with a
 * confirmed email.
 */
describe.each(ENGINES)('operators are accounts, not names (%s)', (engine) => {
  let h: AccountsHarness;
  let operators: Operators;
  const clock = testClock();
  beforeAll(async () => {
    h = await startAccountsServer(engine, { clock });
    operators = createOperators({ storage: h.pipit.server.storage, clock: systemClock });
  });
  afterAll(() => h.close());

  /** Whether `client` sees the inbox: every endpoint answers, or every one is not found. */
  async function seesInbox(client: ApiClient): Promise<boolean> {
    const statuses = await Promise.all(ADMIN_PATHS.map(async (p) => (await client.get(p)).status));
    if (statuses.every((s) => s === 404)) return false;
    // An operator gets answers (a missing group or digest is a 404 of its own, so check the lists).
    expect((await client.get('/api/admin/errors')).status).toBe(200);
    expect((await client.get('/api/admin/messages')).status).toBe(200);
    return true;
  }

  const rename = (client: ApiClient, username: string) =>
    client.request('PATCH', '/api/account/profile', { body: { username } });

  /** Signs up and confirms the email with the emailed link, as a person would. */
  async function confirmedAccount(
    username: string,
    email = `${username}@example.org`,
  ): Promise<ApiClient> {
    const client = await h.signup(username, email);
    const mail = await h.smtp.waitFor(email, /Confirm your email/);
    const token = linkIn(mail, '/verify-email').searchParams.get('token');
    expect((await client.post('/api/auth/verify-email', { token })).status).toBe(200);
    return client;
  }

  it('follows the account through a rename; the old name, once free, grants nothing', async () => {
    const olga = await confirmedAccount('olga');
    await operators.add('olga');
    expect(await seesInbox(olga)).toBe(true);

    expect((await rename(olga, 'olga_ops')).status).toBe(200);
    expect(await seesInbox(olga)).toBe(true);

    const mallory = await h.signup('mallory');
    expect(errorCode(await rename(mallory, 'olga'))).toBe('username_taken');
    await clock.later(31 * DAY_MS, async () => {
      // (Sessions idle this long have ended: both sign in again.)
      const later = await h.login('mallory');
      expect((await rename(later, 'olga')).status).toBe(200);
      expect(await seesInbox(later)).toBe(false);
      // The operator, under their new name, still does.
      expect(await seesInbox(await h.login('olga_ops'))).toBe(true);
    });
  });

  it('grants nothing to a name that was listed as an operator but never registered', async () => {
    // What `OPERATORS=opsboss` used to mean: whoever took the name was the operator.
    const eve = await confirmedAccount('eve');
    expect((await rename(eve, 'opsboss')).status).toBe(200);
    expect(await seesInbox(eve)).toBe(false);
    const signedUp = await h.signup('opsboss_two');
    expect(await seesInbox(signedUp)).toBe(false);
  });

  it('ends with a confirmed email, and needs one to begin', async () => {
    const uma = await h.signup('uma');
    await expect(operators.add('uma')).rejects.toThrow(/confirmed/);
    expect(await seesInbox(uma)).toBe(false);

    const vic = await confirmedAccount('vic');
    await operators.add('vic');
    expect(await seesInbox(vic)).toBe(true);
    // A pending change keeps the confirmed address the account's, and the role with it.
    expect(
      (
        await vic.post('/api/account/email', {
          email: 'vic.new@example.org',
          password: TEST_PASSWORD,
        })
      ).status,
    ).toBe(202);
    expect(await seesInbox(vic)).toBe(true);
    // An address no longer confirmed, however it came to be, ends it at once.
    const { users } = h.pipit.server.storage;
    const id = (await users.findByUsername('vic'))!.id;
    await users.update(id, { emailVerifiedAt: null });
    expect(await seesInbox(vic)).toBe(false);
    await users.update(id, { emailVerifiedAt: Date.now() });
    expect(await seesInbox(vic)).toBe(true);
  });

  it('grants nothing once the operator’s account is deleted, nor to who takes the name later', async () => {
    const del = await confirmedAccount('del');
    const { user } = await operators.add('del');
    const cookie = del.cookie;
    expect(
      (await del.request('DELETE', '/api/account', { body: { password: TEST_PASSWORD } })).status,
    ).toBe(204);

    // Its id is still listed, marked, so the operator can see what happened and remove it.
    expect(await operators.list()).toContainEqual(
      expect.objectContaining({ userId: user.id, username: null, inactive: 'account deleted' }),
    );
    expect(await operators.isOperator(user.id)).toBe(false);
    const stale = h.client();
    stale.cookie = cookie;
    expect(await seesInbox(stale)).toBe(false);

    await clock.later(31 * DAY_MS, async () => {
      const heir = await confirmedAccount('del', 'del.heir@example.org');
      expect(await seesInbox(heir)).toBe(false);
    });
    expect(await operators.remove(user.id)).toBe(user.id);
  });

  it('ends when removed, on the next request', async () => {
    const rae = await confirmedAccount('rae');
    await operators.add('rae');
    expect(await seesInbox(rae)).toBe(true);
    expect(await operators.remove('rae')).not.toBeNull();
    expect(await seesInbox(rae)).toBe(false);
  });
});
