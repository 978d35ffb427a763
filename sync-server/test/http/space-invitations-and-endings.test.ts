import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDeletionPreviewSchema, type SpaceSummary } from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  ROOMY_RATE_LIMITS,
  startAccountsServer,
} from '../support/engines';
import { createPublishedApp, verifyEmail } from '../support/publishing';
import { linkIn } from '../support/smtp';
import { TEST_PASSWORD } from '../support/engines';

/**
 * A person signing up or resetting a password from an invitation is brought back to it,
 * by the emailed link too (opened in another tab or on another device); a household behind one
 * address opening the links it was sent never uses up the limit meant for someone guessing links.
 */
describe.each(ENGINES)('coming back to an invitation (%s)', (engine) => {
  let h: AccountsHarness;
  let owner: ApiClient;
  let appId: string;
  const name = (who: string) => `${who}_${engine.slice(0, 2)}`;

  beforeAll(async () => {
    h = await startAccountsServer(engine, {
      rateLimits: {
        ...ROOMY_RATE_LIMITS,
        spaceInviteMissesPerIp: { limit: 3, windowMs: 3_600_000 },
      },
    });
    owner = await h.signup(name('owner'));
    await verifyEmail(h, owner);
    appId = await createPublishedApp(h, owner, { title: 'Shopping list' });
  }, 60_000);
  afterAll(() => h.close());

  it('puts where the person was going into the confirmation link, and drops anything that is not a path here', async () => {
    for (const [who, next, expected] of [
      ['newcomer', '/join/abcDEF123_-', '/join/abcDEF123_-'],
      ['elsewhere', '//evil.example/join', null],
      ['scripted', 'javascript:alert(1)', null],
      ['tabbed', '/\t/evil.example', null],
    ] as const) {
      const email = `${name(who)}@example.org`;
      const arrives = h.smtp.waitFor(email, /confirm/i);
      const signup = await h
        .client()
        .post(
          '/api/auth/signup',
          { username: name(who), email, password: TEST_PASSWORD, next },
          true,
        );
      expect(signup.status).toBe(201);
      const link = linkIn(await arrives, '/verify-email');
      expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(link.searchParams.get('next')).toBe(expected);
    }
  });

  it('puts it into the password-reset link as well', async () => {
    const email = `${name('forgetful')}@example.org`;
    await h.signup(name('forgetful'), email);
    const arrives = h.smtp.waitFor(email, /password/i);
    const asked = await h
      .client()
      .post('/api/auth/forgot-password', { email, next: '/join/xyz' }, true);
    expect(asked.status).toBe(202);
    expect(linkIn(await arrives, '/reset-password').searchParams.get('next')).toBe('/join/xyz');
  });

  it('counts only links that do not work against an address, then says what happened and when to retry', async () => {
    const made = await owner.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Our flat',
    });
    const invite = await owner.post<{ token: string }>(
      `/api/spaces/${made.body.space.id}/invites`,
      {
        role: 'member',
      },
    );
    expect(invite.status).toBe(201);
    const visitor = h.client();
    // A household opening the link it was sent, many times: never counted.
    for (let i = 0; i < 6; i++) {
      expect((await visitor.get(`/api/space-invites/${invite.body.token}`)).status).toBe(200);
    }
    // Links that do not work are: after three, no link opens from this address for now.
    for (let i = 0; i < 3; i++) {
      expect(errorCode(await visitor.get(`/api/space-invites/${'x'.repeat(43)}`))).toBe(
        'not_found',
      );
    }
    const refused = await visitor.get<{ error: { message: string; retryAfter: number } }>(
      `/api/space-invites/${invite.body.token}`,
    );
    expect(refused.status).toBe(429);
    expect(errorCode(refused)).toBe('rate_limited');
    expect(refused.body.error.retryAfter).toBeGreaterThan(0);
    expect(refused.body.error.message).toMatch(/your network/);
    expect(refused.body.error.message).toMatch(/Wait \d+ (minutes|seconds) and try again/);
    expect(refused.body.error.message).not.toMatch(/new link/);
  });
});

