import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { createId } from '@pipit/protocol';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { grantEveryone } from '../support/access';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { type RunningPipit, startPipit } from '../support/start-server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function titleIn(state: Uint8Array | null): unknown {
  if (!state) return undefined;
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc.getMap('meta').get('title');
}

/** Storage whose document stores fail while `failing` is true, counting attempts. */
function flaky(storage: Storage) {
  const control = { failing: false, attempts: 0 };
  const compact = storage.documents.compact.bind(storage.documents);
  storage.documents.compact = (...args) => {
    control.attempts++;
    return control.failing ? Promise.reject(new Error('disk unavailable')) : compact(...args);
  };
  return control;
}

const engines = {
  sqlite: async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-persist-'));
    return {
      open: () => openSqliteStorage(dir),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  postgres: async () => {
    const db: TestDatabase = await createTestDatabase();
    return { open: () => openPostgresStorage(db.url), cleanup: () => db.drop() };
  },
};

describe.each(Object.entries(engines))('document persistence on %s', (_engine, makeEngine) => {
  let engine: Awaited<ReturnType<typeof makeEngine>>;
  let pipit: RunningPipit | undefined;
  const providers: TestProvider[] = [];

  beforeAll(async () => {
    engine = await makeEngine();
  });
  afterEach(async () => {
    providers.splice(0).forEach((p) => p.destroy());
    await pipit?.close();
    pipit = undefined;
  });
  afterAll(() => engine.cleanup());

  async function start(storage: Storage, storeDebounceMs = 50) {
    pipit = await startPipit({ storage, access: grantEveryone('editor'), storeDebounceMs });
    return pipit;
  }
  function connect(name: string) {
    const p = connectProvider({ url: pipit!.url, name });
    providers.push(p);
    return p;
  }

  it('stores edits through the storage layer, and a restarted server serves them', async () => {
    const name = `app/${createId()}`;
    await start(await engine.open());
    const first = connect(name);
    expect(await first.ready).toBe(true);
    first.doc.getMap('meta').set('title', 'Reading list');
    await acknowledged(first.provider);
    await vi.waitFor(async () => {
      expect(titleIn(await pipit!.server.storage.documents.load(name))).toBe('Reading list');
    });
    first.destroy();
    await pipit!.close();

    await start(await engine.open());
    const second = connect(name);
    expect(await second.ready).toBe(true);
    expect(second.doc.getMap('meta').get('title')).toBe('Reading list');
  });

  it('retries a failed store until it succeeds, keeping the document loaded meanwhile', async () => {
    const name = `app/${createId()}`;
    const storage = await engine.open();
    const control = flaky(storage);
    await start(storage);
    const client = connect(name);
    expect(await client.ready).toBe(true);

    control.failing = true;
    client.doc.getMap('meta').set('title', 'Guest list');
    await acknowledged(client.provider);
    client.destroy(); // the last client leaves while the store keeps failing
    await vi.waitFor(() => expect(control.attempts).toBeGreaterThanOrEqual(3));
    expect(pipit!.server.hocuspocus.documents.has(name)).toBe(true);
    expect(await storage.documents.load(name)).toBeNull();

    control.failing = false;
    await vi.waitFor(
      async () => expect(titleIn(await storage.documents.load(name))).toBe('Guest list'),
      {
        timeout: 10_000,
      },
    );
    await vi.waitFor(() => expect(pipit!.server.hocuspocus.documents.has(name)).toBe(false));
    expect(pipit!.logs.some((l) => l.msg === 'storing a document failed; retrying')).toBe(true);
  });

  it('ends a store that finds its document deleted meanwhile, and lets the document go', async () => {
    const name = `app/${createId()}`;
    const storage = await engine.open();
    // What compact answers once the app is deleted on another instance: nothing to store.
    let refused = 0;
    storage.documents.compact = () => {
      refused++;
      return Promise.resolve(null);
    };
    await start(storage);
    const client = connect(name);
    expect(await client.ready).toBe(true);
    client.doc.getMap('meta').set('title', 'Gone');
    await acknowledged(client.provider);
    await vi.waitFor(() => expect(refused).toBe(1));
    // The store ended (it used to wait for itself): the last client leaving unloads the document,
    // and nothing of it is stored again.
    client.destroy();
    await vi.waitFor(() => expect(pipit!.server.hocuspocus.documents.has(name)).toBe(false), {
      timeout: 5_000,
    });
    expect(refused).toBe(1);
  });

  it('flushes pending stores on shutdown, long before the debounce would', async () => {
    const name = `app/${createId()}`;
    await start(await engine.open(), 60_000);
    const client = connect(name);
    expect(await client.ready).toBe(true);
    client.doc.getMap('meta').set('title', 'Budget');
    await acknowledged(client.provider);

    const closing = pipit!.close();
    pipit = undefined;
    await closing;
    const reopened = await engine.open();
    try {
      expect(titleIn(await reopened.documents.load(name))).toBe('Budget');
    } finally {
      await reopened.close();
    }
  });
});
