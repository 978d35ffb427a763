import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { errorCode } from '../support/api-client';
import { testClock } from '../support/clock';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A renamed account's old username was free the moment it changed, so anyone could take it and be
 * taken for that person (or for an operator listed by name). It is now held like a deleted
 * account's: USERNAME_HOLD_DAYS for everyone else, while its owner may take it back.
 */
describe.each(ENGINES)('a renamed username is held (%s)', (engine) => {
  let h: AccountsHarness;
  const clock = testClock();
  beforeAll(async () => {
    h = await startAccountsServer(engine, { clock, env: { USERNAME_HOLD_DAYS: '10' } });
  });
  afterAll(() => h.close());

  const rename = (client: ApiClient, username: string) =>
    client.request('PATCH', '/api/account/profile', { body: { username } });
  const signupAs = (username: string) =>
    h
      .client()
      .post(
        '/api/auth/signup',
        { username, email: `${username}.${Date.now()}@example.org`, password: TEST_PASSWORD },
        true,
      );
  const availability = async (client: ApiClient, username: string) =>
    (await client.get(`/api/usernames/${username}`)).body;

  it('keeps the old name from everyone else for the hold, then frees it', async () => {
    const ann = await h.signup('ann');
    expect((await rename(ann, 'ann_renamed')).status).toBe(200);
    expect((await h.client().get('/api/profiles/ann')).status).toBe(404);

    const mallory = await h.signup('mallory');
    expect(errorCode(await rename(mallory, 'ann'))).toBe('username_taken');
    expect(errorCode(await rename(mallory, 'ANN'))).toBe('username_taken');
    expect(errorCode(await signupAs('ann'))).toBe('username_taken');
    expect(await availability(h.client(), 'ann')).toMatchObject({ available: false });
    expect(await availability(mallory, 'ann')).toMatchObject({ available: false });
    // The person who gave it up may still take it back.
    expect(await availability(ann, 'ann')).toMatchObject({ available: true });

    await clock.later(9 * DAY_MS, async () => {
      expect(errorCode(await rename(mallory, 'ann'))).toBe('username_taken');
    });
    await clock.later(10 * DAY_MS + 1000, async () => {
      expect(await availability(h.client(), 'ann')).toMatchObject({ available: true });
      expect((await rename(mallory, 'ann')).status).toBe(200);
    });
    expect((await mallory.get('/api/account')).body).toMatchObject({
      account: { username: 'ann' },
    });
    // And mallory's own old name is held in turn.
    expect(errorCode(await signupAs('mallory'))).toBe('username_taken');
  });

  it('lets the owner take a name back during the hold', async () => {
    const bea = await h.signup('bea');
    expect((await rename(bea, 'bea_two')).status).toBe(200);
    expect((await rename(bea, 'bea')).status).toBe(200);
    expect((await h.client().get('/api/profiles/bea')).status).toBe(200);
    expect(errorCode(await signupAs('bea_two'))).toBe('username_taken');
  });
});
