import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addScreen,
  type AppDefinition,
  readDefinition,
  setMeta,
  writeDefinition,
} from '@pipit/app-definition';
import {
  type Checkpoint,
  type CheckpointList,
  createId,
  HISTORY_LIMITS,
  type Upstream,
} from '@pipit/protocol';
import * as Y from 'yjs';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import {
  createApp,
  definitionOf,
  editDocument,
  publish,
  verifyEmail,
  shareApp,
} from '../support/publishing';
import { sleep } from '../support/timing';

const MINUTE = 60_000;

/** Waits until `check` passes (a store is debounced; its checkpoint follows it). */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await sleep(50);
    }
  }
}

describe.each(ENGINES)('app history over REST (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let editor: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let offset = 0;
  const clock = { now: () => Date.now() + offset };

  const listOf = async (client: ApiClient, id: string) =>
    (await client.get<CheckpointList>(`/api/apps/${id}/checkpoints`)).body;

  async function sharedApp() {
    const id = await createApp(h, ada, definitionOf({ title: 'Habits' }));
    await shareApp(ada, id, [
      [`ed_${engine}`, 'editor'],
      [`vi_${engine}`, 'viewer'],
    ]);
    return id;
  }

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50, clock });
    ada = await h.signup(`ada_${engine}`);
    editor = await h.signup(`ed_${engine}`);
    viewer = await h.signup(`vi_${engine}`);
    stranger = await h.signup(`st_${engine}`);
    await verifyEmail(h, ada);
  });
  afterAll(() => h.close());

  it('checkpoints an app when it is first stored, then at most every 10 minutes of editing, naming who changed what', async () => {
    const id = await sharedApp();
    const first = await eventually(async () => {
      const list = await listOf(ada, id);
      expect(list.checkpoints).toHaveLength(1);
      return list.checkpoints[0]!;
    });
    expect(first).toMatchObject({ kind: 'auto', name: null, changes: { first: true } });

    // Within ten minutes another edit makes no checkpoint, however it is stored.
    await editDocument(h, editor, id, (doc) => setMeta(doc, { title: 'Habits 2' }));
    // A fixed wait on purpose: that no checkpoint follows the store (50 ms debounce) is the check.
    await sleep(400);
    expect((await listOf(ada, id)).checkpoints).toHaveLength(1);

    offset = 11 * MINUTE;
    try {
      await editDocument(h, editor, id, (doc) => addScreen(doc, createId, { title: 'Stats' }));
      const second = await eventually(async () => {
        const list = await listOf(viewer, id);
        expect(list.checkpoints).toHaveLength(2);
        return list.checkpoints[0]!;
      });
      expect(second.kind).toBe('auto');
      expect(second.authors.map((a) => a.username)).toContain(`ed_${engine}`);
      expect(second.changes.counts).toMatchObject({ app: 1, screens: 1 });
      expect(second.changes.names).toContain('Stats');
      expect(second.changes.summary).toMatch(/screen/);
    } finally {
      offset = 0;
    }
  });

  it('makes a checkpoint of every publish, with its version', async () => {
    const id = await createApp(h, ada, definitionOf({ title: 'Published one' }));
    expect((await publish(ada, id)).status).toBe(201);
    const list = await listOf(ada, id);
    const published = list.checkpoints.find((c) => c.kind === 'publish');
    expect(published).toMatchObject({ version: 1, name: 'Version 1' });
    expect(published!.createdBy?.username).toBe(`ada_${engine}`);
    const one = await ada.get<{ checkpoint: Checkpoint; definition: unknown }>(
      `/api/apps/${id}/checkpoints/${published!.id}`,
    );
    const version = await h.pipit.server.storage.publishing.version(id, 1);
    expect(one.body.definition).toEqual(JSON.parse(version!.definitionJson));
  });

  it('saves a named checkpoint once, however often the device sends it; viewers and strangers cannot', async () => {
    const id = await sharedApp();
    const definition = definitionOf({ title: 'Named' });
    const body = { id: createId(), name: '  Before the redesign ', definition };
    const created = await editor.post<{ checkpoint: Checkpoint }>(
      `/api/apps/${id}/checkpoints`,
      body,
    );
    expect(created.status).toBe(201);
    expect(created.body.checkpoint).toMatchObject({
      id: body.id,
      kind: 'manual',
      name: 'Before the redesign',
      createdBy: { username: `ed_${engine}` },
    });
    const again = await editor.post(`/api/apps/${id}/checkpoints`, body);
    expect(again.status).toBe(200);
    const named = (await listOf(ada, id)).checkpoints.filter((c) => c.kind === 'manual');
    expect(named).toHaveLength(1);
    const fetched = await viewer.get<{ definition: unknown }>(
      `/api/apps/${id}/checkpoints/${body.id}`,
    );
    expect(fetched.body.definition).toEqual(definition);

    const refused = await viewer.post(`/api/apps/${id}/checkpoints`, { ...body, id: createId() });
    expect(refused.status).toBe(403);
    const hidden = await stranger.post(`/api/apps/${id}/checkpoints`, { ...body, id: createId() });
    expect(hidden.status).toBe(404);
    expect((await stranger.get(`/api/apps/${id}/checkpoints`)).status).toBe(404);
    expect((await listOf(ada, id)).checkpoints.filter((c) => c.kind === 'manual')).toHaveLength(1);
  });

  it('refuses a malformed checkpoint with a reason and stores nothing', async () => {
    const id = await sharedApp();
    // What people saved by hand: the server's own checkpoints of the app's first edits may land
    // at any moment of this test (they follow the document's stores).
    const saved = async () =>
      (await listOf(ada, id)).checkpoints.filter((c) => c.kind === 'manual').length;
    const before = await saved();
    for (const body of [
      { id: createId(), name: '', definition: definitionOf() },
      { id: 'not-an-id', name: 'x', definition: definitionOf() },
      { id: createId(), name: 'x', definition: { screens: 'nope' } },
      {
        id: createId(),
        name: 'x'.repeat(HISTORY_LIMITS.nameLength + 1),
        definition: definitionOf(),
      },
    ]) {
      const answer = await ada.post(`/api/apps/${id}/checkpoints`, body);
      expect(answer.status).toBe(400);
      expect(errorCode(answer)).toBe('validation_failed');
    }
    expect(await saved()).toBe(before);
  });

  it('keeps a device’s time for a checkpoint made offline, never a time in the future', async () => {
    const id = await sharedApp();
    const past = Date.now() - 3 * 60 * MINUTE;
    const made = await ada.post<{ checkpoint: Checkpoint }>(`/api/apps/${id}/checkpoints`, {
      id: createId(),
      name: 'Offline',
      createdAt: past,
      definition: definitionOf(),
    });
    expect(made.body.checkpoint.createdAt).toBe(past);
    const future = await ada.post<{ checkpoint: Checkpoint }>(`/api/apps/${id}/checkpoints`, {
      id: createId(),
      name: 'From the future',
      createdAt: Date.now() + 60 * MINUTE,
      definition: definitionOf(),
    });
    expect(future.body.checkpoint.createdAt).toBeLessThanOrEqual(Date.now());
  });

  it('serves a checkpoint only through its own app', async () => {
    const mine = await sharedApp();
    const other = await createApp(h, ada, definitionOf({ title: 'Other' }));
    const body = { id: createId(), name: 'Mine', definition: definitionOf() };
    await ada.post(`/api/apps/${mine}/checkpoints`, body);
    const crossed = await ada.get(`/api/apps/${other}/checkpoints/${body.id}`);
    expect(crossed.status).toBe(404);
    expect(errorCode(crossed)).toBe('not_found');
    const deleted = await ada.request('DELETE', `/api/apps/${other}/checkpoints/${body.id}`);
    expect(deleted.status).toBe(404);
    expect((await ada.get(`/api/apps/${mine}/checkpoints/${body.id}`)).status).toBe(200);
  });

  it('deletes a named checkpoint for its maker or the owner; automatic ones thin out by themselves', async () => {
    const id = await sharedApp();
    const byAda = { id: createId(), name: 'Ada’s', definition: definitionOf() };
    const byEditor = { id: createId(), name: 'Editor’s', definition: definitionOf() };
    await ada.post(`/api/apps/${id}/checkpoints`, byAda);
    await editor.post(`/api/apps/${id}/checkpoints`, byEditor);
    expect((await editor.request('DELETE', `/api/apps/${id}/checkpoints/${byAda.id}`)).status).toBe(
      403,
    );
    expect((await ada.request('DELETE', `/api/apps/${id}/checkpoints/${byEditor.id}`)).status).toBe(
      204,
    );
    const auto = await eventually(async () => {
      const found = (await listOf(ada, id)).checkpoints.find((c) => c.kind === 'auto');
      expect(found).toBeDefined();
      return found!;
    });
    expect((await ada.request('DELETE', `/api/apps/${id}/checkpoints/${auto.id}`)).status).toBe(
      403,
    );
    const left = (await listOf(ada, id)).checkpoints.map((c) => c.id);
    expect(left).toContain(byAda.id);
    expect(left).not.toContain(byEditor.id);
    expect(left).toContain(auto.id);
  });

  it('refuses a named checkpoint when named ones fill the history, saying how to make room', async () => {
    const id = await sharedApp();
    const storage = h.pipit.server.storage;
    const bytes = gzipSync(JSON.stringify(definitionOf()));
    for (let i = 0; i < HISTORY_LIMITS.checkpointsPerApp; i++) {
      await storage.checkpoints.insert({
        id: createId(),
        appId: id,
        kind: 'manual',
        name: `n${i}`,
        version: null,
        createdAt: Date.now() - i,
        createdById: null,
        authorIds: [],
        changesJson: '{}',
        definitionHash: `h${i}`,
        definition: bytes,
        size: bytes.byteLength,
      });
    }
    const answer = await ada.post(`/api/apps/${id}/checkpoints`, {
      id: createId(),
      name: 'One more',
      definition: definitionOf(),
    });
    expect(answer.status).toBe(403);
    expect(errorCode(answer)).toBe('limit_reached');
    expect(String((answer.body as { error: { message: string } }).error.message)).toMatch(
      /Delete a named checkpoint/,
    );
    expect((await listOf(ada, id)).checkpoints.some((c) => c.name === 'One more')).toBe(false);
  });

  it('a checkpoint holds what the document held: restoring it reads back the same app', async () => {
    const written = definitionOf({ title: 'Kept' });
    const id = await createApp(h, ada, written);
    const list = await eventually(async () => {
      const found = await listOf(ada, id);
      expect(found.checkpoints.length).toBeGreaterThan(0);
      return found;
    });
    const oldest = list.checkpoints.at(-1)!;
    const stored = await ada.get<{ definition: unknown }>(
      `/api/apps/${id}/checkpoints/${oldest.id}`,
    );
    const doc = new Y.Doc();
    writeDefinition(doc, written);
    expect(stored.body.definition).toEqual(readDefinition(doc));
  });
});

