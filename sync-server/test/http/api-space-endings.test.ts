import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { readPipitFile, writeVisitorData } from '@pipit/app-definition';
import {
  documentName,
  SPACE_ENDING_DAYS,
  type SpaceEnding,
  spaceListResponseSchema,
  type SpaceSummary,
} from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { download } from '../support/portable';
import { archiveApp, createPublishedApp, verifyEmail } from '../support/publishing';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A space that ends (docs/product/spaces.md, "Privacy and deletion"): the people who were in it
 * are told why, for SPACE_ENDING_DAYS days or until they dismiss it; the person who deleted it and
 * anyone removed before are not. An account's export keeps the records of the spaces it is in.
 */
describe.each(ENGINES)('when a shared space ends (%s)', (engine) => {
  let h: AccountsHarness;
  /** The app's creator. */
  let ada: ApiClient;
  let ben: ApiClient;
  let cleo: ApiClient;
  let dan: ApiClient;
  let appId: string;
  let otherAppId: string;
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const name = (who: string) => `${who}_${engine.slice(0, 2)}`;

  const idOf = async (client: ApiClient) =>
    (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

  /** A space in `app` owned by `owner`, with each of `people` in it as a member. */
  async function spaceOf(owner: ApiClient, app: string, people: string[], spaceName = 'Our flat') {
    const made = await owner.post<{ space: SpaceSummary }>(`/api/apps/${app}/spaces`, {
      name: spaceName,
    });
    expect(made.status).toBe(201);
    const id = made.body.space.id;
    for (const who of people) {
      const added = await owner.request('PUT', `/api/spaces/${id}/members/${who}`, {
        body: { role: who === name('dan') ? 'reader' : 'member' },
      });
      expect(added.status).toBe(201);
    }
    return id;
  }

  /** The asker's list for an app, read as the app reads it. */
  async function listOf(client: ApiClient, app = appId) {
    const answer = await client.get(`/api/apps/${app}/spaces`);
    expect(answer.status).toBe(200);
    return spaceListResponseSchema.parse(answer.body);
  }

  const endingOf = async (client: ApiClient, spaceId: string, app = appId) =>
    (await listOf(client, app)).ended.find((e) => e.id === spaceId);

  const dismiss = (client: ApiClient, spaceId: string, app = appId) =>
    client.request('DELETE', `/api/apps/${app}/spaces/ended/${spaceId}`);

  beforeAll(async () => {
    h = await startAccountsServer(engine, { clock });
    ada = await h.signup(name('ada'));
    ben = await h.signup(name('ben'));
    cleo = await h.signup(name('cleo'));
    dan = await h.signup(name('dan'));
    await verifyEmail(h, ada);
    appId = await createPublishedApp(h, ada, { title: 'Shopping list' });
    otherAppId = await createPublishedApp(h, ada, { title: 'Chores' });
  }, 60_000);
  afterEach(() => {
    offset = 0;
  });
  afterAll(() => h.close());

  it('tells the members and readers of a deleted space, and whoever its owner took out before; not its owner nor who left', async () => {
    const id = await spaceOf(ben, appId, [name('cleo'), name('dan'), name('ada')]);
    expect((await ben.request('DELETE', `/api/spaces/${id}/members/${name('ada')}`)).status).toBe(
      200,
    );
    // Taken out by the owner: told so, on every device (not "you left it, or…").
    expect(await endingOf(ada, id)).toMatchObject({ name: 'Our flat', why: 'removed' });
    const before = clock.now();
    expect((await ben.request('DELETE', `/api/spaces/${id}`)).status).toBe(200);

    const told = await endingOf(cleo, id);
    expect(told).toEqual({ id, name: 'Our flat', endedAt: expect.any(Number), why: 'deleted' });
    expect(told!.endedAt).toBeGreaterThanOrEqual(before);
    expect(await endingOf(dan, id)).toMatchObject({ why: 'deleted' });
    expect((await listOf(cleo)).spaces.map((s) => s.id)).not.toContain(id);
    // The owner deleted it and is not told; Ada, taken out before, learns it has now ended.
    expect(await endingOf(ben, id)).toBeUndefined();
    expect(await endingOf(ada, id)).toMatchObject({ why: 'deleted' });
    // Only in the list of the app it belonged to.
    expect(await endingOf(cleo, id, otherAppId)).toBeUndefined();
  });

  it('does not tell someone who left; someone taken out and let back in is no longer told', async () => {
    const id = await spaceOf(ben, appId, [name('cleo'), name('dan')], 'Garden');
    expect((await cleo.request('DELETE', `/api/spaces/${id}/members/${name('cleo')}`)).status).toBe(
      200,
    );
    expect(await endingOf(cleo, id)).toBeUndefined();
    expect((await ben.request('DELETE', `/api/spaces/${id}/members/${name('dan')}`)).status).toBe(
      200,
    );
    expect(await endingOf(dan, id)).toMatchObject({ why: 'removed' });
    const back = await ben.request('PUT', `/api/spaces/${id}/members/${name('dan')}`, {
      body: { role: 'reader' },
    });
    expect(back.status).toBe(201);
    expect(await endingOf(dan, id)).toBeUndefined();
    expect((await listOf(dan)).spaces.map((s) => s.id)).toContain(id);
  });

  it('lets each person dismiss an ending of theirs, and nobody else’s', async () => {
    const id = await spaceOf(ben, appId, [name('cleo'), name('dan')], 'Book club');
    expect((await ben.request('DELETE', `/api/spaces/${id}`)).status).toBe(200);

    // Someone who was never in it, its deleter, the wrong app, no session: nothing to dismiss.
    expect(errorCode(await dismiss(ada, id))).toBe('not_found');
    expect(errorCode(await dismiss(ben, id))).toBe('not_found');
    expect(errorCode(await dismiss(cleo, id, otherAppId))).toBe('not_found');
    expect(errorCode(await dismiss(cleo, 'not an id'))).toBe('not_found');
    const signedOut = await fetch(`${h.pipit.url}/api/apps/${appId}/spaces/ended/${id}`, {
      method: 'DELETE',
      headers: { Origin: h.pipit.url, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(signedOut.status).toBe(401);

    const dismissed = await dismiss(cleo, id);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toEqual({ dismissed: true });
    expect(await endingOf(cleo, id)).toBeUndefined();
    expect(errorCode(await dismiss(cleo, id))).toBe('not_found');
    // Dan's is his own: still there.
    expect(await endingOf(dan, id)).toMatchObject({ name: 'Book club' });
  });

  it(`stops telling after ${SPACE_ENDING_DAYS} days`, async () => {
    const id = await spaceOf(ben, appId, [name('cleo')], 'Old');
    const cleoId = await idOf(cleo);
    expect((await ben.request('DELETE', `/api/spaces/${id}`)).status).toBe(200);
    // Signed in again each time: a month later, the session of today has expired.
    offset = (SPACE_ENDING_DAYS - 1) * DAY_MS;
    expect(await endingOf(await h.login(name('cleo')), id)).toBeDefined();
    offset = (SPACE_ENDING_DAYS + 1) * DAY_MS;
    expect(await endingOf(await h.login(name('cleo')), id)).toBeUndefined();
    // Cleared out now and then: the row is gone too — by this pruning, or by one the listing
    // above started (it prunes at random, once in a hundred listings: the count is not this
    // test's to know).
    // (pruneEndings itself is the storage contract's.)
    const storage = h.pipit.server.storage;
    await storage.spaces.pruneEndings(clock.now() - SPACE_ENDING_DAYS * DAY_MS);
    expect((await storage.spaces.endingsFor(cleoId, appId, 0)).map((e) => e.spaceId)).not.toContain(
      id,
    );
  });

  it('tells the members when the owner deletes their account, and forgets what the owner was told', async () => {
    const leaver = await h.signup(name('leaver'));
    const owned = await spaceOf(leaver, appId, [name('cleo')], 'Leaver’s');
    // The leaver was told of a space of Ben's that ended; that goes with their account.
    const joined = await spaceOf(ben, appId, [name('leaver')], 'Ben’s');
    expect((await ben.request('DELETE', `/api/spaces/${joined}`)).status).toBe(200);
    expect(await endingOf(leaver, joined)).toBeDefined();
    const leaverId = await idOf(leaver);

    const gone = await leaver.request('DELETE', '/api/account', {
      body: { password: TEST_PASSWORD },
    });
    expect(gone.status).toBe(204);
    expect(await endingOf(cleo, owned)).toEqual({
      id: owned,
      name: 'Leaver’s',
      endedAt: expect.any(Number),
      why: 'owner_left',
    } satisfies Record<keyof SpaceEnding, unknown>);
    expect(await h.pipit.server.storage.spaces.endingsFor(leaverId, appId, 0)).toEqual([]);
  });

  it('tells everyone in an app’s spaces when the app is deleted, but the person who deleted it', async () => {
    const doomed = await createPublishedApp(h, ada, { title: 'Doomed' });
    const id = await spaceOf(ben, doomed, [name('cleo'), name('ada')], 'Ours');
    await archiveApp(ada, doomed);
    expect((await ada.request('DELETE', `/api/apps/${doomed}`)).status).toBe(200);
    // The space's owner did not delete it: told too.
    expect(await endingOf(ben, id, doomed)).toMatchObject({ name: 'Ours', why: 'app_deleted' });
    expect(await endingOf(cleo, id, doomed)).toMatchObject({ why: 'app_deleted' });
    expect(await endingOf(ada, id, doomed)).toBeUndefined();
    expect((await dismiss(ben, id, doomed)).status).toBe(200);
  });

  it('keeps a copy of the records of each space the person is in in their account’s export', async () => {
    const id = await spaceOf(ben, appId, [name('cleo')], 'Groceries');
    const [benId, cleoId] = [await idOf(ben), await idOf(cleo)];
    const doc = new Y.Doc();
    writeVisitorData(doc, {
      records: [
        {
          id: 'milk',
          collectionId: 'items',
          values: { name: 'Milk' },
          createdAt: 1,
          updatedAt: 2,
          authorId: benId,
        },
        {
          id: 'eggs',
          collectionId: 'items',
          values: { name: 'Eggs' },
          createdAt: 3,
          updatedAt: 3,
          authorId: cleoId,
        },
      ],
      counters: {},
    });
    await h.pipit.server.storage.documents.store(
      documentName({ kind: 'space', spaceId: id }),
      Y.encodeStateAsUpdate(doc),
    );
    doc.destroy();

    const response = await download(cleo, '/api/account/export');
    expect(response.status).toBe(200);
    const file = readPipitFile(response.bytes);
    const space = file.manifest.spaces.find((s) => s.id === id);
    expect(space).toEqual({
      id,
      name: 'Groceries',
      role: 'member',
      app: { id: appId, title: 'Shopping list' },
      file: `spaces/${id}/data.json`,
      // The space's photos and files travel with its records; this one has none.
      recordFiles: [],
    });
    const data = file.spaceData(space!);
    expect(data.records.map((r) => [r.id, r.values, r.authorId])).toEqual([
      ['milk', { name: 'Milk' }, benId],
      ['eggs', { name: 'Eggs' }, cleoId],
    ]);
    // Apart from the person's own data: in the account's list of spaces, not of apps.
    expect(file.manifest.apps.map((a) => a.id)).not.toContain(appId);
    expect(file.account()).toMatchObject({
      spaces: expect.arrayContaining([
        expect.objectContaining({ id, name: 'Groceries', role: 'member' }),
      ]),
    });
    // The owner's export has it too, with their role; someone not in it never does.
    const owner = readPipitFile((await download(ben, '/api/account/export')).bytes);
    expect(owner.manifest.spaces.find((s) => s.id === id)).toMatchObject({ role: 'owner' });
    const stranger = readPipitFile((await download(dan, '/api/account/export')).bytes);
    expect(stranger.manifest.spaces.map((s) => s.id)).not.toContain(id);
  });
});
