import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  createId,
  documentName,
  SPACE_LIMITS,
  type SpaceDetail,
  type SpaceInvite,
  type SpaceInvitePreview,
  type SpaceMember,
  type SpaceSummary,
} from '@pipit/protocol';
import { type ApiClient, type ApiResponse, errorCode } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { connectProvider, type TestProvider } from '../support/provider';
import { archiveApp, createApp, createPublishedApp, verifyEmail } from '../support/publishing';
import { sleep } from '../support/timing';
import { insertUser } from '../support/users';

const DAY_MS = 24 * 60 * 60 * 1000;

const refusal = (client: TestProvider) =>
  new Promise<string>((resolve) =>
    client.provider.on('authenticationFailed', ({ reason }: { reason: string }) => resolve(reason)),
  );

const closed = (client: TestProvider) =>
  new Promise<string>((resolve) =>
    client.provider.on('close', ({ event }: { event: { reason: string } }) =>
      resolve(event.reason),
    ),
  );

type SpaceAnswer = ApiResponse<{ space: SpaceSummary }>;
type InviteAnswer = ApiResponse<{ invite: SpaceInvite; token: string; url: string }>;

describe.each(ENGINES)('shared spaces over REST and the socket (%s)', (engine) => {
  let h: AccountsHarness;
  /** The app's creator: in no space unless someone adds them. */
  let ada: ApiClient;
  let ben: ApiClient;
  let cleo: ApiClient;
  let dan: ApiClient;
  let appId: string;
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const providers: TestProvider[] = [];
  const name = (who: string) => `${who}_${engine.slice(0, 2)}`;

  const connect = (client: ApiClient | null, spaceId: string) => {
    const p = connectProvider({
      url: h.pipit.url,
      name: documentName({ kind: 'space', spaceId }),
      cookie: client?.cookie ?? null,
    });
    providers.push(p);
    return p;
  };

  const makeSpace = (client: ApiClient, body: Record<string, unknown> = { name: 'Our flat' }) =>
    client.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, body) as Promise<SpaceAnswer>;

  /** A space of Ben's with Cleo as a member and Dan as a reader. */
  async function sharedSpace(spaceName = 'Our flat') {
    const made = await makeSpace(ben, { name: spaceName });
    expect(made.status).toBe(201);
    const id = made.body.space.id;
    for (const [who, role] of [
      [name('cleo'), 'member'],
      [name('dan'), 'reader'],
    ] as const) {
      const added = await ben.request('PUT', `/api/spaces/${id}/members/${who}`, {
        body: { role },
      });
      expect(added.status).toBe(201);
    }
    return id;
  }

  const inviteTo = (spaceId: string, body: Record<string, unknown> = {}) =>
    ben.post(`/api/spaces/${spaceId}/invites`, body) as Promise<InviteAnswer>;

  /**
   * Stores a space's document with one record as the server would hold it (what a record looks
   * like and who may write it is space-guard.ts's; these tests are about who may open it).
   */
  async function seed(spaceId: string, value: string) {
    const doc = new Y.Doc();
    doc.getMap('records').set('r1', value);
    await h.pipit.server.storage.documents.store(
      documentName({ kind: 'space', spaceId }),
      Y.encodeStateAsUpdate(doc),
    );
    doc.destroy();
  }

  beforeAll(async () => {
    h = await startAccountsServer(engine, { clock, storeDebounceMs: 50 });
    ada = await h.signup(name('ada'));
    ben = await h.signup(name('ben'));
    cleo = await h.signup(name('cleo'));
    dan = await h.signup(name('dan'));
    await verifyEmail(h, ada);
    appId = await createPublishedApp(h, ada, { title: 'Shopping list' });
  }, 60_000);
  afterEach(() => {
    for (const p of providers.splice(0)) p.destroy();
    offset = 0;
  });
  afterAll(() => h.close());

  it('makes a space for a visitor of a published app, idempotently by id, and lists it', async () => {
    const id = createId();
    const made = await makeSpace(ben, { id, name: '  Our flat ' });
    expect(made.status).toBe(201);
    expect(made.body.space).toMatchObject({
      id,
      appId,
      name: 'Our flat',
      role: 'owner',
      owner: { username: name('ben') },
      memberCount: 1,
    });
    const again = await makeSpace(ben, { id, name: 'Our flat' });
    expect(again.status).toBe(200);
    expect(again.body.space.id).toBe(id);
    // Someone else's id is theirs.
    const taken = await makeSpace(cleo, { id, name: 'Mine now' });
    expect(taken.status).toBe(403);
    expect(errorCode(taken)).toBe('forbidden');

    const list = await ben.get<{ spaces: SpaceSummary[] }>(`/api/apps/${appId}/spaces`);
    expect(list.status).toBe(200);
    expect(list.body.spaces.map((s) => s.id)).toContain(id);
    const none = await cleo.get<{ spaces: SpaceSummary[] }>(`/api/apps/${appId}/spaces`);
    expect(none.body.spaces.map((s) => s.id)).not.toContain(id);
  });

  it('refuses a space in an app the person may not see, and bad bodies', async () => {
    const draft = await createApp(h, ada);
    const hidden = await ben.post(`/api/apps/${draft}/spaces`, { name: 'Secret' });
    expect(hidden.status).toBe(404);
    expect(errorCode(hidden)).toBe('not_found');
    expect((await ben.post(`/api/apps/${createId()}/spaces`, { name: 'x' })).status).toBe(404);
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(61) }, { name: 'ok', id: 'nope' }]) {
      const bad = await makeSpace(ben, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(bad)).toBe('validation_failed');
    }
    const notJson = await ben.request('POST', `/api/apps/${appId}/spaces`, {
      headers: { 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(notJson.status).toBe(415);
  });

  it('answers signed-out people 401, and refuses writes from another site', async () => {
    const id = await sharedSpace();
    const anonymous = h.client();
    for (const [method, path] of [
      ['GET', `/api/apps/${appId}/spaces`],
      ['POST', `/api/apps/${appId}/spaces`],
      ['GET', `/api/spaces/${id}`],
      ['PATCH', `/api/spaces/${id}`],
      ['DELETE', `/api/spaces/${id}`],
      ['PUT', `/api/spaces/${id}/members/${name('ada')}`],
      ['DELETE', `/api/spaces/${id}/members/${name('cleo')}`],
      ['POST', `/api/spaces/${id}/invites`],
    ] as const) {
      const answer = await anonymous.request(
        method,
        path,
        method === 'GET' ? {} : { body: { name: 'x', role: 'member' } },
      );
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(errorCode(answer)).toBe('unauthenticated');
    }
    // Every state-changing route has the API's Origin check.
    for (const [method, path] of [
      ['POST', `/api/apps/${appId}/spaces`],
      ['PATCH', `/api/spaces/${id}`],
      ['DELETE', `/api/spaces/${id}`],
      ['PUT', `/api/spaces/${id}/members/${name('ada')}`],
      ['POST', `/api/spaces/${id}/invites`],
      ['POST', `/api/space-invites/${'a'.repeat(32)}/accept`],
    ] as const) {
      const answer = await ben.request(method, path, {
        body: { name: 'x', role: 'member' },
        headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(errorCode(answer)).toBe('forbidden');
    }
    expect((await ben.get<SpaceDetail>(`/api/spaces/${id}`)).body.space.name).toBe('Our flat');
  });

  it('shows members their space with everyone’s role, and invitation links to the owner only', async () => {
    const id = await sharedSpace();
    expect((await inviteTo(id, { role: 'reader', days: 3 })).status).toBe(201);
    const owner = await ben.get<SpaceDetail>(`/api/spaces/${id}`);
    expect(owner.status).toBe(200);
    expect(owner.body.space).toMatchObject({ role: 'owner', memberCount: 3, name: 'Our flat' });
    expect(owner.body.members.map((m) => [m.username, m.role])).toEqual([
      [name('ben'), 'owner'],
      [name('cleo'), 'member'],
      [name('dan'), 'reader'],
    ]);
    expect(owner.body.invites).toHaveLength(1);
    expect(owner.body.invites[0]).toMatchObject({ role: 'reader' });
    const member = await cleo.get<SpaceDetail>(`/api/spaces/${id}`);
    expect(member.body.space.role).toBe('member');
    expect(member.body.invites).toEqual([]);
    expect((await dan.get<SpaceDetail>(`/api/spaces/${id}`)).body.space.role).toBe('reader');
  });

  it('answers 404 for everything to someone not in the space, the app’s creator included', async () => {
    const id = await sharedSpace();
    const invite = await inviteTo(id);
    for (const [method, path, body] of [
      ['GET', `/api/spaces/${id}`, undefined],
      ['PATCH', `/api/spaces/${id}`, { name: 'Mine' }],
      ['DELETE', `/api/spaces/${id}`, undefined],
      ['PUT', `/api/spaces/${id}/members/${name('ada')}`, { role: 'member' }],
      ['DELETE', `/api/spaces/${id}/members/${name('cleo')}`, undefined],
      ['POST', `/api/spaces/${id}/invites`, {}],
      ['DELETE', `/api/spaces/${id}/invites/${invite.body.invite.id}`, undefined],
      ['GET', `/api/spaces/${createId()}`, undefined],
      ['GET', `/api/spaces/not-an-id`, undefined],
    ] as const) {
      const answer = await ada.request(method, path, body === undefined ? {} : { body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(errorCode(answer)).toBe('not_found');
    }
    const listed = await ada.get<{ spaces: SpaceSummary[] }>(`/api/apps/${appId}/spaces`);
    expect(listed.body.spaces.map((s) => s.id)).not.toContain(id);
    expect((await ben.get(`/api/spaces/${id}`)).status).toBe(200);
  });

  it('keeps managing the owner’s: members and readers are refused', async () => {
    const id = await sharedSpace();
    for (const client of [cleo, dan]) {
      for (const [method, path, body] of [
        ['PATCH', `/api/spaces/${id}`, { name: 'Mine' }],
        ['DELETE', `/api/spaces/${id}`, undefined],
        ['PUT', `/api/spaces/${id}/members/${name('ada')}`, { role: 'member' }],
        ['DELETE', `/api/spaces/${id}/members/${name('ben')}`, undefined],
        ['POST', `/api/spaces/${id}/invites`, {}],
      ] as const) {
        const answer = await client.request(method, path, body === undefined ? {} : { body });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(errorCode(answer)).toBe('forbidden');
      }
    }
    const renamed = await ben.request<{ space: SpaceSummary }>('PATCH', `/api/spaces/${id}`, {
      body: { name: 'Flat 3B' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.space.name).toBe('Flat 3B');
    const bad = await ben.request('PATCH', `/api/spaces/${id}`, { body: { name: '   ' } });
    expect(errorCode(bad)).toBe('validation_failed');
  });

  it('adds people by username and changes roles; the owner and unknown names are refused', async () => {
    const made = await makeSpace(ben);
    const id = made.body.space.id;
    const added = await ben.request<{ member: SpaceMember }>(
      'PUT',
      `/api/spaces/${id}/members/${name('cleo')}`,
      { body: { role: 'reader' } },
    );
    expect(added.status).toBe(201);
    expect(added.body.member).toMatchObject({ username: name('cleo'), role: 'reader' });
    const changed = await ben.request<{ member: SpaceMember }>(
      'PUT',
      `/api/spaces/${id}/members/${name('cleo')}`,
      { body: { role: 'member' } },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.member.joinedAt).toBe(added.body.member.joinedAt);

    const self = await ben.request('PUT', `/api/spaces/${id}/members/${name('ben')}`, {
      body: { role: 'member' },
    });
    expect(self.status).toBe(400);
    expect(errorCode(self)).toBe('validation_failed');
    const nobody = await ben.request('PUT', `/api/spaces/${id}/members/nobody_here`, {
      body: { role: 'member' },
    });
    expect(errorCode(nobody)).toBe('not_found');
    for (const body of [{}, { role: 'owner' }, { role: 'admin' }]) {
      const bad = await ben.request('PUT', `/api/spaces/${id}/members/${name('dan')}`, { body });
      expect(errorCode(bad), JSON.stringify(body)).toBe('validation_failed');
    }
  });

  it('lets members and readers leave, the owner remove anyone, and never the owner leave', async () => {
    const id = await sharedSpace();
    const ownerLeaves = await ben.request('DELETE', `/api/spaces/${id}/members/${name('ben')}`);
    expect(ownerLeaves.status).toBe(403);
    expect(errorCode(ownerLeaves)).toBe('forbidden');
    expect((ownerLeaves.body as { error: { message: string } }).error.message).toMatch(/Delete/);
    // A member cannot remove another.
    const other = await cleo.request('DELETE', `/api/spaces/${id}/members/${name('dan')}`);
    expect(errorCode(other)).toBe('forbidden');
    const leaves = await dan.request('DELETE', `/api/spaces/${id}/members/${name('dan')}`);
    expect(leaves.status).toBe(200);
    expect((await dan.get(`/api/spaces/${id}`)).status).toBe(404);
    const removed = await ben.request('DELETE', `/api/spaces/${id}/members/${name('cleo')}`);
    expect(removed.status).toBe(200);
    expect((await cleo.get(`/api/spaces/${id}`)).status).toBe(404);
    const again = await ben.request('DELETE', `/api/spaces/${id}/members/${name('cleo')}`);
    expect(errorCode(again)).toBe('not_found');
  });

  it('makes invitation links that anyone may preview and the signed-in accept', async () => {
    const id = await sharedSpace('Book club');
    const made = await inviteTo(id, { role: 'reader', days: 2 });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(made.body.url).toBe(`${h.pipit.url}/join/${made.body.token}`);
    expect(made.body.invite.expiresAt - made.body.invite.createdAt).toBe(2 * DAY_MS);
    // Only the hash is stored.
    const stored = await h.pipit.server.storage.spaces.inviteByTokenHash(made.body.token);
    expect(stored).toBeNull();

    const preview = await h
      .client()
      .get<{ invite: SpaceInvitePreview }>(`/api/space-invites/${made.body.token}`);
    expect(preview.status).toBe(200);
    expect(preview.body.invite).toMatchObject({
      space: { id, name: 'Book club', memberCount: 3 },
      app: { id: appId, title: 'Shopping list' },
      invitedBy: { username: name('ben') },
      role: 'reader',
    });

    const anonymous = await h.client().post(`/api/space-invites/${made.body.token}/accept`);
    expect(anonymous.status).toBe(401);
    const joined = (await ada.post(`/api/space-invites/${made.body.token}/accept`)) as SpaceAnswer;
    expect(joined.status).toBe(201);
    expect(joined.body.space).toMatchObject({ id, role: 'reader', memberCount: 4 });
    // In already: the role stays.
    const member = (await cleo.post(`/api/space-invites/${made.body.token}/accept`)) as SpaceAnswer;
    expect(member.status).toBe(200);
    expect(member.body.space.role).toBe('member');
    const twice = (await ada.post(`/api/space-invites/${made.body.token}/accept`)) as SpaceAnswer;
    expect(twice.status).toBe(200);

    const bad = await h.client().get('/api/space-invites/short');
    expect(errorCode(bad)).toBe('not_found');
    const unknown = await h.client().get(`/api/space-invites/${'a'.repeat(32)}`);
    expect(errorCode(unknown)).toBe('not_found');
  });

  it('refuses expired and withdrawn links', async () => {
    const id = await sharedSpace();
    const expiring = await inviteTo(id, { days: 1 });
    const withdrawn = await inviteTo(id);
    const revoke = await ben.request(
      'DELETE',
      `/api/spaces/${id}/invites/${withdrawn.body.invite.id}`,
    );
    expect(revoke.status).toBe(200);
    const again = await ben.request(
      'DELETE',
      `/api/spaces/${id}/invites/${withdrawn.body.invite.id}`,
    );
    expect(errorCode(again)).toBe('not_found');
    const gone = await ada.post(`/api/space-invites/${withdrawn.body.token}/accept`);
    expect(gone.status).toBe(404);
    expect(errorCode(await h.client().get(`/api/space-invites/${withdrawn.body.token}`))).toBe(
      'not_found',
    );

    offset = DAY_MS + 1_000;
    const expired = await h.client().get(`/api/space-invites/${expiring.body.token}`);
    expect(expired.status).toBe(410);
    expect(errorCode(expired)).toBe('token_expired');
    expect(errorCode(await ada.post(`/api/space-invites/${expiring.body.token}/accept`))).toBe(
      'token_expired',
    );
    const detail = await ben.get<SpaceDetail>(`/api/spaces/${id}`);
    expect(detail.body.invites).toEqual([]);

    for (const body of [{ days: 0 }, { days: 31 }, { role: 'owner' }, { days: 1.5 }]) {
      const bad = await inviteTo(id, body);
      expect(errorCode(bad), JSON.stringify(body)).toBe('validation_failed');
    }
  });

  it('keeps a space to 20 people, the owner included, by username and by link', async () => {
    const id = await sharedSpace();
    const storage = h.pipit.server.storage;
    // Three in already; seventeen more fill it.
    for (let i = 0; i < SPACE_LIMITS.membersPerSpace - 3; i++) {
      const user = await insertUser(storage);
      const added = await ben.request('PUT', `/api/spaces/${id}/members/${user.username}`, {
        body: { role: 'member' },
      });
      expect(added.status).toBe(201);
    }
    const extra = await insertUser(storage);
    const full = await ben.request('PUT', `/api/spaces/${id}/members/${extra.username}`, {
      body: { role: 'member' },
    });
    expect(full.status).toBe(403);
    expect(errorCode(full)).toBe('limit_reached');
    // Changing a role in a full space still works.
    const changed = await ben.request('PUT', `/api/spaces/${id}/members/${name('dan')}`, {
      body: { role: 'member' },
    });
    expect(changed.status).toBe(200);
    const link = await inviteTo(id);
    expect(errorCode(await ada.post(`/api/space-invites/${link.body.token}/accept`))).toBe(
      'limit_reached',
    );
  });

  it('keeps a person to 50 spaces, made or joined', async () => {
    const storage = h.pipit.server.storage;
    const busy = await h.signup(name('busy'));
    const me = await busy.get<{ account: { id: string } }>('/api/auth/session');
    for (let i = 0; i < SPACE_LIMITS.spacesPerPerson; i++) {
      await storage.spaces.insert(
        {
          id: createId(),
          appId,
          ownerId: me.body.account.id,
          name: `Space ${i}`,
          createdAt: i,
        },
        SPACE_LIMITS,
      );
    }
    const refused = await makeSpace(busy);
    expect(errorCode(refused)).toBe('limit_reached');
    expect((refused.body as unknown as { error: { message: string } }).error.message).toMatch(
      /Leave/,
    );
    const id = (await makeSpace(ben)).body.space.id;
    const add = await ben.request('PUT', `/api/spaces/${id}/members/${name('busy')}`, {
      body: { role: 'member' },
    });
    expect(errorCode(add)).toBe('limit_reached');
    const link = await inviteTo(id);
    expect(errorCode(await busy.post(`/api/space-invites/${link.body.token}/accept`))).toBe(
      'limit_reached',
    );
  });

  it('opens the space document to members (readers read-only) and to nobody else', async () => {
    const id = await sharedSpace();
    await seed(id, 'milk');
    const owner = connect(ben, id);
    expect(await owner.ready).toBe(true);
    expect(owner.doc.getMap('records').get('r1')).toBe('milk');

    const member = connect(cleo, id);
    expect(await member.ready).toBe(true);
    expect(member.doc.getMap('records').get('r1')).toBe('milk');
    const reader = connect(dan, id);
    expect(await reader.ready).toBe(true);
    expect(reader.doc.getMap('records').get('r1')).toBe('milk');
    reader.doc.getMap('records').set('r2', 'written by a reader');
    // A fixed wait on purpose: that nothing arrives is the check.
    await sleep(300);
    expect(owner.doc.getMap('records').get('r2')).toBeUndefined();

    // The app's creator is not in the space: refused like anyone else.
    const creator = connect(ada, id);
    expect(await creator.ready).toBe(false);
    expect(await connect(null, id).ready).toBe(false);
    const unknown = connect(ben, createId());
    const why = refusal(unknown);
    expect(await unknown.ready).toBe(false);
    expect(await why).toBe('not_found');
  });

  it('closes a removed member’s connection at once, and a changed role’s', async () => {
    const id = await sharedSpace();
    const member = connect(cleo, id);
    expect(await member.ready).toBe(true);
    const reader = connect(dan, id);
    expect(await reader.ready).toBe(true);
    const readerClosed = closed(reader);
    const promoted = await ben.request('PUT', `/api/spaces/${id}/members/${name('dan')}`, {
      body: { role: 'member' },
    });
    expect(promoted.status).toBe(200);
    expect(await readerClosed).toBe('role_changed');

    const memberClosed = closed(member);
    expect((await ben.request('DELETE', `/api/spaces/${id}/members/${name('cleo')}`)).status).toBe(
      200,
    );
    expect(await memberClosed).toBe('forbidden');
    const again = connect(cleo, id);
    expect(await again.ready).toBe(false);
  });

  it('deletes a space: rows and document gone, connections closed, its name refused as deleted', async () => {
    const id = await sharedSpace();
    const name_ = documentName({ kind: 'space', spaceId: id });
    await seed(id, 'bread');
    const member = connect(cleo, id);
    expect(await member.ready).toBe(true);
    expect(member.doc.getMap('records').get('r1')).toBe('bread');
    const memberClosed = closed(member);
    const deleted = await ben.request('DELETE', `/api/spaces/${id}`);
    expect(deleted.status).toBe(200);
    expect(await memberClosed).toBe('forbidden');
    // A fixed wait on purpose: that no late store writes it back is the check.
    await sleep(300);
    const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name_);
    expect(snapshot).toBeNull();
    expect(log).toEqual([]);
    expect((await ben.get(`/api/spaces/${id}`)).status).toBe(404);
    const afterwards = connect(ben, id);
    const why = refusal(afterwards);
    expect(await afterwards.ready).toBe(false);
    expect(await why).toBe('deleted');
    // Its id is not made again.
    expect(errorCode(await makeSpace(ben, { id, name: 'Again' }))).toBe('not_found');
  });

  it('deletes an app’s spaces with the app', async () => {
    const doomed = await createPublishedApp(h, ada, { title: 'Doomed' });
    const made = (await ben.post(`/api/apps/${doomed}/spaces`, { name: 'Ours' })) as SpaceAnswer;
    expect(made.status).toBe(201);
    const id = made.body.space.id;
    await seed(id, 'eggs');
    await archiveApp(ada, doomed);
    expect((await ada.request('DELETE', `/api/apps/${doomed}`)).status).toBe(200);
    const storage = h.pipit.server.storage;
    expect(await storage.spaces.wasDeleted(id)).toBe(true);
    expect(await storage.documents.load(documentName({ kind: 'space', spaceId: id }))).toBeNull();
    expect((await ben.get(`/api/spaces/${id}`)).status).toBe(404);
  });

  it('deletes the spaces an account owns with it and takes it out of the others', async () => {
    const leaver = await h.signup(name('leaver'));
    const owned = (await makeSpace(leaver, { name: 'Mine' })).body.space.id;
    const joined = await sharedSpace();
    expect(
      (
        await ben.request('PUT', `/api/spaces/${joined}/members/${name('leaver')}`, {
          body: { role: 'member' },
        })
      ).status,
    ).toBe(201);
    await seed(owned, 'gone with its owner');
    const gone = await leaver.request('DELETE', '/api/account', {
      body: { password: TEST_PASSWORD },
    });
    expect(gone.status).toBe(204);
    const storage = h.pipit.server.storage;
    expect(await storage.spaces.wasDeleted(owned)).toBe(true);
    expect(
      await storage.documents.load(documentName({ kind: 'space', spaceId: owned })),
    ).toBeNull();
    const detail = await ben.get<SpaceDetail>(`/api/spaces/${joined}`);
    expect(detail.body.members.map((m) => m.username)).not.toContain(name('leaver'));
  });
});