describe.each(ENGINES)('a remix and its original over REST (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;
  let cy: ApiClient;
  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_up_${engine}`);
    ben = await h.signup(`ben_up_${engine}`);
    cy = await h.signup(`cy_up_${engine}`);
    await verifyEmail(h, ada);
    await verifyEmail(h, ben);
  });
  afterAll(() => h.close());

  type Answer = { upstream: Upstream | null };

  it('gives a remix the version it came from and the original’s newer one; a pull moves its base', async () => {
    const original = await createApp(h, ada, definitionOf({ title: 'Original' }));
    expect((await publish(ada, original)).status).toBe(201);
    const v1 = await h.pipit.server.storage.publishing.version(original, 1);
    const remix = await createApp(h, ben, JSON.parse(v1!.definitionJson) as AppDefinition, {
      forkedFrom: { appId: original, version: 1 },
    });
    const invited = await ben.request('PUT', `/api/apps/${remix}/collaborators/cy_up_${engine}`, {
      body: { role: 'viewer' },
    });
    expect(invited.status).toBe(201);

    let answer = await ben.get<Answer>(`/api/apps/${remix}/upstream`);
    expect(answer.body.upstream).toMatchObject({
      source: { appId: original, title: 'Original', author: { username: `ada_up_${engine}` } },
      base: { version: 1 },
      latest: { version: 1 },
      newer: false,
    });

    await editDocument(h, ada, original, (doc) => setMeta(doc, { title: 'Original, again' }));
    expect((await publish(ada, original)).status).toBe(201);
    answer = await ben.get<Answer>(`/api/apps/${remix}/upstream`);
    expect(answer.body.upstream).toMatchObject({
      base: { version: 1, definition: { meta: { title: 'Original' } } },
      latest: { version: 2, definition: { meta: { title: 'Original, again' } } },
      newer: true,
    });

    // A viewer of the remix cannot pull; nobody can move the base past the published version or back.
    expect((await cy.get(`/api/apps/${remix}/upstream`)).status).toBe(403);
    expect(
      (await cy.request('PUT', `/api/apps/${remix}/upstream`, { body: { version: 2 } })).status,
    ).toBe(403);
    for (const version of [3, 0, 'two']) {
      const refused = await ben.request('PUT', `/api/apps/${remix}/upstream`, {
        body: { version },
      });
      expect(refused.status).toBe(400);
    }
    expect((await h.pipit.server.storage.apps.get(remix))?.forkedFromVersion).toBe(1);

    const pulled = await ben.request('PUT', `/api/apps/${remix}/upstream`, {
      body: { version: 2 },
    });
    expect(pulled.status).toBe(200);
    expect((await h.pipit.server.storage.apps.get(remix))?.forkedFromVersion).toBe(2);
    expect(
      (await ben.request('PUT', `/api/apps/${remix}/upstream`, { body: { version: 1 } })).status,
    ).toBe(400);
    answer = await ben.get<Answer>(`/api/apps/${remix}/upstream`);
    expect(answer.body.upstream).toMatchObject({ base: { version: 2 }, newer: false });

    // Once the original is private, there is nothing to pull from.
    await ada.request('PUT', `/api/apps/${original}/visibility`, {
      body: { visibility: 'private' },
    });
    answer = await ben.get<Answer>(`/api/apps/${remix}/upstream`);
    expect(answer.status).toBe(200);
    expect(answer.body.upstream).toBeNull();
    expect(
      (await ben.request('PUT', `/api/apps/${remix}/upstream`, { body: { version: 2 } })).status,
    ).toBe(404);
  });

  it('answers the version numbers alone when asked, for an open editor’s check', async () => {
    type Versions = { upstream: { base: number; latest: number } | null; [key: string]: unknown };
    const original = await createApp(h, ada, definitionOf({ title: 'Checked' }));
    expect((await publish(ada, original)).status).toBe(201);
    const v1 = await h.pipit.server.storage.publishing.version(original, 1);
    const remix = await createApp(h, ben, JSON.parse(v1!.definitionJson) as AppDefinition, {
      forkedFrom: { appId: original, version: 1 },
    });
    const versions = async () =>
      (await ben.get<Versions>(`/api/apps/${remix}/upstream?versions=1`)).body;
    expect(await versions()).toEqual({ upstream: { base: 1, latest: 1 } });

    await editDocument(h, ada, original, (doc) => setMeta(doc, { title: 'Checked, again' }));
    expect((await publish(ada, original)).status).toBe(201);
    expect(await versions()).toEqual({ upstream: { base: 1, latest: 2 } });
    expect(
      (await ben.request('PUT', `/api/apps/${remix}/upstream`, { body: { version: 2 } })).status,
    ).toBe(200);
    expect(await versions()).toEqual({ upstream: { base: 2, latest: 2 } });

    // The same rules as the whole answer: nothing once the original is private, a viewer refused.
    await ada.request('PUT', `/api/apps/${original}/visibility`, {
      body: { visibility: 'private' },
    });
    expect(await versions()).toEqual({ upstream: null });
    expect((await cy.get(`/api/apps/${remix}/upstream?versions=1`)).status).toBe(404);
  });

  it('answers null for an app that is not a remix, and not found to a stranger', async () => {
    const plain = await createApp(h, ada, definitionOf({ title: 'Plain' }));
    const answer = await ada.get<Answer>(`/api/apps/${plain}/upstream`);
    expect(answer.status).toBe(200);
    expect(answer.body.upstream).toBeNull();
    expect((await cy.get(`/api/apps/${plain}/upstream`)).status).toBe(404);
  });
});

describe('saving checkpoints is rate limited per account', () => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer('sqlite', {
      rateLimits: { checkpointsPerAccount: { limit: 2, windowMs: 60 * MINUTE } },
    });
  });
  afterAll(() => h.close());

  it('refuses the third new checkpoint in the window, not a device sending one again', async () => {
    const ada = await h.signup('ada_limits');
    const id = await createApp(h, ada, definitionOf({ title: 'Limits' }));
    const first = { id: createId(), name: 'One', definition: definitionOf() };
    expect((await ada.post(`/api/apps/${id}/checkpoints`, first)).status).toBe(201);
    expect(
      (await ada.post(`/api/apps/${id}/checkpoints`, { ...first, id: createId(), name: 'Two' }))
        .status,
    ).toBe(201);
    // The first one sent again (its answer was lost): not counted, answered as before.
    expect((await ada.post(`/api/apps/${id}/checkpoints`, first)).status).toBe(200);
    const third = await ada.post(`/api/apps/${id}/checkpoints`, {
      ...first,
      id: createId(),
      name: 'Three',
    });
    expect(third.status).toBe(429);
    expect(errorCode(third)).toBe('rate_limited');
  });
});
