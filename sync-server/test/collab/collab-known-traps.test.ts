import { Document } from '@hocuspocus/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { createId, SYNC_PROVIDER_ADDRESSING } from '@pipit/protocol';
import { RedisFanOut } from '../../src/collab/redis-fan-out';
import type { Storage } from '../../src/storage/types';
import { grantEveryone } from '../support/access';
import { type TestCluster, startTestCluster } from '../support/cluster';
import { openEngine } from '../support/engines';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { type RunningPipit, startPipit } from '../support/start-server';
import { sleep } from '../support/timing';

/*
 * The known traps of Hocuspocus and its Redis extension (ueberdosis/hocuspocus issues), one test
 * each, showing Pipit does not fall into them (docs/scaling.md#known-traps).
 */

function itemsIn(state: { snapshot: Uint8Array | null; log: Array<{ update: Uint8Array }> }) {
  const doc = new Y.Doc();
  if (state.snapshot) Y.applyUpdate(doc, state.snapshot);
  for (const { update } of state.log) Y.applyUpdate(doc, update);
  return doc.getArray<string>('items').toArray();
}

describe('one instance', () => {
  let storage: Storage;
  let cleanup: () => Promise<void>;
  let pipit: RunningPipit | undefined;
  const providers: TestProvider[] = [];
  const connect = (name: string) => {
    const p = connectProvider({ url: pipit!.url, name });
    providers.push(p);
    return p;
  };
  const start = async (options: { debounce?: number; maxDebounce?: number } = {}) => {
    pipit = await startPipit({
      storage,
      access: grantEveryone('editor'),
      storeDebounceMs: options.debounce ?? 50,
      ...(options.maxDebounce !== undefined ? { storeMaxDebounceMs: options.maxDebounce } : {}),
    });
    return pipit;
  };

  // The server owns its storage and closes it: each test opens its own.
  beforeEach(async () => {
    ({ storage, cleanup } = await openEngine('sqlite'));
  });
  afterEach(async () => {
    providers.splice(0).forEach((p) => p.destroy());
    vi.restoreAllMocks();
    await pipit?.close();
    pipit = undefined;
    await cleanup();
  });

  it('#821: a client joining while the document is still loading gets it whole, loaded once', async () => {
    const name = `app/${createId()}`;
    const seed = new Y.Doc();
    seed.getArray<string>('items').push(['stored']);
    await storage.documents.store(name, Y.encodeStateAsUpdate(seed));
    const load = storage.documents.loadWithLog.bind(storage.documents);
    const loads = vi.spyOn(storage.documents, 'loadWithLog').mockImplementation(async (n) => {
      // A slow load on purpose: the second client must arrive while it runs.
      await sleep(400);
      return load(n);
    });
    await start();
    const first = connect(name);
    // The second joins once the first's load is under way.
    await vi.waitFor(() => expect(loads).toHaveBeenCalledTimes(1));
    const second = connect(name);
    expect(await first.ready).toBe(true);
    expect(await second.ready).toBe(true);
    expect(first.doc.getArray('items').toArray()).toEqual(['stored']);
    expect(second.doc.getArray('items').toArray()).toEqual(['stored']);
    expect(loads).toHaveBeenCalledTimes(1);
  });

  it("a document closed and opened again at once on one socket is answered (the browser's addressing)", async () => {
    await start();
    const name = `app/${createId()}`;
    const addressing = SYNC_PROVIDER_ADDRESSING;
    const first = connectProvider({ url: pipit!.url, name, addressing });
    providers.push(first);
    expect(await first.ready).toBe(true);
    // Its last edit is still being handled when it closes, and the next opens on the same socket
    // (as when the editor removes changes the server refused and opens the document again).
    first.doc.getArray<string>('items').push(['last']);
    first.provider.destroy();
    const second = connectProvider({ url: pipit!.url, name, socket: first.socket, addressing });
    providers.push(second);
    const answered = await Promise.race([second.ready, sleep(5_000).then(() => 'no answer')]);
    expect(answered).toBe(true);
    expect(second.provider.isAuthenticated).toBe(true);
  });

  it('#572: a document reopened while its last store runs is never loaded without that store', async () => {
    const name = `app/${createId()}`;
    const compact = storage.documents.compact.bind(storage.documents);
    vi.spyOn(storage.documents, 'compact').mockImplementation(async (...args) => {
      // A slow store on purpose: the document is reopened while it runs.
      await sleep(1_000);
      return compact(...args);
    });
    await start();
    const writer = connect(name);
    expect(await writer.ready).toBe(true);
    writer.doc.getArray<string>('items').push(['edit']);
    await acknowledged(writer.provider);
    writer.destroy();
    // The last client left; the store takes a second. Reopen at once, then half-way through.
    for (const wait of [100, 500]) {
      // Fixed on purpose: these moments of the store's second are what is tried.
      await sleep(wait);
      const again = connect(name);
      expect(await again.ready).toBe(true);
      expect(again.doc.getArray('items').toArray()).toEqual(['edit']);
      again.destroy();
    }
  });

  it('#1110: one slow store never starts a storm of stores', async () => {
    const name = `app/${createId()}`;
    const compact = storage.documents.compact.bind(storage.documents);
    let running = 0;
    let most = 0;
    const compactions = vi.spyOn(storage.documents, 'compact').mockImplementation(async (...a) => {
      running += 1;
      most = Math.max(most, running);
      try {
        // A slow store on purpose (see below).
        await sleep(500);
        return await compact(...a);
      } finally {
        running -= 1;
      }
    });
    // Stores 10× slower than the longest debounce: Hocuspocus queues a store every 50 ms.
    await start({ debounce: 20, maxDebounce: 50 });
    const writer = connect(name);
    expect(await writer.ready).toBe(true);
    const started = Date.now();
    for (let i = 0; Date.now() - started < 3_000; i++) {
      writer.doc.getArray<string>('items').push([`e${i}`]);
      // Paced on purpose: an edit every 20 ms for 3 s is the load.
      await sleep(20);
    }
    await acknowledged(writer.provider);
    const edits = writer.doc.getArray('items').length;
    // Every edit gets folded into the snapshot within a store or two of the last one…
    const stopped = Date.now();
    await vi.waitFor(
      async () => {
        const stored = await storage.documents.loadWithLog(name);
        expect(stored.log).toEqual([]);
        expect(itemsIn(stored)).toHaveLength(edits);
      },
      { timeout: 3_000 },
    );
    expect(Date.now() - stopped).toBeLessThan(2_000);
    // …one at a time, and no more stores than the time allowed (3 s of 0.5 s stores), not one
    // per queued debounce (~60).
    expect(most).toBe(1);
    // A trailing store may still come (a change counted while the last one ran); then none.
    // Fixed waits on purpose: no event announces a store that may or may not come.
    await sleep(1_000);
    const calls = compactions.mock.calls.length;
    expect(calls).toBeLessThanOrEqual(10);
    await sleep(1_000);
    expect(compactions.mock.calls.length).toBe(calls);
  });

  it('#954: a document whose store fails stays only until storage takes it, then leaves', async () => {
    const name = `app/${createId()}`;
    const compact = storage.documents.compact.bind(storage.documents);
    let failing = true;
    vi.spyOn(storage.documents, 'compact').mockImplementation((...args) =>
      failing ? Promise.reject(new Error('storage is down')) : compact(...args),
    );
    await start();
    const writer = connect(name);
    expect(await writer.ready).toBe(true);
    writer.doc.getArray<string>('items').push(['kept']);
    await acknowledged(writer.provider);
    writer.destroy();
    // A fixed wait on purpose: that the document is not let go meanwhile is the check.
    await sleep(500);
    // Kept in memory (its changes are only in the log) while stores fail…
    expect(pipit!.server.hocuspocus.documents.has(name)).toBe(true);
    failing = false;
    // …and gone from memory once stored, without any client coming back.
    await vi.waitFor(() => expect(pipit!.server.hocuspocus.documents.has(name)).toBe(false), {
      timeout: 10_000,
    });
    const stored = await storage.documents.loadWithLog(name);
    expect(stored.log).toEqual([]);
    expect(itemsIn(stored)).toEqual(['kept']);
  });

  it('#1156: a load that fails leaves no document behind, and the next one succeeds', async () => {
    const name = `app/${createId()}`;
    const load = storage.documents.loadWithLog.bind(storage.documents);
    let failures = 3;
    vi.spyOn(storage.documents, 'loadWithLog').mockImplementation((n) =>
      failures-- > 0 ? Promise.reject(new Error('storage is down')) : load(n),
    );
    const destroyed: string[] = [];
    const destroy = Document.prototype.destroy;
    vi.spyOn(Document.prototype, 'destroy').mockImplementation(function (this: Document) {
      destroyed.push(this.name);
      destroy.call(this);
    });
    await start();
    for (let i = 0; i < 3; i++) {
      const refused = connect(name);
      const reason = new Promise<string>((resolve) =>
        refused.provider.on('authenticationFailed', ({ reason }: { reason: string }) =>
          resolve(reason),
        ),
      );
      // The load fails after the grant: the connection is closed with the reason.
      await Promise.race([
        reason,
        new Promise((resolve) =>
          refused.provider.on('close', ({ event }: { event: { reason: string } }) =>
            resolve(event.reason),
          ),
        ),
      ]);
      refused.destroy();
    }
    // Each failed load's document (and its presence timer) was destroyed.
    await vi.waitFor(() => expect(destroyed.filter((n) => n === name)).toHaveLength(3));
    expect(pipit!.server.hocuspocus.documents.has(name)).toBe(false);
    const good = connect(name);
    expect(await good.ready).toBe(true);
  });
});

