import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { createApp, readDefinition, setMeta } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider, refused, type TestProvider } from '../support/provider';
import { RawSyncClient, updateMessage } from '../support/raw-sync';
import { sleep } from '../support/timing';

/** What the server holds for a document: its snapshot plus the logged updates after it. */
async function storedTitle(h: AccountsHarness, name: string): Promise<string | undefined> {
  const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name);
  const doc = new Y.Doc();
  if (snapshot) Y.applyUpdate(doc, snapshot);
  for (const entry of log) Y.applyUpdate(doc, entry.update);
  return doc.getMap('meta').get('title') as string | undefined;
}

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

describe('who may open which document over the socket (docs/product/roles.md)', () => {
  let h: AccountsHarness;
  let owner: ApiClient;
  let editor: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  const providers: TestProvider[] = [];
  const connect = (client: ApiClient | null, name: string, origin?: string) => {
    const p = connectProvider({
      url: h.pipit.url,
      name,
      cookie: client?.cookie ?? null,
      ...(origin ? { origin } : {}),
    });
    providers.push(p);
    return p;
  };

  /** A new app of the owner's with the editor and the viewer invited, seeded by the owner. */
  async function sharedApp(title: string) {
    const id = createId();
    await owner.post('/api/apps', { id, title });
    for (const [who, role] of [
      ['editor_1', 'editor'],
      ['viewer_1', 'viewer'],
    ]) {
      const r = await owner.request('PUT', `/api/apps/${id}/collaborators/${who}`, {
        body: { role },
      });
      expect(r.status).toBe(201);
    }
    const name = `app/${id}`;
    const ownerSide = connect(owner, name);
    expect(await ownerSide.ready).toBe(true);
    createApp(ownerSide.doc, createId, { title });
    await acknowledged(ownerSide.provider);
    return { id, name, ownerSide };
  }

  beforeAll(async () => {
    h = await startAccountsServer('sqlite', { storeDebounceMs: 50 });
    owner = await h.signup('owner_1');
    editor = await h.signup('editor_1');
    viewer = await h.signup('viewer_1');
    stranger = await h.signup('stranger_1');
    const me = await owner.get<{ account: { id: string } }>('/api/auth/session');
    await h.pipit.server.storage.users.update(me.body.account.id, { emailVerifiedAt: Date.now() });
  });
  afterEach(() => providers.splice(0).forEach((p) => p.destroy()));
  afterAll(() => h.close());

  it('lets the owner and an editor write, and each sees the other’s edit', async () => {
    const { name, ownerSide } = await sharedApp('Guest list');
    const editorSide = connect(editor, name);
    expect(await editorSide.ready).toBe(true);
    expect(editorSide.provider.authorizedScope).toBe('read-write');
    setMeta(editorSide.doc, { title: 'Wedding guests' });
    await acknowledged(editorSide.provider);
    await vi.waitFor(() => expect(readDefinition(ownerSide.doc).meta.title).toBe('Wedding guests'));
    expect(await storedTitle(h, name)).toBe('Wedding guests');
  });

  it('keeps a viewer’s write out of the stored document, though it reached the server', async () => {
    const { name } = await sharedApp('Budget');
    const viewerSide = connect(viewer, name);
    expect(await viewerSide.ready).toBe(true);
    expect(viewerSide.provider.authorizedScope).toBe('readonly');
    const sent = vi.fn();
    viewerSide.provider.on('outgoingMessage', sent);
    const answered = refused(viewerSide.provider);
    setMeta(viewerSide.doc, { title: 'Hacked by a viewer' });
    await vi.waitFor(() => expect(sent).toHaveBeenCalled());
    // The server answers the update (refused), and the server's copy never changes.
    await answered;
    expect(viewerSide.provider.unsyncedChanges).toBe(1);
    expect(h.pipit.server.hocuspocus.documents.get(name)?.getMap('meta').get('title')).toBe(
      'Budget',
    );
    expect(await storedTitle(h, name)).toBe('Budget');
  });

  it('keeps archiving the owner’s: nothing written in the document archives, in any order', async () => {
    const { id, name, ownerSide } = await sharedApp('Reading list');
    const listed = async () =>
      (await owner.get<{ app: { title: string; archived: boolean } }>(`/api/apps/${id}`)).body.app;
    const isStored = async (title: string) =>
      vi.waitFor(async () => expect(await storedTitle(h, name)).toBe(title));

    // An editor writes `meta.archived` with a title change: the title is the app's, the flag
    // is nothing (the listing's archived state is the owner's request, kept by the server).
    const editorSide = connect(editor, name);
    expect(await editorSide.ready).toBe(true);
    editorSide.doc.transact(() => {
      setMeta(editorSide.doc, { title: 'Books to read' });
      editorSide.doc.getMap('meta').set('archived', true);
    });
    await acknowledged(editorSide.provider);
    await isStored('Books to read');
    await vi.waitFor(async () =>
      expect(await listed()).toMatchObject({ title: 'Books to read', archived: false }),
    );

    // The review's path: an update that waits for a missing part (uX needs uY), sent before the
    // document unloads, applied after it loads again — still nothing.
    editorSide.destroy();
    const crafted = new Y.Doc();
    Y.applyUpdate(crafted, Y.encodeStateAsUpdate(ownerSide.doc));
    const base = Y.encodeStateVector(crafted);
    crafted.getMap('meta').set('title', 'Waiting');
    const uY = Y.encodeStateAsUpdate(crafted, base);
    const afterY = Y.encodeStateVector(crafted);
    crafted.getMap('meta').set('archived', true);
    const uX = Y.encodeStateAsUpdate(crafted, afterY);
    let raw = await RawSyncClient.open(h.pipit.url, name, { cookie: editor.cookie });
    expect(await raw.sendAndAnswer(name, updateMessage(name, uX))).toMatchObject({
      type: 'sync-status',
    });
    raw.close();
    ownerSide.destroy();
    await vi.waitFor(() => expect(h.pipit.server.hocuspocus.documents.has(name)).toBe(false));
    raw = await RawSyncClient.open(h.pipit.url, name, { cookie: editor.cookie });
    expect(await raw.sendAndAnswer(name, updateMessage(name, uY))).toMatchObject({
      type: 'sync-status',
      applied: true,
    });
    raw.close();
    await isStored('Waiting');
    await vi.waitFor(async () =>
      expect(await listed()).toMatchObject({ title: 'Waiting', archived: false }),
    );

    // Over REST, archiving is the owner's: an editor and a viewer are refused.
    const archive = (client: ApiClient, archived: boolean) =>
      client.request('PUT', `/api/apps/${id}/archived`, { body: { archived } });
    for (const client of [editor, viewer]) {
      const refused = await archive(client, true);
      expect([refused.status, errorCode(refused)]).toEqual([403, 'forbidden']);
    }
    expect((await listed()).archived).toBe(false);
    expect((await archive(owner, true)).status).toBe(200);
    expect((await listed()).archived).toBe(true);
    // Nor can an editor unarchive it through the document.
    const again = connect(editor, name);
    expect(await again.ready).toBe(true);
    again.doc.getMap('meta').set('archived', false);
    await acknowledged(again.provider);
    expect((await listed()).archived).toBe(true);
    expect((await archive(owner, false)).status).toBe(200);
    expect((await listed()).archived).toBe(false);
  });

  it('gives nothing to a stranger, to no session, or to a foreign origin', async () => {
    const { name } = await sharedApp('Recipes');
    const strangerSide = connect(stranger, name);
    const strangerRefused = refusal(strangerSide);
    expect(await strangerSide.ready).toBe(false);
    expect(await strangerRefused).toBe('forbidden');
    expect(strangerSide.doc.getMap('meta').size).toBe(0);

    const anonymous = connect(null, name);
    expect(await anonymous.ready).toBe(false);
    expect(anonymous.doc.getMap('meta').size).toBe(0);

    const foreign = connect(owner, name, 'https://evil.example');
    expect(await foreign.ready).toBe(false);
    expect(foreign.doc.getMap('meta').size).toBe(0);
  });

  it('refuses a document name nobody created, and someone else’s private index', async () => {
    const unknown = connect(owner, `app/${createId()}`);
    const reason = refusal(unknown);
    expect(await unknown.ready).toBe(false);
    expect(await reason).toBe('not_found');

    const me = await editor.get<{ account: { id: string } }>('/api/auth/session');
    const theirs = connect(owner, `user/${me.body.account.id}`);
    expect(await theirs.ready).toBe(false);
    const mine = connect(editor, `user/${me.body.account.id}`);
    expect(await mine.ready).toBe(true);
  });

  it('closes a removed collaborator’s connection at once, and their later edits go nowhere', async () => {
    const { id, name } = await sharedApp('Reading list');
    const editorSide = connect(editor, name);
    expect(await editorSide.ready).toBe(true);
    const why = closed(editorSide);
    await owner.request('DELETE', `/api/apps/${id}/collaborators/editor_1`);
    expect(await why).toBe('forbidden');
    setMeta(editorSide.doc, { title: 'Written after removal' });
    // A fixed wait on purpose: the connection is closed, and that nothing arrives is the check.
    await sleep(300);
    expect(await storedTitle(h, name)).toBe('Reading list');
  });

  it('closes the connections of a session that signs out', async () => {
    const { name } = await sharedApp('Packing list');
    const session = await h.login('editor_1');
    const side = connect(session, name);
    expect(await side.ready).toBe(true);
    const why = closed(side);
    await session.post('/api/auth/logout');
    expect(await why).toBe('forbidden');
  });

  it('gives a visitor their own data document for an app they may see, and no one else', async () => {
    const { id } = await sharedApp('Habit tracker');
    const visitorId = (await stranger.get<{ account: { id: string } }>('/api/auth/session')).body
      .account.id;
    const ownerId = (await owner.get<{ account: { id: string } }>('/api/auth/session')).body.account
      .id;
    const visitorData = `data/${id}/${visitorId}`;

    // A draft is no one's to visit: the visitor is refused; the owner keeps their own data.
    const early = connect(stranger, visitorData);
    const earlyReason = refusal(early);
    expect(await early.ready).toBe(false);
    expect(await earlyReason).toBe('forbidden');
    expect(await connect(owner, `data/${id}/${ownerId}`).ready).toBe(true);

    expect((await owner.post(`/api/apps/${id}/versions`, {})).status).toBe(201);
    const mine = connect(stranger, visitorData);
    expect(await mine.ready).toBe(true);
    mine.doc.getMap('records').set('r1', 'mine alone');
    await acknowledged(mine.provider);

    // The app's creator cannot open the visitor's data, nor can anyone signed out.
    const creator = connect(owner, visitorData);
    const creatorReason = refusal(creator);
    expect(await creator.ready).toBe(false);
    expect(await creatorReason).toBe('forbidden');
    expect(creator.doc.getMap('records').size).toBe(0);
    expect(await connect(null, visitorData).ready).toBe(false);

    // Once the app is private, the visitor's open connection is closed and refused from then on;
    // the owner's own data connection stays.
    const ownData = connect(owner, `data/${id}/${ownerId}`);
    expect(await ownData.ready).toBe(true);
    const why = closed(mine);
    await owner.request('PUT', `/api/apps/${id}/visibility`, { body: { visibility: 'private' } });
    expect(await why).toBe('forbidden');
    ownData.doc.getMap('records').set('o1', 'still syncing');
    await acknowledged(ownData.provider);
    const later = connect(stranger, visitorData);
    expect(await later.ready).toBe(false);
    expect(later.doc.getMap('records').size).toBe(0);

    const unknown = connect(stranger, `data/${createId()}/${visitorId}`);
    const unknownReason = refusal(unknown);
    expect(await unknown.ready).toBe(false);
    expect(await unknownReason).toBe('not_found');
  });

  it('keeps the listing (title, description) from the stored document', async () => {
    const { id, ownerSide } = await sharedApp('Workout log');
    setMeta(ownerSide.doc, { title: 'Morning runs', description: 'Every run this year' });
    await acknowledged(ownerSide.provider);
    await vi.waitFor(async () => {
      const { body } = await owner.get<{ app: { title: string; description: string } }>(
        `/api/apps/${id}`,
      );
      expect(body.app).toMatchObject({ title: 'Morning runs', description: 'Every run this year' });
    });
  });
});
