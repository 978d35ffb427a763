import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, PLAN_LIMITS } from '@pipit/protocol';
import type { ApiClient } from './support/api-client';
import { errorCode } from './support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from './support/engines';

const register = (client: ApiClient, id = createId(), title = 'Reading list') =>
  client.post<{ app: { id: string; title: string; role: string } }>('/api/apps', { id, title });

async function verify(h: AccountsHarness, client: ApiClient) {
  const me = await client.get<{ account: { id: string } }>('/api/auth/session');
  await h.pipit.server.storage.users.update(me.body.account.id, { emailVerifiedAt: Date.now() });
}

describe.each(ENGINES)('apps over REST (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let bo: ApiClient;
  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_${engine}`);
    bo = await h.signup(`bo_${engine}`);
  });
  afterAll(() => h.close());

  it('registers an app made on a device, idempotently, and lists it for its owner only', async () => {
    const id = createId();
    const first = await register(ada, id);
    expect(first.status).toBe(201);
    expect(first.body.app).toMatchObject({ id, title: 'Reading list', role: 'owner' });
    const again = await register(ada, id, 'A retry after a lost answer');
    expect(again.status).toBe(200);
    expect(again.body.app.title).toBe('Reading list');

    const mine = await ada.get<{ apps: Array<{ id: string }> }>('/api/apps');
    expect(mine.body.apps.map((a) => a.id)).toContain(id);
    const theirs = await bo.get<{ apps: Array<{ id: string }> }>('/api/apps');
    expect(theirs.body.apps.map((a) => a.id)).not.toContain(id);
    expect((await bo.get(`/api/apps/${id}`)).status).toBe(404);
  });

  it('refuses someone else’s id, a bad id, a missing title and a signed-out caller; nothing is made', async () => {
    const id = createId();
    await register(ada, id);
    const stolen = await register(bo, id, 'Mine now');
    expect([stolen.status, errorCode(stolen)]).toEqual([403, 'forbidden']);
    expect((await h.pipit.server.storage.apps.get(id))?.title).toBe('Reading list');

    const bad = await bo.post('/api/apps', { id: 'not-an-id', title: 'x' });
    expect([bad.status, errorCode(bad)]).toEqual([400, 'validation_failed']);
    const untitled = await bo.post('/api/apps', { id: createId(), title: '  ' });
    expect(errorCode(untitled)).toBe('validation_failed');
    const anonymousId = createId();
    const anonymous = await register(h.client(), anonymousId);
    expect([anonymous.status, errorCode(anonymous)]).toEqual([401, 'unauthenticated']);
    expect(await h.pipit.server.storage.apps.get(anonymousId)).toBeNull();
  });

  it('deletes forever only from the archive, for the owner only', async () => {
    const { body } = await register(ada);
    const id = body.app.id;
    const early = await ada.request('DELETE', `/api/apps/${id}`);
    expect([early.status, errorCode(early)]).toEqual([403, 'forbidden']);
    const byStranger = await bo.request('DELETE', `/api/apps/${id}`);
    expect(byStranger.status).toBe(404);
    // Archiving is an edit of the document; its stored listing marks the app archived.
    await h.pipit.server.storage.apps.updateListing(id, {
      archived: true,
      title: 'Reading list',
      description: '',
      icon: null,
      tags: [],
      updatedAt: Date.now(),
    });
    const listed = await ada.get<{ app: { archived: boolean } }>(`/api/apps/${id}`);
    expect(listed.body.app.archived).toBe(true);
    await h.pipit.server.storage.documents.store(`app/${id}`, new Uint8Array([0, 0]));
    expect((await ada.request('DELETE', `/api/apps/${id}`)).status).toBe(200);
    expect(await h.pipit.server.storage.apps.get(id)).toBeNull();
    expect(await h.pipit.server.storage.documents.load(`app/${id}`)).toBeNull();
    expect((await ada.get(`/api/apps/${id}`)).status).toBe(404);
  });

  it('invites by username as editor or viewer, lists people, changes a role and removes them', async () => {
    const { body } = await register(ada);
    const id = body.app.id;
    const unverified = await ada.request('PUT', `/api/apps/${id}/collaborators/bo_${engine}`, {
      body: { role: 'editor' },
    });
    expect(errorCode(unverified)).toBe('email_not_verified');
    await verify(h, ada);

    const nobody = await ada.request('PUT', `/api/apps/${id}/collaborators/no_such_person`, {
      body: { role: 'editor' },
    });
    expect(errorCode(nobody)).toBe('not_found');
    const badRole = await ada.request('PUT', `/api/apps/${id}/collaborators/bo_${engine}`, {
      body: { role: 'owner' },
    });
    expect(errorCode(badRole)).toBe('validation_failed');

    const invited = await ada.request('PUT', `/api/apps/${id}/collaborators/bo_${engine}`, {
      body: { role: 'viewer' },
    });
    expect(invited.status).toBe(201);
    const shared = await bo.get<{ apps: Array<{ id: string; role: string }> }>('/api/apps');
    expect(shared.body.apps.find((a) => a.id === id)?.role).toBe('viewer');
    const byViewer = await bo.request('PUT', `/api/apps/${id}/collaborators/ada_${engine}`, {
      body: { role: 'editor' },
    });
    expect(errorCode(byViewer)).toBe('forbidden');

    await ada.request('PUT', `/api/apps/${id}/collaborators/bo_${engine}`, {
      body: { role: 'editor' },
    });
    const people = await bo.get<{ people: Array<{ username: string; role: string }> }>(
      `/api/apps/${id}/collaborators`,
    );
    expect(people.body.people.map((p) => [p.username, p.role])).toEqual([
      [`ada_${engine}`, 'owner'],
      [`bo_${engine}`, 'editor'],
    ]);
    expect((await ada.request('DELETE', `/api/apps/${id}/collaborators/bo_${engine}`)).status).toBe(
      200,
    );
    expect((await bo.get(`/api/apps/${id}`)).status).toBe(404);
  });

  it(`stops at ${PLAN_LIMITS.apps} apps with limit_reached`, async () => {
    const cy = await h.signup(`cy_${engine}`);
    for (let i = 0; i < PLAN_LIMITS.apps; i++) expect((await register(cy)).status).toBe(201);
    const over = await register(cy);
    expect([over.status, errorCode(over)]).toEqual([403, 'limit_reached']);
  });
});
