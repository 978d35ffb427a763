import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, type PublicProfile, publicProfileSchema } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { archiveApp, createApp, createPublishedApp, verifyEmail } from '../support/publishing';
import { insertUser } from '../support/users';
import { type RunningPipit, startPipit } from '../support/start-server';

describe('GET /api/profiles/{username}', () => {
  let pipit: RunningPipit;
  beforeAll(async () => {
    pipit = await startPipit();
    await insertUser(pipit.server.storage, {
      username: 'ada',
      displayName: 'Ada Lovelace',
      bio: 'First programmer.',
      links: [{ label: 'Notes', url: 'https://example.org/notes' }],
      createdAt: Date.UTC(2026, 0, 15),
    });
  });
  afterAll(() => pipit.close());

  it('shows what anyone may see, and nothing else', async () => {
    const response = await fetch(`${pipit.url}/api/profiles/Ada`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(publicProfileSchema.parse(body)).toEqual({
      username: 'ada',
      displayName: 'Ada Lovelace',
      bio: 'First programmer.',
      avatar: { kind: 'emoji', emoji: '🐦', color: '#1a7f5a' },
      links: [{ label: 'Notes', url: 'https://example.org/notes' }],
      joinedAt: '2026-01-15T00:00:00.000Z',
      apps: [],
    });
    expect(Object.keys(body).sort()).toEqual(
      ['apps', 'avatar', 'bio', 'displayName', 'joinedAt', 'links', 'username'].sort(),
    );
    expect(JSON.stringify(body)).not.toMatch(/email|password|hash/i);
  });

  it.each(['nobody', 'ab', 'admin', '1abc', 'a.b', '%00', 'x'.repeat(40)])(
    'answers not_found for %s',
    async (username) => {
      const response = await fetch(`${pipit.url}/api/profiles/${username}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    },
  );
});

describe.each(ENGINES)('a profile’s apps (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let adaId: string;
  const profileApps = async () => {
    const response = await h.client().get<PublicProfile>(`/api/profiles/ada_${engine}`);
    return publicProfileSchema.parse(response.body).apps.map((a) => a.title);
  };

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50 });
    ada = await h.signup(`ada_${engine}`);
    adaId = await verifyEmail(h, ada);
  });
  afterAll(() => h.close());

  it('lists public published apps, pinned first in their order, then the newest', async () => {
    const first = await createPublishedApp(h, ada, { title: 'First' });
    await createPublishedApp(h, ada, { title: 'Second' });
    const third = await createPublishedApp(h, ada, { title: 'Third' });
    const hidden = await createPublishedApp(h, ada, { title: 'Unlisted' }, 'unlisted');
    await createPublishedApp(h, ada, { title: 'Private' }, 'private');
    await createApp(h, ada);
    const gone = await createPublishedApp(h, ada, { title: 'Unpublished' });
    await ada.request('DELETE', `/api/apps/${gone}/publication`);
    expect(await profileApps()).toEqual(['Third', 'Second', 'First']);

    const pinned = await ada.request('PATCH', '/api/account/profile', {
      body: { pinnedAppIds: [hidden, first, third, first] },
    });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ account: { pinnedAppIds: [hidden, first, third] } });
    expect(await profileApps()).toEqual(['First', 'Third', 'Second']);
  });

  it('pins only the person’s own apps, and changes nothing otherwise', async () => {
    const bea = await h.signup(`bea_${engine}`);
    await verifyEmail(h, bea);
    const theirs = await createPublishedApp(h, bea, { title: 'Bea’s' });
    const mine = await createPublishedApp(h, ada, { title: 'Mine' });
    const before = (await h.pipit.server.storage.users.findById(adaId))?.pinnedAppIds;

    const refused = await ada.request('PATCH', '/api/account/profile', {
      body: { pinnedAppIds: [mine, theirs] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: 'validation_failed', fields: { pinnedAppIds: expect.any(String) } },
    });
    const malformed = await ada.request('PATCH', '/api/account/profile', {
      body: { pinnedAppIds: ['not an id'] },
    });
    expect(malformed.status).toBe(400);
    const tooMany = await ada.request('PATCH', '/api/account/profile', {
      body: { pinnedAppIds: Array.from({ length: 7 }, () => createId()) },
    });
    expect(tooMany.status).toBe(400);
    expect((await h.pipit.server.storage.users.findById(adaId))?.pinnedAppIds).toEqual(before);
  });

  it('drops an app once it is archived', async () => {
    const id = await createPublishedApp(h, ada, { title: 'Archived soon' });
    expect(await profileApps()).toContain('Archived soon');
    await archiveApp(ada, id);
    expect(await profileApps()).not.toContain('Archived soon');
  });
});
