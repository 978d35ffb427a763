import * as encoding from 'lib0/encoding';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { LIMITS } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import { MAX_MESSAGE_BYTES } from '../../src/collab/websocket';
import type { Storage } from '../../src/storage/types';
import {
  applyOutcome,
  decodeRefuses,
  partlyApplyingCorruptions,
  randomBytes,
  validEditOn,
} from '../fixtures/malformed-updates';
import { grantEveryone } from '../support/access';
import { ENGINES, type Engine, openEngine } from '../support/engines';
import { connectProvider, type TestProvider } from '../support/provider';
import { frame, MESSAGE, RawSyncClient, updateMessage } from '../support/raw-sync';
import { type RunningPipit, startPipit } from '../support/start-server';

/** y-protocols sync message types. */
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;
/** What applying a dangerous malformed update does: throws, after changing the document. */
const PARTLY_APPLIED = { threw: true, changed: true };

/** The same state: equal state vectors and delete sets, and the same content. */
function expectSameDocument(actual: Y.Doc, expected: Y.Doc, label: string) {
  const content = (doc: Y.Doc) => ({
    entries: doc.getArray('entries').toJSON(),
    meta: doc.getMap('meta').toJSON(),
    notes: doc.getText('notes').toString(),
  });
  expect(content(actual), label).toEqual(content(expected));
  expect(Y.decodeStateVector(Y.encodeStateVector(actual)), label).toEqual(
    Y.decodeStateVector(Y.encodeStateVector(expected)),
  );
  expect(Y.equalSnapshots(Y.snapshot(actual), Y.snapshot(expected)), label).toBe(true);
}

const docFrom = (...updates: Uint8Array[]) => {
  const doc = new Y.Doc();
  for (const update of updates) Y.applyUpdate(doc, update);
  return doc;
};

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && a.every((byte, i) => byte === b[i]);

