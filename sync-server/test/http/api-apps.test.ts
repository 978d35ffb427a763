import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, PLAN_LIMITS } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { connectProvider } from '../support/provider';

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
    // Archiving is the owner's request; a stranger's is not found, like the app.
    const archiveBy = (client: typeof ada, archived: boolean) =>
      client.request('PUT', `/api/apps/${id}/archived`, { body: { archived } });
    expect((await archiveBy(bo, true)).status).toBe(404);
    expect((await archiveBy(ada, true)).status).toBe(200);
    const listed = await ada.get<{ app: { archived: boolean } }>(`/api/apps/${id}`);
    expect(listed.body.app.archived).toBe(true);
    await h.pipit.server.storage.documents.store(`app/${id}`, new Uint8Array([0, 0]));
    expect((await ada.request('DELETE', `/api/apps/${id}`)).status).toBe(200);
    expect(await h.pipit.server.storage.apps.get(id)).toBeNull();
    expect(await h.pipit.server.storage.documents.load(`app/${id}`)).toBeNull();
    expect((await ada.get(`/api/apps/${id}`)).status).toBe(404);
  });

  it('never gives a deleted app’s id out again, to anyone; what asks for it learns it was deleted', async () => {
    const { body } = await register(ada);
    const id = body.app.id;
    await ada.request('PUT', `/api/apps/${id}/archived`, { body: { archived: true } });
    expect((await ada.request('DELETE', `/api/apps/${id}`)).status).toBe(200);
    // Someone who knows the id (an install, a shared link) cannot take it over…
    const taken = await register(bo, id, 'Not yours');
    expect([taken.status, errorCode(taken)]).toEqual([410, 'app_deleted']);
    // …nor does the owner's device that still holds it bring it back.
    const back = await register(ada, id);
    expect([back.status, errorCode(back)]).toEqual([410, 'app_deleted']);
    expect(await h.pipit.server.storage.apps.get(id)).toBeNull();
    // An installed copy asking for its app learns it is gone for good; an unknown id is not found.
    const gone = await h.client().get(`/api/published/${id}`);
    expect([gone.status, errorCode(gone)]).toEqual([410, 'app_deleted']);
    const unknown = await h.client().get(`/api/published/${createId()}`);
    expect([unknown.status, errorCode(unknown)]).toEqual([404, 'not_found']);
    // Its documents are refused as deleted, the owner's and a visitor's alike.
    for (const [client, name] of [
      [ada, `app/${id}`],
      [
        bo,
        `data/${id}/${(await bo.get<{ account: { id: string } }>('/api/auth/session')).body.account.id}`,
      ],
    ] as const) {
      const refused = connectProvider({ url: h.pipit.url, name, cookie: client.cookie });
      const reason = new Promise<string>((resolve) =>
        refused.provider.on('authenticationFailed', ({ reason }: { reason: string }) =>
          resolve(reason),
        ),
      );
      expect(await refused.ready).toBe(false);
      expect(await reason).toBe('deleted');
      refused.destroy();
    }
  });

  it('never leaves a live app on a deleted id, however registering and deleting interleave', async () => {
    const storage = h.pipit.server.storage;
    const ids = Array.from({ length: 20 }, () => createId());
    const owner = (await ada.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;
    const other = (await bo.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;
    const newApp = (id: string, ownerId: string) => ({
      id,
      ownerId,
      title: 'Race',
      description: '',
      icon: null,
      createdAt: Date.now(),
    });
    for (const id of ids) await storage.apps.insert(newApp(id, owner));
    await Promise.all(
      ids.flatMap((id) => [
        storage.apps.delete(id, Date.now()),
        storage.apps.insert(newApp(id, other)),
      ]),
    );
    for (const id of ids) {
      expect(await storage.apps.get(id)).toBeNull();
      expect(await storage.apps.wasDeleted(id)).toBe(true);
    }
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
