import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import IORedis from 'ioredis';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { createApp, readDefinition, setMeta } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type TestCluster, startTestCluster } from '../support/cluster';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { TEST_REDIS_URL } from '../support/redis';
import { sleep } from '../support/timing';

/** What storage holds for a document: its snapshot plus the logged updates after it. */
async function stored(cluster: TestCluster, name: string): Promise<Y.Doc> {
  const { snapshot, log } =
    await cluster.instances[0]!.pipit.server.storage.documents.loadWithLog(name);
  const doc = new Y.Doc();
  if (snapshot) Y.applyUpdate(doc, snapshot);
  for (const entry of log) Y.applyUpdate(doc, entry.update);
  return doc;
}

const closedWith = (client: TestProvider) =>
  new Promise<string>((resolve) =>
    client.provider.on('close', ({ event }: { event: { reason: string } }) =>
      resolve(event.reason),
    ),
  );

describe('several instances through Redis (docs/scaling.md)', () => {
  let cluster: TestCluster;
  let owner: ApiClient;
  let editor: ApiClient;
  const providers: TestProvider[] = [];
  const connect = (client: ApiClient, at: number, name: string) => {
    const p = connectProvider({
      url: cluster.instances[at]!.pipit.url,
      name,
      cookie: client.cookie,
    });
    providers.push(p);
    return p;
  };

  /** An app of the owner's, shared with the editor, seeded through instance 0. */
  async function sharedApp(title: string) {
    const id = createId();
    expect((await owner.post('/api/apps', { id, title })).status).toBe(201);
    const invited = await owner.request('PUT', `/api/apps/${id}/collaborators/editor_c`, {
      body: { role: 'editor' },
    });
    expect(invited.status).toBe(201);
    const name = `app/${id}`;
    const ownerSide = connect(owner, 0, name);
    expect(await ownerSide.ready).toBe(true);
    createApp(ownerSide.doc, createId, { title });
    await acknowledged(ownerSide.provider);
    return { id, name, ownerSide };
  }

  beforeAll(async () => {
    cluster = await startTestCluster(2, { storeDebounceMs: 50 });
    owner = await cluster.signup('owner_c');
    editor = await cluster.signup('editor_c', 1);
    // Inviting collaborators needs a confirmed email.
    const me = await owner.get<{ account: { id: string } }>('/api/auth/session');
    await cluster.instances[0]!.pipit.server.storage.users.update(me.body.account.id, {
      emailVerifiedAt: Date.now(),
    });
  });
  afterEach(() => {
    providers.splice(0).forEach((p) => p.destroy());
    for (const { redisLink } of cluster.instances) redisLink.restore();
  });
  afterAll(() => cluster.close());

  it('carries edits and presence between clients on different instances', async () => {
    const { name, ownerSide } = await sharedApp('Guest list');
    const editorSide = connect(editor, 1, name);
    expect(await editorSide.ready).toBe(true);
    // The editor loaded the app on instance 1 from storage: everything instance 0 acknowledged.
    expect(readDefinition(editorSide.doc).meta.title).toBe('Guest list');

    setMeta(editorSide.doc, { title: 'Wedding guests' });
    await acknowledged(editorSide.provider);
    await vi.waitFor(() => expect(readDefinition(ownerSide.doc).meta.title).toBe('Wedding guests'));
    setMeta(ownerSide.doc, { description: 'Who comes' });
    await vi.waitFor(() =>
      expect(readDefinition(editorSide.doc).meta.description).toBe('Who comes'),
    );

    editorSide.provider.setAwarenessField('user', { name: 'Edie' });
    await vi.waitFor(() => {
      const states = [...ownerSide.provider.awareness!.getStates().values()];
      expect(states.some((s) => (s.user as { name?: string } | undefined)?.name === 'Edie')).toBe(
        true,
      );
    });
  });

  it('sends an edit to the other instance as itself, in one message through Redis', async () => {
    const { name, ownerSide } = await sharedApp('Seating plan');
    const editorSide = connect(editor, 1, name);
    expect(await editorSide.ready).toBe(true);
    // Every message any instance publishes about this document, on any channel: [id][name][type].
    const listener = new IORedis(TEST_REDIS_URL);
    const heard: Array<{ type: number; syncType: number }> = [];
    listener.on('pmessageBuffer', (_pattern: Buffer, _channel: Buffer, data: Buffer) => {
      const decoder = decoding.createDecoder(data.subarray(data[0]! + 1));
      if (decoding.readVarString(decoder) !== name) return;
      const type = decoding.readVarUint(decoder);
      // Presence goes its own way (a device's state renewed now and then), not this test's.
      if (type === 1) return;
      heard.push({ type, syncType: type === 0 ? decoding.readVarUint(decoder) : -1 });
    });
    try {
      await listener.psubscribe('*');
      await sleep(300);
      heard.length = 0;
      setMeta(editorSide.doc, { title: 'Seating plan, final' });
      await vi.waitFor(() =>
        expect(readDefinition(ownerSide.doc).meta.title).toBe('Seating plan, final'),
      );
      await sleep(300);
      // One update (type 0, sync update 2): no state vector announced, answered and answered
      // back (three trips and two diffs of the document, as the extension does by itself).
      expect(heard).toEqual([{ type: 0, syncType: 2 }]);
    } finally {
      listener.disconnect();
    }
  });

  it('stores each instance’s edits without either overwriting the other’s', async () => {
    const { name, ownerSide } = await sharedApp('Packing');
    const editorSide = connect(editor, 1, name);
    expect(await editorSide.ready).toBe(true);
    // Both instances hold the document and store it (50 ms debounce) while both sides write.
    for (let i = 0; i < 20; i++) {
      ownerSide.doc.getArray<string>('notes').push([`o${i}`]);
      editorSide.doc.getArray<string>('notes').push([`e${i}`]);
      // Paced on purpose: both instances store (50 ms debounce) while the edits go on.
      await sleep(10);
    }
    await acknowledged(ownerSide.provider);
    await acknowledged(editorSide.provider);
    await vi.waitFor(async () => {
      const notes = (await stored(cluster, name)).getArray<string>('notes').toArray();
      expect(notes).toHaveLength(40);
    });
    await vi.waitFor(async () => {
      const { log } = await cluster.instances[0]!.pipit.server.storage.documents.loadWithLog(name);
      expect(log).toEqual([]);
    });
  });

  it('closes a removed collaborator’s connection on every instance', async () => {
    const { id, name } = await sharedApp('Budget');
    const editorSide = connect(editor, 1, name);
    expect(await editorSide.ready).toBe(true);
    const reason = closedWith(editorSide);
    // Removed through instance 0; the editor is connected to instance 1.
    const removed = await owner.request('DELETE', `/api/apps/${id}/collaborators/editor_c`);
    expect(removed.status).toBe(200);
    expect(await reason).toBe('forbidden');
  });

  it('closes a session’s connections on every instance when it signs out', async () => {
    const extra = await cluster.signup('leaver_c', 1);
    const id = createId();
    expect((await extra.post('/api/apps', { id, title: 'Mine' })).status).toBe(201);
    const side = connect(extra, 1, `app/${id}`);
    expect(await side.ready).toBe(true);
    const reason = closedWith(side);
    expect((await cluster.on(extra, 0).post('/api/auth/logout')).status).toBe(204);
    expect(await reason).toBe('forbidden');
  });

  it('never stores a deleted app again, though another instance held it with changes', async () => {
    const { id, name } = await sharedApp('Chores');
    const editorSide = connect(editor, 1, name);
    expect(await editorSide.ready).toBe(true);
    setMeta(editorSide.doc, { title: 'Chores, week 2' });
    await acknowledged(editorSide.provider);
    // Only an archived app can be deleted; the owner archives it, then deletes it, on instance 0.
    const archived = await owner.request('PUT', `/api/apps/${id}/archived`, {
      body: { archived: true },
    });
    expect(archived.status).toBe(200);
    const closing = closedWith(editorSide);
    expect((await owner.request('DELETE', `/api/apps/${id}`)).status).toBe(200);
    // The deletion waited for instance 1 to stop writing it and close its connections.
    expect(await closing).toBe('forbidden');
    // A fixed wait on purpose: that no late store writes it back is the check.
    await sleep(300);
    const { snapshot, log } =
      await cluster.instances[1]!.pipit.server.storage.documents.loadWithLog(name);
    expect(snapshot).toBeNull();
    expect(log).toEqual([]);
  });

  it('carries out on an instance that was cut from Redis what was decided meanwhile', async () => {
    const { id, name } = await sharedApp('Secrets');
    const editorSide = connect(editor, 1, name);
    expect(await editorSide.ready).toBe(true);
    const partitioned = cluster.instances[1]!;
    partitioned.redisLink.cut();
    await vi.waitFor(() =>
      expect(partitioned.pipit.logs.some((l) => l.msg.startsWith('Redis cannot be reached'))).toBe(
        true,
      ),
    );
    const reason = closedWith(editorSide);
    // Instance 1 cannot hear this removal…
    const removed = await owner.request('DELETE', `/api/apps/${id}/collaborators/editor_c`);
    expect(removed.status).toBe(200);
    // A fixed wait on purpose: that the connection stays open meanwhile is the check.
    await sleep(300);
    expect(editorSide.provider.isSynced).toBe(true);
    // …until its link is back: it checks its open connections against storage again.
    partitioned.redisLink.restore();
    expect(await reason).toBe('forbidden');
  });

  it('keeps serving while an instance cannot reach Redis, and converges once it can', async () => {
    const { name, ownerSide } = await sharedApp('Trip');
    const editorSide = connect(editor, 1, name);
    expect(await editorSide.ready).toBe(true);
    const partitioned = cluster.instances[1]!;
    partitioned.redisLink.cut();
    await vi.waitFor(() =>
      expect(partitioned.pipit.logs.some((l) => l.msg.startsWith('Redis cannot be reached'))).toBe(
        true,
      ),
    );
    // Both sides keep editing, and each instance acknowledges its own clients' edits.
    ownerSide.doc.getArray<string>('stops').push(['Lyon']);
    editorSide.doc.getArray<string>('stops').push(['Turin']);
    await acknowledged(ownerSide.provider);
    await acknowledged(editorSide.provider);
    // A client may even open the document anew on the partitioned instance meanwhile.
    const late = connect(editor, 1, name);
    expect(await late.ready).toBe(true);

    partitioned.redisLink.restore();
    const both = ['Lyon', 'Turin'];
    for (const side of [ownerSide, editorSide, late]) {
      await vi.waitFor(
        () => expect(side.doc.getArray<string>('stops').toArray().sort()).toEqual(both),
        { timeout: 10_000 },
      );
    }
  });
});