describe.each(ENGINES)('the update guard (%s)', (engine: Engine) => {
  let pipit: RunningPipit;
  let storage: Storage;
  let cleanup: () => Promise<void>;
  /** Every update that reached the durable log, before any compaction could drop it. */
  let appended: Uint8Array[];
  const raws: RawSyncClient[] = [];
  let good: TestProvider;
  let goodClosed: number;
  /** Receives exactly the valid edits: the good client's and the raw client's control edit. */
  let reference: Y.Doc;
  let name: string;
  /** Fixed client ids for hand-made edits, so every run builds the same bytes. */
  let nextClientId: number;

  beforeEach(async () => {
    ({ storage, cleanup } = await openEngine(engine));
    appended = [];
    const append = storage.documents.append.bind(storage.documents);
    storage.documents.append = (entries) => {
      appended.push(...entries.map((e) => e.update));
      return append(entries);
    };
    pipit = await startPipit({ access: grantEveryone('editor'), storeDebounceMs: 50, storage });
    name = `app/${createId()}`;
    nextClientId = 7_001;
    reference = new Y.Doc();
    good = connectProvider({ url: pipit.url, name });
    goodClosed = 0;
    good.provider.on('close', () => (goodClosed += 1));
    good.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== good.provider) Y.applyUpdate(reference, update);
    });
    expect(await good.ready).toBe(true);
    // Hocuspocus prints the exception behind every connection it closes; these are expected.
    const consoleError = console.error.bind(console);
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      const [first] = args;
      if (typeof first === 'string' && first.startsWith('closing connection ')) return;
      if (first instanceof Error && first.message === 'Unexpected end of array') return;
      consoleError(...args);
    });
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    raws.splice(0).forEach((raw) => raw.close());
    good.destroy();
    await pipit.close();
    await cleanup();
  });

  /** A valid edit by the good client, acknowledged by the server. */
  async function goodEdit(label: string) {
    good.doc.transact(() => {
      good.doc.getArray<string>('entries').push([label]);
      good.doc.getMap<string>('meta').set('title', label);
      good.doc.getText('notes').insert(good.doc.getText('notes').length, `${label}. `);
    });
    await vi.waitFor(() => expect(good.provider.hasUnsyncedChanges).toBe(false));
  }

  const refusalsLogged = (reason: string) =>
    pipit.logs.filter((l) => l.msg === 'refused a sync message' && l.reason === reason);

  const connectionCount = () =>
    pipit.server.hocuspocus.documents.get(name)?.getConnectionsCount() ?? 0;

  async function rawClient() {
    const raw = await RawSyncClient.open(pipit.url, name);
    raws.push(raw);
    return raw;
  }

  /** Sends `message` on a fresh raw connection; resolves with the server's answer to it. */
  async function attack(message: Uint8Array, carried?: Uint8Array) {
    const connections = connectionCount();
    const raw = await rawClient();
    expect(connectionCount()).toBe(connections + 1);
    raw.send(message);
    const answer = await raw.answer();
    // Acknowledged (so not refused): the caller's expectation fails on it.
    if (answer.type === 'sync-status') return answer;
    // Only that document connection is gone; every other one (the good client's) is still there.
    await vi.waitFor(() => expect(connectionCount()).toBe(connections));
    if (carried) {
      // Checked now: no valid edit has come since, so no store could have compacted it away.
      const { log } = await storage.documents.loadWithLog(name);
      expect(log.some((logged) => sameBytes(logged.update, carried))).toBe(false);
    }
    return answer;
  }

  /** The raw client's framing is sound: the same client gets a valid update acknowledged. */
  async function controlEdit() {
    const raw = await rawClient();
    const update = validEditOn(Y.encodeStateAsUpdate(reference), nextClientId++);
    raw.send(updateMessage(name, update));
    expect(await raw.next((e) => e.type === 'sync-status')).toMatchObject({
      type: 'sync-status',
      applied: true,
    });
    Y.applyUpdate(reference, update);
    return update;
  }

  /** Everything the server holds or stored is exactly the valid edits; the refused never got in. */
  async function expectOnlyValidEdits(refused: Uint8Array[]) {
    // The good client was never disconnected and still syncs.
    await goodEdit('after the attacks');
    expect(goodClosed).toBe(0);
    expect(good.provider.configuration.websocketProvider.status).toBe('connected');
    expect((await fetch(`${pipit.url}/api/health`)).status).toBe(200);

    const live = pipit.server.hocuspocus.documents.get(name);
    expect(live).toBeDefined();
    expectSameDocument(live!, reference, 'the live document');
    await vi.waitFor(() => expectSameDocument(good.doc, reference, 'the good client’s copy'));

    // Nothing refused was ever appended to the log, even for a moment.
    for (const update of refused) {
      expect(appended.some((logged) => sameBytes(logged, update))).toBe(false);
    }
    // After a store (debounce 50 ms), the snapshot alone holds exactly the valid edits.
    await vi.waitFor(async () => {
      const snapshot = await storage.documents.load(name);
      expect(snapshot).not.toBeNull();
      expectSameDocument(docFrom(snapshot!), reference, 'the stored snapshot');
    });
    const { snapshot, log } = await storage.documents.loadWithLog(name);
    expectSameDocument(
      docFrom(snapshot!, ...log.map((l) => l.update)),
      reference,
      'snapshot and log',
    );
  }

  it('refuses malformed updates, also ones Y.applyUpdate would apply in part', async () => {
    await goodEdit('before');
    await controlEdit();
    const base = Y.encodeStateAsUpdate(reference);
    const valid = validEditOn(base, nextClientId++);
    const corrupted = partlyApplyingCorruptions(base, valid, 5);
    expect(corrupted).toHaveLength(5);
    // Each would change the live document if it were applied: the guard has to catch them first.
    for (const update of corrupted) expect(applyOutcome(base, update)).toEqual(PARTLY_APPLIED);
    const truncated = [1, 10, Math.floor(valid.length / 2), valid.length - 1].map((n) =>
      valid.slice(0, n),
    );
    const malformed = [randomBytes(64), randomBytes(3, 99), ...truncated, ...corrupted];
    for (const update of malformed) expect(decodeRefuses(update)).toBe(true);

    for (const update of malformed) {
      expect(await attack(updateMessage(name, update), update)).toMatchObject({
        type: 'close-message',
        reason: 'update_rejected',
      });
    }
    // The same bytes as a sync step 2, and as a sync reply (type 4), reach the document too.
    for (const type of [MESSAGE.sync, 4]) {
      const message = frame(name, (e) => {
        encoding.writeVarUint(e, type);
        encoding.writeVarUint(e, SYNC_STEP_2);
        encoding.writeVarUint8Array(e, corrupted[0]!);
      });
      expect(await attack(message, corrupted[0])).toMatchObject({
        type: 'close-message',
        reason: 'update_rejected',
      });
    }
    await goodEdit('between');
    expect(refusalsLogged('update_rejected')).toHaveLength(malformed.length + 2);
    // A client's fault is one short line: no stack a client could make the server write at will.
    for (const line of refusalsLogged('update_rejected')) {
      expect(line.err).toBeUndefined();
      expect(JSON.stringify(line)).not.toMatch(/\bat .+:\d+:\d+/);
      expect(JSON.stringify(line).length).toBeLessThan(400);
    }
    await expectOnlyValidEdits(malformed);
  });

  it('refuses an update that would take the document past 5 MB', async () => {
    await goodEdit('before');
    const big = new Y.Doc();
    big.clientID = 9_001;
    const bytes = Math.round(LIMITS.documentBytes * 1.05);
    big.getText('notes').insert(0, 'x'.repeat(bytes));
    const oversized = Y.encodeStateAsUpdate(big);
    // Past the document limit, yet under the socket's message cap: the guard has to refuse it.
    expect(oversized.byteLength).toBeGreaterThan(LIMITS.documentBytes);
    expect(updateMessage(name, oversized).byteLength).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(decodeRefuses(oversized)).toBe(false);

    expect(await attack(updateMessage(name, oversized), oversized)).toMatchObject({
      type: 'close-message',
      reason: 'document_too_large',
    });
    await controlEdit();
    expect(refusalsLogged('document_too_large')).toHaveLength(1);
    await expectOnlyValidEdits([oversized]);
  });

  it('refuses messages whose framing is broken', async () => {
    await goodEdit('before');
    await controlEdit();
    const valid = validEditOn(Y.encodeStateAsUpdate(reference), nextClientId++);
    const updateFrame = (body: (e: encoding.Encoder) => void) =>
      frame(name, (e) => {
        encoding.writeVarUint(e, MESSAGE.sync);
        encoding.writeVarUint(e, SYNC_UPDATE);
        body(e);
      });
    const inside = {
      'no sync type': frame(name, (e) => encoding.writeVarUint(e, MESSAGE.sync)),
      'no update': updateFrame(() => {}),
      'an update length past the end': updateFrame((e) => {
        encoding.writeVarUint(e, valid.byteLength + 100);
        encoding.writeUint8Array(e, valid);
      }),
      'a length that is no varint': updateFrame((e) =>
        encoding.writeUint8Array(e, Uint8Array.of(0xff, 0xff)),
      ),
    };
    for (const [label, message] of Object.entries(inside)) {
      expect(await attack(message, valid), label).toMatchObject({
        type: 'close-message',
        reason: 'update_rejected',
      });
    }
    // An unknown sync message type is refused too, not left to Hocuspocus.
    const unknownType = frame(name, (e) => {
      encoding.writeVarUint(e, MESSAGE.sync);
      encoding.writeVarUint(e, 9);
      encoding.writeVarUint8Array(e, valid);
    });
    expect(await attack(unknownType, valid)).toMatchObject({
      type: 'close-message',
      reason: 'update_rejected',
    });

    // A document name that runs past the end, or a name and no message type: no document can be
    // told, so that socket is closed, and only that one.
    for (const message of [new Uint8Array([0x40, 0x61, 0x70, 0x70]), frame(name, () => {})]) {
      const connections = connectionCount();
      const raw = await rawClient();
      raw.send(message);
      expect(await raw.answer()).toMatchObject({
        type: 'socket-closed',
        code: 4400,
        reason: 'update_rejected',
      });
      await vi.waitFor(() => expect(connectionCount()).toBe(connections));
    }
    // The valid update inside the refused frames was never logged either.
    await expectOnlyValidEdits([valid]);
  });
});
