import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMeta } from '@pipit/app-definition';
import { createId, type Upstream } from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { createApp, definitionOf, editDocument, publish, verifyEmail } from '../support/publishing';

/**
 * A version published while an app was private held a secret; a stranger
 * registered a remix naming that version and `GET …/upstream` served it as the base. A remix may
 * name only a version its maker may read, and every upstream read checks again what the asker may
 * be given (docs/product/history.md#remixes-that-pull-their-originals-updates).
 */
describe.each(ENGINES)('a remix gets only versions its people may read (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;
  let cy: ApiClient;
  let dee: ApiClient;
  let original: string;

  type Answer = { upstream: Upstream | null };
  const upstreamOf = async (client: ApiClient, remix: string) =>
    (await client.get<Answer>(`/api/apps/${remix}/upstream`)).body.upstream;
  const remixAt = (client: ApiClient, version: number) =>
    client.post('/api/apps', {
      id: createId(),
      title: 'Copy (remix)',
      forkedFrom: { appId: original, version },
    });
  const visibility = (value: 'private' | 'public') =>
    ada.request('PUT', `/api/apps/${original}/visibility`, { body: { visibility: value } });
  const publishAs = async (description: string, value: 'private' | 'public') => {
    await editDocument(h, ada, original, (doc) => setMeta(doc, { description }));
    expect((await publish(ada, original, value)).status).toBe(201);
  };

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_rv_${engine}`);
    ben = await h.signup(`ben_rv_${engine}`);
    cy = await h.signup(`cy_rv_${engine}`);
    dee = await h.signup(`dee_rv_${engine}`);
    await verifyEmail(h, ada);
    await verifyEmail(h, cy);
    // Version 1 is published while the app is private and holds a secret; version 2 is public.
    original = await createApp(h, ada, definitionOf({ title: 'Original' }));
    await publishAs('The door code is 4711', 'private');
    await publishAs('Nothing to see', 'public');
    // Cy is one of the original's people: its history (every version) is hers to read.
    const invited = await ada.request(
      'PUT',
      `/api/apps/${original}/collaborators/cy_rv_${engine}`,
      {
        body: { role: 'viewer' },
      },
    );
    expect(invited.status).toBe(201);
  });
  afterAll(() => h.close());

  it('refuses a stranger’s remix of a version the original does not share now, as if it were not there', async () => {
    const before = (await ben.get<{ apps: unknown[] }>('/api/apps')).body.apps.length;
    for (const version of [1, 3]) {
      const refused = await remixAt(ben, version);
      expect([refused.status, errorCode(refused)]).toEqual([404, 'not_found']);
      expect((refused.body as { error: { message: string } }).error.message).toMatch(
        /remix what it shares now/,
      );
    }
    expect((await ben.get<{ apps: unknown[] }>('/api/apps')).body.apps).toHaveLength(before);
    expect((await remixAt(ben, 2)).status).toBe(201);
  });

  it('lets one of the original’s people remix any of its versions', async () => {
    expect((await remixAt(cy, 1)).status).toBe(201);
  });

  it('never serves a base the asker may not read, whatever the remix recorded', async () => {
    // A remix recorded with version 1 before the check existed (or by one of the original's
    // people, then shared with someone who is not): nothing to pull for a stranger.
    const storage = h.pipit.server.storage;
    const benId = (await ben.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;
    const recorded = createId();
    await storage.apps.insert({
      id: recorded,
      ownerId: benId,
      title: 'Old remix',
      description: '',
      icon: null,
      createdAt: Date.now(),
      forkedFrom: { appId: original, version: 1 },
    });
    expect(await upstreamOf(ben, recorded)).toBeNull();

    // Cy's remix of version 1 is hers to pull into; Dee, an editor of it, gets no base.
    const cyRemix = await createApp(h, cy, definitionOf({ title: 'Cy’s copy' }), {
      forkedFrom: { appId: original, version: 1 },
    });
    expect(await upstreamOf(cy, cyRemix)).toMatchObject({
      base: { version: 1, definition: { meta: { description: 'The door code is 4711' } } },
      latest: { version: 2 },
    });
    const shared = await cy.request('PUT', `/api/apps/${cyRemix}/collaborators/dee_rv_${engine}`, {
      body: { role: 'editor' },
    });
    expect(shared.status).toBe(201);
    const asDee = await dee.get<Answer>(`/api/apps/${cyRemix}/upstream`);
    expect(asDee.status).toBe(200);
    expect(asDee.body.upstream).toBeNull();
    expect(JSON.stringify(asDee.body)).not.toContain('4711');
  });

  it('pulls only the version the original shares now, and keeps serving the base it was given', async () => {
    const remix = await createApp(h, ben, definitionOf({ title: 'Ben’s copy' }), {
      forkedFrom: { appId: original, version: 2 },
    });
    // Version 3 is published while the app is private again, version 4 once it is public.
    await publishAs('The new door code is 0815', 'private');
    expect(await upstreamOf(ben, remix)).toBeNull();
    await visibility('public');
    await publishAs('Still nothing to see', 'public');

    const answer = await upstreamOf(ben, remix);
    expect(answer).toMatchObject({ base: { version: 2 }, latest: { version: 4 }, newer: true });
    const skipped = await ben.request('PUT', `/api/apps/${remix}/upstream`, {
      body: { version: 3 },
    });
    expect([skipped.status, errorCode(skipped)]).toEqual([400, 'validation_failed']);
    expect((skipped.body as { error: { message: string } }).error.message).toMatch(
      /shares version 4 now/,
    );
    expect((await h.pipit.server.storage.apps.get(remix))?.forkedFromVersion).toBe(2);
    expect(await upstreamOf(ben, remix)).toMatchObject({ base: { version: 2 } });

    const pulled = await ben.request('PUT', `/api/apps/${remix}/upstream`, {
      body: { version: 4 },
    });
    expect(pulled.status).toBe(200);
    expect(await upstreamOf(ben, remix)).toMatchObject({
      base: { version: 4, definition: { meta: { description: 'Still nothing to see' } } },
      newer: false,
    });
  });
});
