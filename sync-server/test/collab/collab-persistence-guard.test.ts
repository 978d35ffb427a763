import type {
  beforeUnloadDocumentPayload,
  Document,
  Hocuspocus,
  onChangePayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { createPersistence } from '../../src/collab/persistence';
import { createLogger } from '../../src/logger';
import { DocumentLedger } from '../../src/collab/document-ledger';
import { sleep } from '../support/timing';

const NAME = 'app/aaaaaaaaaaaaaaaaaaaaaaaaaa';

/** `store` stands for the write of a compaction: it gets the snapshot the fold made. */
function setUp(store: (name: string, state: Uint8Array) => Promise<void>) {
  const persistence = createPersistence({
    store: {
      load: () => Promise.resolve(null),
      loadWithLog: () => Promise.resolve({ snapshot: null, log: [] }),
      append: (entries) => Promise.resolve(entries.map((_, i) => i + 1)),
      store: () => Promise.resolve(),
      compact: async (name, fold) => {
        await store(name, fold({ snapshot: null, log: [] }));
        return [];
      },
      claimClients: () => Promise.resolve(new Map()),
      delete: () => Promise.resolve(),
      deleteData: () => Promise.resolve(),
    },
    ledger: new DocumentLedger(),
    logger: createLogger('silent'),
  });
  const document = Object.assign(new Y.Doc(), {
    getConnectionsCount: () => 0,
  }) as unknown as Document;
  const instance = { storeDocumentHooks: vi.fn() } as unknown as Hocuspocus;
  const change = () =>
    persistence.onChange!({
      documentName: NAME,
      transactionOrigin: { source: 'connection' },
    } as onChangePayload);
  const unload = () =>
    persistence.beforeUnloadDocument!({
      documentName: NAME,
      document,
      instance,
    } as beforeUnloadDocumentPayload);
  const storeNow = () =>
    persistence.onStoreDocument!({ documentName: NAME, document } as onStoreDocumentPayload);
  return { persistence, instance, change, unload, storeNow };
}

describe('the persistence extension’s unload guard', () => {
  it('refuses to unload a document with unstored changes, and asks for a store at once', async () => {
    const { persistence, instance, change, unload } = setUp(() => Promise.resolve());
    await change();
    expect(persistence.unsavedDocuments()).toEqual([NAME]);
    await expect(unload()).rejects.toMatchObject({ reason: 'unsaved_changes' });
    expect(instance.storeDocumentHooks).toHaveBeenCalledWith(
      expect.anything(),
      expect.anything(),
      true,
    );
  });

  it('lets a document go once every change is stored', async () => {
    const { persistence, instance, change, unload, storeNow } = setUp(() => Promise.resolve());
    await change();
    await storeNow();
    expect(persistence.unsavedDocuments()).toEqual([]);
    await expect(unload()).resolves.toBeUndefined();
    expect(instance.storeDocumentHooks).not.toHaveBeenCalled();
  });

  it('ignores updates relayed from another instance (that instance stores them)', async () => {
    const { persistence } = setUp(() => Promise.resolve());
    await persistence.onChange!({
      documentName: NAME,
      transactionOrigin: { source: 'redis' },
    } as onChangePayload);
    expect(persistence.unsavedDocuments()).toEqual([]);
  });

  it('keeps a change that arrived during a store marked unsaved', async () => {
    let finish!: () => void;
    const { persistence, change, storeNow } = setUp(
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    await change();
    const storing = storeNow();
    await change(); // arrives while the first store is in flight
    finish();
    await storing;
    expect(persistence.unsavedDocuments()).toEqual([NAME]);
  });

  it('gives up retrying only when told to, and then reports the document unsaved', async () => {
    const store = vi.fn(() => Promise.reject(new Error('disk full')));
    const { persistence, change, storeNow } = setUp(store);
    await change();
    const storing = storeNow();
    await vi.waitFor(() => expect(store.mock.calls.length).toBeGreaterThanOrEqual(2));
    persistence.abandonRetries();
    await expect(storing).rejects.toThrow('disk full');
    expect(persistence.unsavedDocuments()).toEqual([NAME]);
  });

  it('writes nothing more of a document being deleted, and waits for the store under way', async () => {
    let finish!: () => void;
    const store = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { persistence, change, unload, storeNow } = setUp(store);
    await change();
    const storing = storeNow();
    await change();
    let discarded = false;
    const discarding = persistence.discard([NAME]).then(() => (discarded = true));
    // A fixed wait on purpose: a discard that did not wait would have finished within it.
    await sleep(20);
    // Deleting must wait: the store under way would otherwise land after the delete.
    expect(discarded).toBe(false);
    finish();
    await storing;
    await discarding;
    // Unsaved changes no longer hold the document, and no store (on unload or later) writes it.
    expect(persistence.unsavedDocuments()).toEqual([]);
    await expect(unload()).resolves.toBeUndefined();
    await storeNow();
    expect(store).toHaveBeenCalledTimes(1);
  });
});