describe.each(ENGINES)('what an invitation says to who opens it (%s)', (engine) => {
  let h: AccountsHarness;
  const name = (who: string) => `${who}_${engine.slice(0, 2)}s`;

  beforeAll(async () => {
    h = await startAccountsServer(engine);
  }, 60_000);
  afterAll(() => h.close());

  it('tells a signed-in person whether they are in the space already, or were taken out of it', async () => {
    const [owner, ben, cleo] = await Promise.all(
      ['owner', 'ben', 'cleo'].map((who) => h.signup(name(who))),
    );
    await verifyEmail(h, owner!);
    const appId = await createPublishedApp(h, owner!, { title: 'Chores' });
    const made = await owner!.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Flat',
    });
    const spaceId = made.body.space.id;
    const link = await owner!.post<{ token: string }>(`/api/spaces/${spaceId}/invites`, {
      role: 'member',
    });
    const standing = async (client: ApiClient) =>
      (await client.get<{ standing: string | null }>(`/api/space-invites/${link.body.token}`)).body
        .standing;
    expect(await standing(ben!)).toBeNull();
    expect(await standing(h.client())).toBeNull();
    expect((await ben!.post(`/api/space-invites/${link.body.token}/accept`, {})).status).toBe(201);
    expect(await standing(ben!)).toBe('member');
    expect(
      (await owner!.request('DELETE', `/api/spaces/${spaceId}/members/${name('ben')}`)).status,
    ).toBe(200);
    expect(await standing(ben!)).toBe('removed');
    // Someone else is not told about Ben.
    expect(await standing(cleo!)).toBeNull();
  });
});

/**
 * Before deleting an account the person is told which shared spaces end for everyone in
 * them, and how many people that touches.
 */
describe.each(ENGINES)('what deleting an account ends for others (%s)', (engine) => {
  let h: AccountsHarness;
  const name = (who: string) => `${who}_${engine.slice(0, 2)}d`;

  beforeAll(async () => {
    h = await startAccountsServer(engine);
  }, 60_000);
  afterAll(() => h.close());

  it('counts the spaces that end (its own, and others’ in its apps), the people in them once, and the ones it leaves', async () => {
    const [ada, , cleo, dan, eve] = await Promise.all(
      ['ada', 'ben', 'cleo', 'dan', 'eve'].map((who) => h.signup(name(who))),
    );
    await verifyEmail(h, ada!);
    await verifyEmail(h, eve!);
    const adaApp = await createPublishedApp(h, ada!, { title: 'Chores' });
    const eveApp = await createPublishedApp(h, eve!, { title: 'Trips' });
    const space = async (owner: ApiClient, app: string, spaceName: string, people: string[]) => {
      const made = await owner.post<{ space: SpaceSummary }>(`/api/apps/${app}/spaces`, {
        name: spaceName,
      });
      expect(made.status).toBe(201);
      for (const who of people) {
        const added = await owner.request(
          'PUT',
          `/api/spaces/${made.body.space.id}/members/${who}`,
          {
            body: { role: 'member' },
          },
        );
        expect(added.status).toBe(201);
      }
      return made.body.space.id;
    };
    const flat = await space(ada!, adaApp, 'Flat', [name('ben'), name('cleo')]);
    const dans = await space(dan!, adaApp, 'Dan’s', [name('ben')]);
    await space(eve!, eveApp, 'Trip', [name('ada')]);

    const preview = await ada!.get('/api/account/deletion');
    expect(preview.status).toBe(200);
    const body = accountDeletionPreviewSchema.parse(preview.body);
    expect(body.apps).toBe(1);
    expect(body.endingSpaces.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { id: dans, name: 'Dan’s', people: 2 },
      { id: flat, name: 'Flat', people: 2 },
    ]);
    // Ben, Cleo and Dan, Ben counted once.
    expect(body.people).toBe(3);
    expect(body.leaving).toBe(1);
    // Someone with nothing shared: nothing ends.
    const quiet = accountDeletionPreviewSchema.parse(
      (await cleo!.get('/api/account/deletion')).body,
    );
    expect(quiet).toEqual({ apps: 0, endingSpaces: [], people: 0, leaving: 1 });
    expect((await h.client().get('/api/account/deletion')).status).toBe(401);
  });
});
