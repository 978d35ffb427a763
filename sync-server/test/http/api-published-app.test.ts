import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/accounts/rate-limits';
import { setMeta } from '@pipit/app-definition';
import {
  ANONYMOUS_VIEWER,
  createId,
  PUBLISHED_VIEWER_HEADER,
  type PublishedApp,
  publishedAppSchema,
} from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import { testClock } from '../support/clock';
import {
  type AccountsHarness,
  ENGINES,
  ROOMY_RATE_LIMITS,
  startAccountsServer,
} from '../support/engines';
import {
  archiveApp,
  createApp,
  createPublishedApp,
  definitionOf,
  editDocument,
  publish,
  verifyEmail,
} from '../support/publishing';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(ENGINES)('GET /api/published/{id} and popularity (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let bo: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;

  const read = (client: ApiClient, id: string) => client.get<PublishedApp>(`/api/published/${id}`);
  const status = async (client: ApiClient, id: string) => (await read(client, id)).status;
  const event = (client: ApiClient, id: string, body: unknown, headers?: Record<string, string>) =>
    client.request('POST', `/api/apps/${id}/events`, { body, ...(headers ? { headers } : {}) });
  const counts = (id: string) => h.pipit.server.storage.publishing.eventCounts(id);

  const archive = (id: string) => archiveApp(ada, id);

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50 });
    ada = await h.signup(`ada_${engine}`);
    bo = await h.signup(`bo_${engine}`);
    viewer = await h.signup(`vi_${engine}`);
    stranger = await h.signup(`st_${engine}`);
    await verifyEmail(h, ada);
    await verifyEmail(h, bo);
  });
  afterAll(() => h.close());

  it('serves a public app’s published version to anyone, never the live document', async () => {
    const id = await createPublishedApp(h, ada, { title: 'Plant care', tags: ['garden'] });
    await editDocument(h, ada, id, (doc) => setMeta(doc, { title: 'Unpublished draft title' }));
    const seen = await read(h.client(), id);
    expect(seen.status).toBe(200);
    const app = publishedAppSchema.parse(seen.body);
    expect(app).toMatchObject({
      id,
      title: 'Plant care',
      tags: ['garden'],
      author: { username: `ada_${engine}`, displayName: `ada_${engine}` },
      version: 1,
      visibility: 'public',
      published: true,
      archived: false,
      role: null,
      remixedFrom: null,
      remixes: [],
      remixCount: 0,
      definition: { meta: { title: 'Plant care' } },
    });
    expect((await read(ada, id)).body.role).toBe('owner');
  });

  it('says whom each answer was for, so a device keeps a private app’s copy for that person only', async () => {
    const id = await createPublishedApp(h, ada, {}, 'private');
    const own = await read(ada, id);
    const account = (await ada.get<{ account: { id: string } }>('/api/auth/session')).body.account;
    expect(own.headers.get(PUBLISHED_VIEWER_HEADER)).toBe(account.id);
    const publicId = await createPublishedApp(h, ada);
    const anonymous = await read(h.client(), publicId);
    expect(anonymous.headers.get(PUBLISHED_VIEWER_HEADER)).toBe(ANONYMOUS_VIEWER);
  });

  it('hides private, unpublished and draft apps from everyone but the owner and collaborators', async () => {
    const id = await createPublishedApp(h, ada, {}, 'private');
    await ada.request('PUT', `/api/apps/${id}/collaborators/vi_${engine}`, {
      body: { role: 'viewer' },
    });
    expect(await status(stranger, id)).toBe(404);
    expect(errorCode(await read(h.client(), id))).toBe('not_found');
    expect((await read(viewer, id)).body).toMatchObject({ role: 'viewer', version: 1 });

    await ada.request('PUT', `/api/apps/${id}/visibility`, { body: { visibility: 'unlisted' } });
    expect(await status(stranger, id)).toBe(200);
    await ada.request('DELETE', `/api/apps/${id}/publication`);
    expect(await status(stranger, id)).toBe(404);
    // The owner still sees the app, with the version it had, marked unpublished.
    expect((await read(ada, id)).body).toMatchObject({ published: false, version: 1 });

    const draft = await createApp(h, ada);
    expect(await status(h.client(), draft)).toBe(404);
    expect((await read(ada, draft)).body).toMatchObject({
      published: false,
      version: null,
      publishedAt: null,
      definition: null,
    });
    for (const bad of ['not-an-id', createId()]) expect(await status(ada, bad)).toBe(404);
  });

  it('keeps serving an archived app until it is deleted', async () => {
    const id = await createPublishedApp(h, ada);
    await archive(id);
    expect((await read(h.client(), id)).body).toMatchObject({ archived: true, version: 1 });
    expect((await ada.request('DELETE', `/api/apps/${id}`)).status).toBe(200);
    // Gone for good: anyone asking is told it was deleted (an installed copy stops asking).
    expect(await status(h.client(), id)).toBe(410);
    expect(await status(ada, id)).toBe(410);
  });

  it('records remix lineage both ways, while the source is visible to the reader', async () => {
    const source = await createPublishedApp(h, ada, { title: 'Book club' });
    const remix = await createApp(h, bo, definitionOf({ title: 'Book club (mine)' }), {
      forkedFrom: { appId: source, version: 1 },
    });
    await publish(bo, remix);
    const hidden = await createApp(h, bo, definitionOf(), {
      forkedFrom: { appId: source, version: 1 },
    });
    await publish(bo, hidden, 'unlisted');

    expect((await read(stranger, remix)).body.remixedFrom).toEqual({
      appId: source,
      version: 1,
      title: 'Book club',
      author: {
        username: `ada_${engine}`,
        displayName: `ada_${engine}`,
        avatar: expect.any(Object),
      },
    });
    // Unlisted remixes are shared by link only: the source's page lists the public one.
    expect((await read(stranger, source)).body.remixes).toEqual([
      {
        id: remix,
        title: 'Book club (mine)',
        author: expect.objectContaining({ username: `bo_${engine}` }),
      },
    ]);
    expect((await read(stranger, source)).body.remixCount).toBe(1);

    await ada.request('PUT', `/api/apps/${source}/visibility`, { body: { visibility: 'private' } });
    expect((await read(stranger, remix)).body.remixedFrom).toBeNull();
    expect((await read(ada, remix)).body.remixedFrom?.appId).toBe(source);
  });

  it('refuses a remix of a version the creator cannot see, making nothing', async () => {
    const source = await createPublishedApp(h, ada, {}, 'private');
    for (const forkedFrom of [
      { appId: source, version: 1 },
      { appId: createId(), version: 1 },
    ]) {
      const id = createId();
      const refused = await bo.post('/api/apps', { id, title: 'Copy', forkedFrom });
      expect([refused.status, errorCode(refused)]).toEqual([404, 'not_found']);
      expect(await h.pipit.server.storage.apps.get(id)).toBeNull();
    }
    const open = await createPublishedApp(h, ada);
    const noSuchVersion = createId();
    const refused = await bo.post('/api/apps', {
      id: noSuchVersion,
      title: 'Copy',
      forkedFrom: { appId: open, version: 9 },
    });
    expect(errorCode(refused)).toBe('not_found');
    expect(await h.pipit.server.storage.apps.get(noSuchVersion)).toBeNull();
    const malformed = await bo.post('/api/apps', {
      id: createId(),
      title: 'Copy',
      forkedFrom: { appId: open, version: 0 },
    });
    expect(errorCode(malformed)).toBe('validation_failed');

    // Registering an existing app again ignores forkedFrom (an idempotent retry).
    const mine = await createApp(h, bo);
    const retry = await bo.post('/api/apps', {
      id: mine,
      title: 'x',
      forkedFrom: { appId: open, version: 1 },
    });
    expect(retry.status).toBe(200);
    expect((await h.pipit.server.storage.apps.get(mine))?.forkedFrom).toBeNull();
  });

  it('counts each visitor once per kind, signed in or not', async () => {
    const id = await createPublishedApp(h, ada);
    const anonymous = h.client();
    expect((await event(anonymous, id, { kind: 'open' })).status).toBe(204);
    expect((await event(anonymous, id, { kind: 'open' })).status).toBe(204);
    expect(await counts(id)).toEqual({ opens: 1, installs: 0 });
    // Anyone signed out on the same address is the same visitor, whatever browser they say.
    await event(h.client(), id, { kind: 'open' }, { 'User-Agent': 'Another browser' });
    await event(bo, id, { kind: 'open' });
    await event(bo, id, { kind: 'open' });
    await event(bo, id, { kind: 'install' });
    expect(await counts(id)).toEqual({ opens: 2, installs: 1 });
    expect((await read(anonymous, id)).body).toMatchObject({ opens: 2, installs: 1 });
  });

  it('refuses events for apps the reader cannot see, malformed ones and foreign origins', async () => {
    const id = await createPublishedApp(h, ada, {}, 'private');
    expect(errorCode(await event(stranger, id, { kind: 'open' }))).toBe('not_found');
    expect(errorCode(await event(h.client(), createId(), { kind: 'open' }))).toBe('not_found');
    const open = await createPublishedApp(h, ada);
    expect(errorCode(await event(bo, open, { kind: 'like' }))).toBe('validation_failed');
    expect(errorCode(await event(bo, open, undefined))).toBe('validation_failed');
    const foreign = await event(bo, open, { kind: 'open' }, { 'Sec-Fetch-Site': 'cross-site' });
    expect(errorCode(foreign)).toBe('forbidden');
    expect(await counts(open)).toEqual({ opens: 0, installs: 0 });
    expect(await counts(id)).toEqual({ opens: 0, installs: 0 });
    // A draft previewed by its owner counts for nothing.
    const draft = await createApp(h, ada);
    expect((await event(ada, draft, { kind: 'open' })).status).toBe(204);
    expect(await counts(draft)).toEqual({ opens: 0, installs: 0 });
  });
});

