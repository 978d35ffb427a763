import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createId } from '@pipit/protocol';
import * as encoding from 'lib0/encoding';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { REFUSALS_BEFORE_SLOWDOWN, ResourceBounds } from '../../src/collab/resource-bounds';
import { DEFAULT_RESOURCE_LIMITS } from '../../src/collab/resource-limits';
import { SYNC_PATH } from '@pipit/protocol';
import { growthOf, itemsOf, waitingBytes } from '../../src/collab/yjs-usage';
import type { ApiClient } from '../support/api-client';
import { grantEveryone } from '../support/access';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import {
  authMessage,
  awarenessMessage,
  frame,
  RawSyncClient,
  updateMessage,
} from '../support/raw-sync';
import { type RunningPipit, startPipit } from '../support/start-server';
import { sleep } from '../support/timing';

setFlagsFromString('--expose-gc');
/** The collector, to read the heap as what is still held rather than what is not swept yet. */
const collectGarbage = runInNewContext('gc') as () => void;
const heapMb = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

/** `count` tiny map entries in one transaction: many items in few bytes (370,000 → 4.4 MB). */
function mapEntries(count: number, prefix = ''): Uint8Array {
  const doc = new Y.Doc();
  const map = doc.getMap('x');
  doc.transact(() => {
    for (let i = 0; i < count; i++) map.set(prefix + i.toString(36), 0);
  });
  return Y.encodeStateAsUpdate(doc);
}

/** A sync step 1 with an empty state vector: "send me the whole document", in a few bytes. */
function syncStep1(name: string): Uint8Array {
  return frame(name, (e) => {
    encoding.writeVarUint(e, 0); // Hocuspocus: sync
    encoding.writeVarUint(e, 0); // y-protocols: step 1
    encoding.writeVarUint8Array(e, Y.encodeStateVector(new Y.Doc()));
  });
}

/** A text of `bytes` characters in one item: bytes without items. */
function bytesUpdate(bytes: number): Uint8Array {
  const doc = new Y.Doc();
  doc.getText('t').insert(0, 'x'.repeat(bytes));
  return Y.encodeStateAsUpdate(doc);
}

