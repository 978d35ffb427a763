import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';

describe.each(ENGINES)('contact and feedback on %s', (engine) => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer(engine);
  });
  afterAll(() => h.close());

  it('stores a message behind the human check, with the sender when signed in', async () => {
    const client = h.client();
    await client.post(
      '/api/auth/signup',
      { username: 'writer', email: 'w@example.org', password: 'correct horse battery staple' },
      true,
    );
    const response = await client.post(
      '/api/messages',
      { kind: 'feedback', body: 'The offline banner is lovely.', page: '/about' },
      true,
    );
    expect(response.status).toBe(201);
    const anonymous = await h
      .client()
      .post(
        '/api/messages',
        { kind: 'contact', body: 'Hello!', email: 'visitor@example.org' },
        true,
      );
    expect(anonymous.status).toBe(201);
    const stored = await h.pipit.server.storage.messages.list(10);
    expect(stored.map((m) => [m.kind, m.body, m.email, m.userId !== null])).toEqual([
      ['contact', 'Hello!', 'visitor@example.org', false],
      ['feedback', 'The offline banner is lovely.', 'w@example.org', true],
    ]);
  });

  it.each([
    ['an empty message', { kind: 'contact', body: '   ' }, 'validation_failed'],
    ['an unknown kind', { kind: 'complaint', body: 'x' }, 'validation_failed'],
    ['a bad reply address', { kind: 'contact', body: 'x', email: 'nope' }, 'validation_failed'],
    ['a very long message', { kind: 'contact', body: 'x'.repeat(5001) }, 'validation_failed'],
  ])('refuses %s and stores nothing', async (_what, body, code) => {
    const before = (await h.pipit.server.storage.messages.list(100)).length;
    expect(errorCode(await h.client().post('/api/messages', body, true))).toBe(code);
    expect((await h.pipit.server.storage.messages.list(100)).length).toBe(before);
  });

  it('refuses a message without the human check', async () => {
    const response = await h
      .client()
      .request('POST', '/api/messages', { body: { kind: 'contact', body: 'spam' } });
    expect(errorCode(response)).toBe('human_check_failed');
  });
});