describe.each(ENGINES)('popularity cannot be inflated from one address (%s)', (engine) => {
  let h: AccountsHarness | undefined;
  const clock = testClock();
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function publishedApp(harness: AccountsHarness, name: string): Promise<string> {
    const owner = await harness.signup(name);
    await verifyEmail(harness, owner);
    return createPublishedApp(harness, owner);
  }
  const event = (harness: AccountsHarness, id: string, kind: string, headers = {}) =>
    harness.client().request('POST', `/api/apps/${id}/events`, { body: { kind }, headers });

  it('counts 300 events with different User-Agents from one address as one open and one install', async () => {
    h = await startAccountsServer(engine, { clock });
    const id = await publishedApp(h, `pop_${engine}`);
    for (let i = 0; i < 300; i++) {
      const response = await event(h, id, i % 2 ? 'install' : 'open', {
        'User-Agent': `Browser/${i}`,
      });
      expect(response.status).toBe(204);
    }
    const { storage } = h.pipit.server;
    expect(await storage.publishing.eventCounts(id)).toEqual({ opens: 1, installs: 1 });
    // Two visits are remembered, not 300: forgetting every one of them forgets exactly two.
    expect(await storage.publishing.forgetVisitors(Number.MAX_SAFE_INTEGER, 0)).toBe(2);
  }, 120_000);

  it('counts an IPv6 visitor by their /64, and remembers visitors for 30 days', async () => {
    h = await startAccountsServer(engine, { clock, env: { TRUST_PROXY: 'true' } });
    const id = await publishedApp(h, `mem_${engine}`);
    const from = (address: string) => event(h!, id, 'open', { 'X-Forwarded-For': address });
    await from('2001:db8:5:6::1');
    await from('2001:db8:5:6:aaaa::2');
    await from('2001:db8:5:7::1');
    const { storage } = h.pipit.server;
    expect(await storage.publishing.eventCounts(id)).toEqual({ opens: 2, installs: 0 });
    await clock.later(29 * DAY_MS, () => from('2001:db8:5:6::1'));
    expect(await storage.publishing.eventCounts(id)).toEqual({ opens: 2, installs: 0 });
    // A month on, the visitor is forgotten (the table keeps no one for ever) and counts again.
    await clock.later(31 * DAY_MS, () => from('2001:db8:5:6::1'));
    expect(await storage.publishing.eventCounts(id)).toEqual({ opens: 3, installs: 0 });
  });

  it('answers rate_limited past 60 events an hour from one address', async () => {
    h = await startAccountsServer(engine, {
      clock,
      rateLimits: { ...ROOMY_RATE_LIMITS, appEventsPerIp: DEFAULT_RATE_LIMITS.appEventsPerIp },
    });
    const id = await publishedApp(h, `lim_${engine}`);
    for (let i = 0; i < 60; i++) expect((await event(h, id, 'open')).status).toBe(204);
    const limited = await event(h, id, 'open');
    expect([limited.status, errorCode(limited)]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even for an app that does not exist: the limit is counted before anything is read.
    expect(errorCode(await event(h, createId(), 'open'))).toBe('rate_limited');
  });
});
