import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readDefinition, setMeta } from '@pipit/app-definition';
import { createId, DRAFT_LIMITS, type DraftList, type DraftSummary } from '@pipit/protocol';
import * as Y from 'yjs';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider } from '../support/provider';
import { createApp, definitionOf, verifyEmail, shareApp } from '../support/publishing';

describe.each(ENGINES)('drafts of an app (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let appId: string;
  const base = definitionOf({ title: 'Habits' });
  const path = () => `/api/apps/${appId}/drafts`;
  const listOf = async (client: ApiClient) => (await client.get<DraftList>(path())).body.drafts;
  const draftName = (draftId: string) => `draft/${appId}/${draftId}`;

  /** A draft's document opened by `client`: whether the server let it in, and read-only or not. */
  async function open(client: ApiClient, draftId: string) {
    const side = connectProvider({
      url: h.pipit.url,
      name: draftName(draftId),
      cookie: client.cookie,
    });
    const ready = await side.ready;
    return { side, ready, readOnly: side.provider.authorizedScope === 'readonly' };
  }

  /** Starts a draft as a device does: its document seeded from the app, then registered. */
  async function start(client: ApiClient, name = 'Try a new layout') {
    const id = createId();
    const made = await client.post<{ draft: DraftSummary }>(path(), { id, name, base });
    return { id, made };
  }

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_dr_${engine}`);
    ben = await h.signup(`ben_dr_${engine}`);
    viewer = await h.signup(`vi_dr_${engine}`);
    stranger = await h.signup(`st_dr_${engine}`);
    await verifyEmail(h, ada);
    appId = await createApp(h, ada, base);
    await shareApp(ada, appId, [
      [`ben_dr_${engine}`, 'editor'],
      [`vi_dr_${engine}`, 'viewer'],
    ]);
  });
  afterAll(() => h.close());

  it('starts a draft whose document editors co-edit, viewers read, and strangers never open', async () => {
    const { id, made } = await start(ada);
    expect(made.status).toBe(201);
    expect(made.body.draft).toMatchObject({
      id,
      name: 'Try a new layout',
      status: 'open',
      createdBy: { username: `ada_dr_${engine}` },
      closedAt: null,
    });
    // Sent again (the device did not hear the answer): the same draft.
    expect((await ada.post(path(), { id, name: 'Again', base })).status).toBe(200);

    // Ada's device seeds the draft's document from its copy of the app and syncs it.
    const seeded = await open(ada, id);
    expect(seeded.ready).toBe(true);
    Y.applyUpdate(seeded.side.doc, Y.encodeStateAsUpdate(await appDocument(ada)));
    setMeta(seeded.side.doc, { title: 'Habits, new layout' });
    await acknowledged(seeded.side.provider);
    seeded.side.destroy();

    // Ben, an editor, gets it and may write; the viewer may read it; a stranger is refused.
    const bens = await open(ben, id);
    expect(bens.ready).toBe(true);
    expect(bens.readOnly).toBe(false);
    expect(readDefinition(bens.side.doc).meta.title).toBe('Habits, new layout');
    bens.side.destroy();
    const viewers = await open(viewer, id);
    expect(viewers.ready).toBe(true);
    expect(viewers.readOnly).toBe(true);
    viewers.side.destroy();
    const strangers = await open(stranger, id);
    expect(strangers.ready).toBe(false);
    strangers.side.destroy();
    // A draft nobody started, even of an app one edits, is refused.
    const unknown = await open(ada, createId());
    expect(unknown.ready).toBe(false);
    unknown.side.destroy();
    // The app itself is untouched by the draft's edits.
    expect(readDefinition(await appDocument(ada)).meta.title).toBe('Habits');

    // Everyone who may read the app sees it; its base is the definition it began from.
    expect((await listOf(viewer)).map((d) => d.id)).toContain(id);
    const one = await viewer.get<{ base: { meta: { title: string } } }>(`${path()}/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.base.meta.title).toBe('Habits');
  });

  it('takes a new base after “Update draft”, is renamed, then merged once: its document goes', async () => {
    const { id } = await start(ben, 'Bigger buttons');
    const newer = { ...base, meta: { ...base.meta, title: 'Habits 2' } };
    const updated = await ben.request<{ draft: DraftSummary }>('PATCH', `${path()}/${id}`, {
      body: { base: newer, name: 'Big buttons' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.draft.name).toBe('Big buttons');
    const read = await ada.get<{ base: { meta: { title: string } } }>(`${path()}/${id}`);
    expect(read.body.base.meta.title).toBe('Habits 2');
    expect((await viewer.request('PATCH', `${path()}/${id}`, { body: { name: 'x' } })).status).toBe(
      403,
    );

    const opened = await open(ada, id);
    expect(opened.ready).toBe(true);
    const closed = await ada.post<{ draft: DraftSummary }>(`${path()}/${id}/close`, {
      outcome: 'merged',
    });
    expect(closed.status).toBe(200);
    expect(closed.body.draft).toMatchObject({
      status: 'merged',
      closedBy: { username: `ada_dr_${engine}` },
    });
    // Its connections are closed on the server, and it never opens again.
    await vi.waitFor(() =>
      expect(h.pipit.server.hocuspocus.documents.has(draftName(id))).toBe(false),
    );
    opened.side.destroy();
    expect((await open(ben, id)).ready).toBe(false);
    const late = await ben.post(`${path()}/${id}/close`, { outcome: 'deleted' });
    expect(late.status).toBe(409);
    expect(errorCode(late)).toBe('already_closed');
    expect(JSON.stringify(late.body)).toContain(`ada_dr_${engine} already merged`);
    const renamed = await ben.request('PATCH', `${path()}/${id}`, { body: { name: 'x' } });
    expect(renamed.status).toBe(409);
    expect((await ada.get(`${path()}/${id}`)).status).toBe(404);
    const listed = (await listOf(ada)).find((d) => d.id === id);
    expect(listed?.status).toBe('merged');
  });

  it('closes a collaborator’s draft connections when they lose the app, or opens them read-only', async () => {
    const { id } = await start(ada, 'Access');
    const bens = await open(ben, id);
    expect(bens.ready).toBe(true);
    expect(bens.readOnly).toBe(false);
    // Ben becomes a viewer: his connection to the draft goes, and comes back read-only.
    const demoted = await ada.request('PUT', `/api/apps/${appId}/collaborators/ben_dr_${engine}`, {
      body: { role: 'viewer' },
    });
    expect(demoted.status).toBeLessThan(300);
    await vi.waitFor(() => expect(bens.side.provider.isAuthenticated).toBe(false));
    bens.side.destroy();
    const again = await open(ben, id);
    expect(again.ready).toBe(true);
    expect(again.readOnly).toBe(true);
    // Removed: the connection goes and never opens again.
    const removed = await ada.request(
      'DELETE',
      `/api/apps/${appId}/collaborators/ben_dr_${engine}`,
    );
    expect(removed.status).toBeLessThan(300);
    await vi.waitFor(() => expect(again.side.provider.isAuthenticated).toBe(false));
    again.side.destroy();
    const refused = await open(ben, id);
    expect(refused.ready).toBe(false);
    refused.side.destroy();
    await shareApp(ada, appId, [[`ben_dr_${engine}`, 'editor']]);
    expect((await ada.post(`${path()}/${id}/close`, { outcome: 'deleted' })).status).toBe(200);
  });

  it('refuses what is not a draft, from whom it is not, changing nothing', async () => {
    const before = await listOf(ada);
    const invalid = await ada.post(path(), {
      id: createId(),
      name: 'x',
      base: { screens: 'none' },
    });
    expect(invalid.status).toBe(400);
    expect(errorCode(invalid)).toBe('validation_failed');
    expect(JSON.stringify(invalid.body)).toContain('base');
    expect((await ada.post(path(), { id: createId(), name: ' ', base })).status).toBe(400);
    expect((await ada.post(path(), { id: 'nope', name: 'x', base })).status).toBe(400);
    const long = 'x'.repeat(DRAFT_LIMITS.nameMaxLength + 1);
    expect((await ada.post(path(), { id: createId(), name: long, base })).status).toBe(400);
    expect((await viewer.post(path(), { id: createId(), name: 'x', base })).status).toBe(403);
    expect((await stranger.post(path(), { id: createId(), name: 'x', base })).status).toBe(404);
    expect((await stranger.get(path())).status).toBe(404);
    expect((await ada.get(`${path()}/${createId()}`)).status).toBe(404);
    expect(
      (await ada.request('PATCH', `${path()}/${createId()}`, { body: { name: 'x' } })).status,
    ).toBe(404);
    const [first] = before;
    expect((await ada.request('PATCH', `${path()}/${first!.id}`, { body: {} })).status).toBe(400);
    expect((await ada.post(`${path()}/${first!.id}/close`, { outcome: 'maybe' })).status).toBe(400);
    expect((await viewer.post(`${path()}/${first!.id}/close`, { outcome: 'deleted' })).status).toBe(
      403,
    );
    expect(await listOf(ada)).toEqual(before);
  });

  it(`keeps at most ${DRAFT_LIMITS.openPerApp} open, and says what to do`, async () => {
    const open = (await listOf(ada)).filter((d) => d.status === 'open').length;
    for (let i = open; i < DRAFT_LIMITS.openPerApp; i++) {
      expect((await start(ben)).made.status).toBe(201);
    }
    const full = await start(ben);
    expect(full.made.status).toBe(403);
    expect(errorCode(full.made)).toBe('limit_reached');
    expect(JSON.stringify(full.made.body)).toContain('Merge or delete one first');
    const [newest] = await listOf(ada);
    expect((await ada.post(`${path()}/${newest!.id}/close`, { outcome: 'deleted' })).status).toBe(
      200,
    );
    expect((await start(ben)).made.status).toBe(201);
  });

  it('deletes its open drafts’ documents with the app', async () => {
    const drafts = (await listOf(ada)).filter((d) => d.status === 'open');
    expect(drafts.length).toBeGreaterThan(1);
    const written = await open(ben, drafts[0]!.id);
    expect(written.ready).toBe(true);
    setMeta(written.side.doc, { title: 'Written' });
    await acknowledged(written.side.provider);
    written.side.destroy();
    const stored = (name: string) => h.pipit.server.storage.documents.loadWithLog(name);
    const before = await stored(draftName(drafts[0]!.id));
    expect(before.snapshot !== null || before.log.length > 0).toBe(true);

    const archived = await ada.request('PUT', `/api/apps/${appId}/archived`, {
      body: { archived: true },
    });
    expect(archived.status).toBe(200);
    expect((await ada.request('DELETE', `/api/apps/${appId}`)).status).toBeLessThan(300);
    for (const draft of drafts) {
      expect(await stored(draftName(draft.id))).toEqual({ snapshot: null, log: [] });
    }
  });

  /** The app's document as the server has it. */
  async function appDocument(client: ApiClient): Promise<Y.Doc> {
    const side = connectProvider({ url: h.pipit.url, name: `app/${appId}`, cookie: client.cookie });
    try {
      expect(await side.ready).toBe(true);
      const copy = new Y.Doc();
      Y.applyUpdate(copy, Y.encodeStateAsUpdate(side.doc));
      return copy;
    } finally {
      side.destroy();
    }
  }
});