/** An upgrade to the sync path; resolves with the HTTP status it was refused with, or 101. */
function upgradeStatus(url: string, cookie: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}${SYNC_PATH}`, {
      headers: { Origin: url, ...(cookie ? { Cookie: cookie } : {}) },
    });
    socket.once('open', () => {
      resolve(101);
      socket.close();
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', (error) => {
      if (!/Unexpected server response/.test(String(error))) reject(error);
    });
  });
}

const raws: RawSyncClient[] = [];
const track = (raw: RawSyncClient) => (raws.push(raw), raw);
afterEach(() => {
  for (const raw of raws.splice(0)) raw.close();
});

describe.each(ENGINES)('bounded memory for one person (%s)', (engine) => {
  let h: AccountsHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function registerApps(client: ApiClient, count: number): Promise<string[]> {
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = createId();
      const created = await client.post('/api/apps', { id, title: `App ${i}` });
      expect(created.status).toBe(201);
      names.push(`app/${id}`);
    }
    return names;
  }

  it('refuses 370,000 map entries in 4.4 MB, five times on one socket, and the heap stays bounded', async () => {
    h = await startAccountsServer(engine);
    const mallory = await h.signup('mallory');
    const names = await registerApps(mallory, 5);
    const crafted = mapEntries(370_000);
    expect(crafted.byteLength).toBeLessThan(5 * 1024 * 1024);

    const before = heapMb();
    const raw = track(await RawSyncClient.open(h.pipit.url, names[0]!, { cookie: mallory.cookie }));
    for (const name of names) {
      if (name !== names[0]) expect((await raw.authenticate(name)).type).toBe('authenticated');
      expect(await raw.sendAndAnswer(name, updateMessage(name, crafted))).toMatchObject({
        type: 'close-message',
        reason: 'document_too_large',
      });
    }
    const after = heapMb();
    // Applied, these took the heap from 42 to 1,189 MB; refused, they leave next to nothing.
    console.log(
      `heap after five refused 4.4 MB updates of 370,000 items (${engine}): ` +
        `${before.toFixed(0)} → ${after.toFixed(0)} MB`,
    );
    expect(after - before).toBeLessThan(100);
    // Nothing of them was stored either.
    for (const name of names) {
      const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name);
      expect(snapshot === null ? 0 : snapshot.byteLength).toBeLessThan(100);
      expect(log).toEqual([]);
    }
    // Five 4.4 MB documents built and refused: seconds on a quiet machine, more on a shared one.
  }, 90_000);

  it('counts a document’s items across updates and across its unload, and refuses past its limit', async () => {
    h = await startAccountsServer(engine, {
      storeDebounceMs: 20,
      resourceLimits: { documentItems: 1_000 },
    });
    const alice = await h.signup('alice');
    const [name] = await registerApps(alice, 1);
    let raw = track(await RawSyncClient.open(h.pipit.url, name!, { cookie: alice.cookie }));
    expect(
      await raw.sendAndAnswer(name!, updateMessage(name!, mapEntries(450, 'a'))),
    ).toMatchObject({ type: 'sync-status', applied: true });
    raw.close();
    // The document is stored and unloaded; loaded again, its 450 items are counted from storage.
    await vi.waitFor(() => expect(h!.pipit.server.hocuspocus.documents.has(name!)).toBe(false));

    raw = track(await RawSyncClient.open(h.pipit.url, name!, { cookie: alice.cookie }));
    const b = updateMessage(name!, mapEntries(450, 'b'));
    expect(await raw.sendAndAnswer(name!, b)).toMatchObject({ type: 'sync-status', applied: true });
    // Sent again (a provider resends what it is not sure arrived), it adds nothing to the count.
    expect(await raw.sendAndAnswer(name!, b)).toMatchObject({ type: 'sync-status', applied: true });
    expect(
      await raw.sendAndAnswer(name!, updateMessage(name!, mapEntries(450, 'c'))),
    ).toMatchObject({
      type: 'close-message',
      reason: 'document_too_large',
    });
    const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name!);
    const stored = new Y.Doc();
    if (snapshot) Y.applyUpdate(stored, snapshot);
    for (const entry of log) Y.applyUpdate(stored, entry.update);
    expect(stored.getMap('x').size).toBe(900);
  });

  it('caps the documents and the bytes one person holds open, over all their sockets', async () => {
    h = await startAccountsServer(engine, {
      resourceLimits: { personDocuments: 3, personBytes: 300_000 },
    });
    const bob = await h.signup('bob');
    const names = await registerApps(bob, 4);
    const first = track(await RawSyncClient.open(h.pipit.url, names[0]!, { cookie: bob.cookie }));
    expect((await first.authenticate(names[1]!)).type).toBe('authenticated');
    const second = track(await RawSyncClient.open(h.pipit.url, names[2]!, { cookie: bob.cookie }));
    // The fourth document, on either socket, is one too many.
    expect(await second.authenticate(names[3]!)).toMatchObject({
      type: 'permission-denied',
      reason: 'too_many_documents',
    });
    // Someone else is not affected by Bob's share.
    const carol = await h.signup('carol');
    const [hers] = await registerApps(carol, 1);
    track(await RawSyncClient.open(h.pipit.url, hers!, { cookie: carol.cookie }));

    // Bytes: 200 KB in one document, then 150 KB more in another pass Bob's 300 KB together.
    expect(
      await first.sendAndAnswer(names[0]!, updateMessage(names[0]!, bytesUpdate(200_000))),
    ).toMatchObject({ type: 'sync-status', applied: true });
    expect(
      await second.sendAndAnswer(names[2]!, updateMessage(names[2]!, bytesUpdate(150_000))),
    ).toMatchObject({
      type: 'close-message',
      reason: 'over_capacity',
    });
    // Closing the first socket frees its two documents (and their 200 KB): the fourth fits now.
    first.close();
    await vi.waitFor(async () =>
      expect((await second.authenticate(names[3]!)).type).toBe('authenticated'),
    );
  });

  it('lets only a signed-in person open sync sockets, and only so many at once', async () => {
    h = await startAccountsServer(engine, { resourceLimits: { personSockets: 2 } });
    const dave = await h.signup('dave');
    expect(await upgradeStatus(h.pipit.url, null)).toBe(401);
    expect(await upgradeStatus(h.pipit.url, 'pipit-session=forged.cookie')).toBe(401);
    const [name] = await registerApps(dave, 1);
    track(await RawSyncClient.open(h.pipit.url, name!, { cookie: dave.cookie }));
    track(await RawSyncClient.open(h.pipit.url, name!, { cookie: dave.cookie }));
    expect(await upgradeStatus(h.pipit.url, dave.cookie)).toBe(429);
    raws.pop()?.close();
    await vi.waitFor(async () => expect(await upgradeStatus(h!.pipit.url, dave.cookie)).toBe(101));
  });
});

describe.each(ENGINES)('bounded memory against a second reading (%s)', (engine) => {
  let h: AccountsHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function registerApp(client: ApiClient): Promise<string> {
    const id = createId();
    expect((await client.post('/api/apps', { id, title: 'App' })).status).toBe(201);
    return `app/${id}`;
  }

  it('admits a person’s documents one at a time while they load, so together they keep within limits', async () => {
    h = await startAccountsServer(engine, {
      storeDebounceMs: 20,
      resourceLimits: { personBytes: 1_000_000 },
    });
    const erin = await h.signup('erin');
    const names: string[] = [];
    // Four stored documents of 400 KB each, none loaded now.
    for (let i = 0; i < 4; i++) {
      const name = await registerApp(erin);
      const raw = await RawSyncClient.open(h.pipit.url, name, { cookie: erin.cookie });
      expect(
        await raw.sendAndAnswer(name, updateMessage(name, bytesUpdate(400_000 + i))),
      ).toMatchObject({ type: 'sync-status', applied: true });
      raw.close();
      names.push(name);
    }
    const docs = h.pipit.server.hocuspocus.documents;
    await vi.waitFor(() => expect(names.some((n) => docs.has(n))).toBe(false));
    // Asked for all at once: each waits for the one before to load, and is measured against it.
    const raw = track(await RawSyncClient.open(h.pipit.url, names[0]!, { cookie: erin.cookie }));
    const answers = await Promise.all(names.slice(1).map((name) => raw.authenticate(name)));
    // Which of the three is refused depends on whose authentication the storage answers first
    // (they queue for their turn after it): two are admitted, one is refused, never three in.
    expect(answers.map((a) => a.type).sort()).toEqual([
      'authenticated',
      'authenticated',
      'permission-denied',
    ]);
    expect(answers.find((a) => a.type === 'permission-denied')).toMatchObject({
      reason: 'too_many_documents',
    });
  });

  it('closes a socket that does not read what it asks for, instead of holding it', async () => {
    h = await startAccountsServer(engine, { resourceLimits: { socketUnsentBytes: 1_000_000 } });
    const frank = await h.signup('frank');
    const name = await registerApp(frank);
    const writer = track(await RawSyncClient.open(h.pipit.url, name, { cookie: frank.cookie }));
    expect(
      await writer.sendAndAnswer(name, updateMessage(name, bytesUpdate(400_000))),
    ).toMatchObject({ type: 'sync-status', applied: true });
    // A second socket asks for the whole document over and over and never reads the answers.
    const socket = new WebSocket(`${h.pipit.url.replace(/^http/, 'ws')}${SYNC_PATH}`, {
      headers: { Origin: h.pipit.url, Cookie: frank.cookie! },
    });
    await new Promise(
      (resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)),
    );
    socket.send(authMessage(name));
    await new Promise((resolve) => socket.once('message', resolve));
    (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    for (let i = 0; i < 40; i++) socket.send(syncStep1(name));
    // 40 answers of 400 KB would be 16 MB held for it; past 1 MB unsent, the server lets it go.
    await vi.waitFor(() =>
      expect(
        h!.pipit.logs.some(
          (l) => l.msg === 'closed a sync socket that does not take what is sent to it',
        ),
      ).toBe(true),
    );
    await vi.waitFor(() =>
      expect(h!.pipit.server.hocuspocus.documents.get(name)?.getConnectionsCount()).toBe(1),
    );
    socket.terminate();
  });
});

describe('refusals that cost little (a second reading)', () => {
  let pipit: RunningPipit | undefined;
  afterEach(async () => {
    await pipit?.close();
    pipit = undefined;
  });

  it('refuses one struct of many objects, and a subdocument', async () => {
    pipit = await startPipit({ access: grantEveryone('editor') });
    const name = `app/${createId()}`;
    const many = new Y.Doc();
    many.getArray('a').insert(
      0,
      Array.from({ length: 200_000 }, () => ({})),
    );
    let raw = track(await RawSyncClient.open(pipit.url, name));
    expect(
      await raw.sendAndAnswer(name, updateMessage(name, Y.encodeStateAsUpdate(many))),
    ).toMatchObject({ type: 'close-message', reason: 'document_too_large' });
    const sub = new Y.Doc();
    sub.getMap('m').set('doc', new Y.Doc());
    raw = track(await RawSyncClient.open(pipit.url, name));
    expect(
      await raw.sendAndAnswer(name, updateMessage(name, Y.encodeStateAsUpdate(sub))),
    ).toMatchObject({ type: 'close-message', reason: 'update_rejected' });
  });

  it('keeps little aside for parts that are missing: more is refused', async () => {
    pipit = await startPipit({ access: grantEveryone('editor') });
    const name = `app/${createId()}`;
    /** An update of `length` characters from a client whose first characters are never sent. */
    const continuation = (length: number) => {
      const source = new Y.Doc();
      source.getText('t').insert(0, 'start');
      const vector = Y.encodeStateVector(source);
      for (let i = 0; i < length / 10; i++) source.getText('t').insert(5 + i, 'x'.repeat(10));
      return Y.encodeStateAsUpdate(source, vector);
    };
    let raw = track(await RawSyncClient.open(pipit.url, name));
    expect(await raw.sendAndAnswer(name, updateMessage(name, continuation(1_000)))).toMatchObject({
      type: 'sync-status',
    });
    expect(waitingBytes(pipit.server.hocuspocus.documents.get(name)!)).toBeGreaterThan(0);
    raw = track(await RawSyncClient.open(pipit.url, name));
    expect(await raw.sendAndAnswer(name, updateMessage(name, continuation(100_000)))).toMatchObject(
      { type: 'close-message', reason: 'update_rejected' },
    );
    expect(waitingBytes(pipit.server.hocuspocus.documents.get(name)!)).toBeLessThan(64 * 1024);
  });

  it('refuses an update past the size limit before decoding it, and slows down whoever insists', async () => {
    pipit = await startPipit({ access: grantEveryone('editor') });
    const name = `app/${createId()}`;
    const raw = track(await RawSyncClient.open(pipit.url, name));
    // 6 MB that is no update at all: refused for its size, which is checked first.
    const garbage = new Uint8Array(6 * 1024 * 1024).fill(7);
    expect(await raw.sendAndAnswer(name, updateMessage(name, garbage))).toMatchObject({
      type: 'close-message',
      reason: 'document_too_large',
    });
    // Four more refusals this minute; after them, even a good update waits, undecoded.
    for (let i = 0; i < 4; i++) {
      expect(await raw.authenticate(name)).toMatchObject({ type: 'authenticated' });
      expect(
        await raw.sendAndAnswer(name, updateMessage(name, new Uint8Array([1, 2, 3, 4]))),
      ).toMatchObject({ type: 'close-message', reason: 'update_rejected' });
    }
    expect(await raw.authenticate(name)).toMatchObject({ type: 'authenticated' });
    expect(await raw.sendAndAnswer(name, updateMessage(name, mapEntries(1)))).toMatchObject({
      type: 'close-message',
      reason: 'slow_down',
    });
  });

  it('lets one socket hold a document a few times at most', async () => {
    pipit = await startPipit({ access: grantEveryone('editor') });
    const name = `app/${createId()}`;
    // Hocuspocus takes `name\0session` as a connection of its own to `name`, each with its own
    // presence and broadcasts; the client never uses them.
    const raw = track(await RawSyncClient.open(pipit.url, `${name}\0s1`));
    for (const session of ['s2', 's3']) {
      expect(await raw.authenticate(`${name}\0${session}`)).toMatchObject({
        type: 'authenticated',
      });
    }
    expect(await raw.authenticate(`${name}\0s4`)).toMatchObject({
      type: 'permission-denied',
      reason: 'too_many_documents',
    });
  });

  it('keeps each presence client id to the connection that announced it, and to its account', async () => {
    pipit = await startPipit({ access: grantEveryone('editor') });
    const name = `app/${createId()}`;
    const owner = track(await RawSyncClient.open(pipit.url, name));
    const other = track(await RawSyncClient.open(pipit.url, name));
    owner.send(awarenessMessage(name, [[7, { user: { name: 'Ada' } }]]));
    const states = () => pipit!.server.hocuspocus.documents.get(name)?.awareness.getStates();
    await vi.waitFor(() => expect(states()?.get(7)).toEqual({ user: { name: 'Ada' } }));
    // Another connection takes the id with a higher clock, to freeze Ada's presence: dropped.
    other.send(awarenessMessage(name, [[7, { user: { name: 'Mallory' } }]], 1_000));
    // And a state claiming another account's id: dropped too.
    other.send(awarenessMessage(name, [[8, { user: { name: 'Ada', id: 'ada-account' } }]]));
    other.send(awarenessMessage(name, [[9, { user: { name: 'Mallory' } }]]));
    await vi.waitFor(() => expect(states()?.get(9)).toEqual({ user: { name: 'Mallory' } }));
    expect(states()?.get(7)).toEqual({ user: { name: 'Ada' } });
    expect(states()?.has(8)).toBe(false);
    owner.send(awarenessMessage(name, [[7, { user: { name: 'Ada', here: true } }]], 2));
    await vi.waitFor(() => expect(states()?.get(7)).toEqual({ user: { name: 'Ada', here: true } }));
  });
});

describe('bounded memory for the server', () => {
  let pipit: RunningPipit | undefined;
  afterEach(async () => {
    await pipit?.close();
    pipit = undefined;
  });

  it('loads no new document past its heap budget, and says it is busy', async () => {
    pipit = await startPipit({
      access: grantEveryone('editor'),
      resourceLimits: { heapBudgetBytes: 1 },
    });
    const name = `app/${createId()}`;
    await expect(RawSyncClient.open(pipit.url, name)).rejects.toThrow(/server_busy/);
    expect(pipit.server.hocuspocus.documents.has(name)).toBe(false);
  });

  it('caps the documents one socket holds open', async () => {
    pipit = await startPipit({
      access: grantEveryone('editor'),
      resourceLimits: { socketDocuments: 2 },
    });
    const names = [1, 2, 3].map(() => `app/${createId()}`);
    const raw = track(await RawSyncClient.open(pipit.url, names[0]!));
    expect((await raw.authenticate(names[1]!)).type).toBe('authenticated');
    expect(await raw.authenticate(names[2]!)).toMatchObject({
      type: 'permission-denied',
      reason: 'too_many_documents',
    });
    // A second socket (another person here) still opens it.
    track(await RawSyncClient.open(pipit.url, names[2]!));
  });

  it('stops reading a socket whose messages pile up unhandled, and reads on once they are handled', async () => {
    const limit = 1024 * 1024;
    pipit = await startPipit({
      access: grantEveryone('editor'),
      resourceLimits: {
        socketQueuedBytes: limit,
        // The first update already waits for its own write: all the others pile up behind it.
        logWaitingBytes: 64 * 1024,
        documentBytes: 64 * 1024 * 1024,
      },
    });
    const name = `app/${createId()}`;
    const raw = track(await RawSyncClient.open(pipit.url, name));
    // The durable log stalls: past its budget waiting, every update waits for its own write.
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    const documents = pipit.server.storage.documents;
    const append = documents.append.bind(documents);
    documents.append = async (entries) => {
      await stalled;
      return append(entries);
    };
    const message = updateMessage(name, bytesUpdate(100_000));
    for (let i = 0; i < 60; i++) raw.send(updateMessage(name, bytesUpdate(100_000 + i)));
    const queued = () =>
      pipit!.server.hocuspocus.documents
        .get(name)!
        .getConnections()
        .reduce(
          (sum, c) =>
            sum +
            (c as unknown as { messageQueue: Uint8Array[] }).messageQueue.reduce(
              (n, m) => n + m.byteLength,
              0,
            ),
          0,
        );
    // 6 MB sent; the server holds about its limit and leaves the rest in the network's buffers.
    await vi.waitFor(() => expect(queued()).toBeGreaterThan(limit));
    // A fixed wait on purpose: a server that kept reading would queue more within it.
    await sleep(300);
    expect(queued()).toBeLessThan(limit + 2 * message.byteLength);
    release();
    // Every update is handled in the end: 60 acknowledgements.
    await vi.waitFor(
      () =>
        expect(raw.events.filter((e) => e.type === 'sync-status' && e.applied)).toHaveLength(60),
      { timeout: 20_000 },
    );
  });

  it('keeps a few small presence states per connection, no more', async () => {
    pipit = await startPipit({ access: grantEveryone('editor') });
    const name = `app/${createId()}`;
    const raw = track(await RawSyncClient.open(pipit.url, name));
    const many = Array.from({ length: 10 }, (_, i): [number, unknown] => [1000 + i, { n: i }]);
    raw.send(awarenessMessage(name, many));
    raw.send(awarenessMessage(name, [[5, { name: 'x'.repeat(10_000) }]]));
    raw.send(awarenessMessage(name, [[1000, { n: 'again' }]], 2));
    const awareness = () => pipit!.server.hocuspocus.documents.get(name)?.awareness.getStates();
    await vi.waitFor(() => expect(awareness()?.get(1000)).toEqual({ n: 'again' }));
    expect([...awareness()!.keys()].sort()).toEqual([1000, 1001, 1002, 1003]);
  });
});

describe('counting items', () => {
  it('counts what an update adds: new structs, their values, two for each deleted range', () => {
    const doc = new Y.Doc();
    const map = doc.getMap('x');
    doc.transact(() => {
      for (let i = 0; i < 100; i++) map.set(String(i), i);
    });
    const nothing = () => 0;
    const all = Y.encodeStateAsUpdate(doc);
    expect(growthOf(Y.decodeUpdate(all), nothing)).toEqual({ items: 100, hasSubdocument: false });
    // What the document has already costs nothing (a provider resends what it is unsure of).
    const known = new Y.Doc();
    Y.applyUpdate(known, all);
    expect(growthOf(Y.decodeUpdate(all), (c) => Y.getState(known.store, c)).items).toBe(0);
    const before = Y.encodeStateVector(doc);
    doc.transact(() => {
      map.delete('1');
      map.delete('50');
    });
    // Two deletions far apart are two ranges, and no new struct.
    const deletions = Y.decodeUpdate(Y.encodeStateAsUpdate(doc, before));
    expect(growthOf(deletions, (c) => Y.getState(known.store, c)).items).toBe(4);
    // Values are counted as what they become (each object and array, and each entry of one): one
    // struct holding an array of 1,000 empty objects is 1 + 1 + 1,000 + 1,000 items.
    const objects = new Y.Doc();
    objects.getArray('a').push([Array.from({ length: 1000 }, () => ({}))]);
    expect(growthOf(Y.decodeUpdate(Y.encodeStateAsUpdate(objects)), nothing).items).toBe(2002);
  });

  it('tells an update holding a subdocument', () => {
    const withSubdocument = new Y.Doc();
    withSubdocument.getMap('m').set('sub', new Y.Doc());
    expect(
      growthOf(Y.decodeUpdate(Y.encodeStateAsUpdate(withSubdocument)), () => 0).hasSubdocument,
    ).toBe(true);
  });

  it('counts a loaded document’s structs, those waiting for a missing part too', () => {
    const source = new Y.Doc();
    const text = source.getText('t');
    text.insert(0, 'first');
    const first = Y.encodeStateAsUpdate(source);
    const vector = Y.encodeStateVector(source);
    source.getMap('m').set('k', 1);
    source.getMap('m').set('l', 2);
    const second = Y.encodeStateAsUpdate(source, vector);

    const target = new Y.Doc();
    Y.applyUpdate(target, second);
    // Nothing applies yet (the update continues a client whose start is missing): two pending.
    expect(target.getMap('m').size).toBe(0);
    expect(itemsOf(target)).toBe(2);
    Y.applyUpdate(target, first);
    expect(target.getMap('m').size).toBe(2);
    expect(itemsOf(target)).toBe(3);
  });

  it('keeps slowing down a person whose refusals outlive their socket, until the minute is over', () => {
    let now = 1_000_000;
    const bounds = new ResourceBounds({
      limits: { ...DEFAULT_RESOURCE_LIMITS, heapBudgetBytes: 1024 ** 3 },
      usageOf: () => ({ bytes: 0, items: 0 }),
      isLoaded: () => false,
      heapUsed: () => 0,
      now: () => now,
    });
    expect(bounds.openSocket('s1', 'mallory')).toBe(true);
    for (let i = 0; i < REFUSALS_BEFORE_SLOWDOWN; i++) bounds.noteRefusal('s1');
    expect(bounds.isSlowedDown('s1')).toBe(true);
    // Connecting again costs nothing: it must not wipe the count.
    bounds.closeSocket('s1');
    expect(bounds.openSocket('s2', 'mallory')).toBe(true);
    expect(bounds.isSlowedDown('s2')).toBe(true);
    now += 61_000;
    expect(bounds.isSlowedDown('s2')).toBe(false);
    // Once expired, a person's refusals are forgotten when they leave.
    bounds.closeSocket('s2');
    expect(bounds.openSocket('s3', 'mallory')).toBe(true);
    expect(bounds.isSlowedDown('s3')).toBe(false);
  });

  it('lets go of an unloaded document on each socket that held it, and of nothing else', async () => {
    const bounds = new ResourceBounds({
      limits: { ...DEFAULT_RESOURCE_LIMITS, socketDocuments: 2, heapBudgetBytes: 1024 ** 3 },
      usageOf: () => ({ bytes: 0, items: 0 }),
      isLoaded: () => true,
      heapUsed: () => 0,
    });
    for (const [socket, person] of [
      ['s1', 'u1'],
      ['s2', 'u2'],
      ['s3', 'u3'],
    ] as const) {
      expect(bounds.openSocket(socket, person)).toBe(true);
    }
    await bounds.admit('s1', 'app/a');
    await bounds.admit('s1', 'app/b');
    await bounds.admit('s2', 'app/a');
    await bounds.admit('s2', 'app/c');
    await bounds.admit('s3', 'app/a');
    bounds.closeSocket('s3');
    const full = { reason: 'too_many_documents' };
    await expect(bounds.admit('s1', 'app/d')).rejects.toMatchObject(full);
    await expect(bounds.admit('s2', 'app/d')).rejects.toMatchObject(full);
    bounds.unloaded('app/a');
    // Each of its holders has a place again; what else they hold, they still hold.
    await bounds.admit('s1', 'app/d');
    await bounds.admit('s2', 'app/d');
    await expect(bounds.admit('s1', 'app/e')).rejects.toMatchObject(full);
    await expect(bounds.admit('s2', 'app/e')).rejects.toMatchObject(full);
    // Released, then unloaded: nothing is held twice or let go of twice.
    bounds.release('s1', 'app/b');
    bounds.unloaded('app/b');
    await bounds.admit('s1', 'app/e');
    await expect(bounds.admit('s1', 'app/f')).rejects.toMatchObject(full);
  });

  it('admits a connection to a loaded document past the heap budget, and a new one not', async () => {
    const bounds = new ResourceBounds({
      limits: { ...DEFAULT_RESOURCE_LIMITS, heapBudgetBytes: 100 },
      usageOf: () => ({ bytes: 0, items: 0 }),
      isLoaded: (name) => name === 'app/loaded',
      heapUsed: () => 200,
    });
    expect(bounds.openSocket('s1', 'u1')).toBe(true);
    await expect(bounds.admit('s1', 'app/loaded')).resolves.toBeUndefined();
    await expect(bounds.admit('s1', 'app/new')).rejects.toMatchObject({ reason: 'server_busy' });
  });
});