describe('several instances through Redis', () => {
  let cluster: TestCluster;
  const providers: TestProvider[] = [];
  const connect = (at: number, name: string) => {
    const p = connectProvider({ url: cluster.instances[at]!.pipit.url, name });
    providers.push(p);
    return p;
  };
  const fanOut = (at: number) =>
    cluster.instances[at]!.pipit.server.hocuspocus.configuration.extensions.find(
      (e): e is RedisFanOut => e instanceof RedisFanOut,
    )!;
  const storageOf = (at: number) => cluster.instances[at]!.pipit.server.storage;

  beforeAll(async () => {
    cluster = await startTestCluster(2, { access: grantEveryone('editor'), storeDebounceMs: 50 });
  });
  afterEach(() => {
    providers.splice(0).forEach((p) => p.destroy());
    for (const { redisLink } of cluster.instances) redisLink.restore();
  });
  afterAll(() => cluster.close());

  it('#983, #1032: stores never wait for a Redis lock, even one another instance holds', async () => {
    const name = `app/${createId()}`;
    // The lock key the extension would take: held "by another instance" for a minute.
    const lock = fanOut(0).pub;
    await lock.set(`${fanOut(0).configuration.prefix}:${name}:lock`, 'elsewhere', 'PX', 60_000);
    const writer = connect(0, name);
    expect(await writer.ready).toBe(true);
    writer.doc.getArray<string>('items').push(['stored anyway']);
    await acknowledged(writer.provider);
    writer.destroy();
    await vi.waitFor(async () => {
      // Stored means folded into the snapshot, which only a store (a compaction) writes. The
      // logged update itself may outlive it: a store that commits between the edit reaching the
      // document and its group-committed append folds the edit but not its log row, which the
      // next load folds (replaying it twice changes nothing in Yjs).
      const { snapshot } = await storageOf(0).documents.loadWithLog(name);
      expect(itemsIn({ snapshot, log: [] })).toEqual(['stored anyway']);
    });
    // Nothing kept it in memory either.
    await vi.waitFor(() =>
      expect(cluster.instances[0]!.pipit.server.hocuspocus.documents.has(name)).toBe(false),
    );
  });

  it('#1024: Redis commands stay proportional to edits (no locks, no spikes)', async () => {
    const name = `app/${createId()}`;
    const counted: Record<string, number> = {};
    for (const at of [0, 1]) {
      for (const client of [fanOut(at).pub, fanOut(at).sub]) {
        const send = client.sendCommand.bind(client);
        vi.spyOn(client, 'sendCommand').mockImplementation(
          (command: Parameters<typeof send>[0], ...rest: unknown[]) => {
            counted[command.name] = (counted[command.name] ?? 0) + 1;
            return (send as (...args: unknown[]) => ReturnType<typeof send>)(command, ...rest);
          },
        );
      }
    }
    const writers = [connect(0, name), connect(1, name), connect(0, name), connect(1, name)];
    for (const w of writers) expect(await w.ready).toBe(true);
    for (const key of Object.keys(counted)) delete counted[key];
    const edits = 200;
    for (let i = 0; i < edits; i++) {
      writers[i % writers.length]!.doc.getArray<string>('items').push([`e${i}`]);
      // Paced on purpose: edits spread over a second, as people type.
      await sleep(5);
    }
    for (const w of writers) await acknowledged(w.provider);
    await vi.waitFor(() =>
      writers.forEach((w) => expect(w.doc.getArray('items').length).toBe(edits)),
    );
    vi.restoreAllMocks();
    // A change costs a few publishes between two instances (its announcement, the answer and the
    // question back, the reply): bounded per edit, and no lock commands at all.
    const total = Object.values(counted).reduce((a, b) => a + b, 0);
    expect(total / edits).toBeLessThanOrEqual(6);
    expect(Object.keys(counted).filter((c) => c !== 'publish' && c !== 'subscribe')).toEqual([]);
  });

  it('#588: writes are stored while Redis is slow or unreachable', async () => {
    const name = `app/${createId()}`;
    const writer = connect(1, name);
    expect(await writer.ready).toBe(true);
    const reader = connect(0, name);
    expect(await reader.ready).toBe(true);
    cluster.instances[1]!.redisLink.delay(3_000);
    for (let i = 0; i < 20; i++) writer.doc.getArray<string>('items').push([`slow${i}`]);
    await acknowledged(writer.provider);
    // Stored at once, though Redis takes seconds to pass anything on.
    await vi.waitFor(async () =>
      expect(itemsIn(await storageOf(1).documents.loadWithLog(name))).toHaveLength(20),
    );
    cluster.instances[1]!.redisLink.cut();
    for (let i = 0; i < 20; i++) writer.doc.getArray<string>('items').push([`cut${i}`]);
    await acknowledged(writer.provider);
    await vi.waitFor(async () =>
      expect(itemsIn(await storageOf(1).documents.loadWithLog(name))).toHaveLength(40),
    );
    cluster.instances[1]!.redisLink.restore();
    await vi.waitFor(() => expect(reader.doc.getArray('items').length).toBe(40), {
      timeout: 15_000,
    });
  });
});
