import type {
  afterHandleMessagePayload,
  beforeHandleMessagePayload,
  beforeUnloadDocumentPayload,
  Extension,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { shouldSkipStoreHooks } from '@hocuspocus/server';
import { LIMITS, readDefinition } from '@pipit/app-definition';
import { parseDocumentName } from '@pipit/protocol';
import * as Y from 'yjs';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import { type CollabTimings, NO_COLLAB_TIMINGS } from '../metrics';
import type { AppStore, DocumentStore } from '../storage/types';
import { SyncRefusal, UpdateRefusal } from './refusal';
import { updateInMessage } from './sync-message';
import { UpdateLog } from './update-log';

export const STORE_RETRY_INITIAL_DELAY_MS = 100;
export const STORE_RETRY_MAX_DELAY_MS = 5_000;
/** An update of at most this many bytes changes nothing (an empty sync step 2 is 2 bytes). */
const EMPTY_UPDATE_BYTES = 2;

export interface Persistence extends Extension {
  /** Documents with changes that are not in storage yet. */
  unsavedDocuments(): string[];
  /** Stop retrying failed stores (at the end of a shutdown's grace period). */
  abandonRetries(): void;
  /**
   * The loaded documents `names` are being deleted: nothing of theirs is written any more (no
   * store, no logged update; their updates are refused), and this resolves once the writes already
   * under way are done — after that, deleting them from storage is final.
   */
  discard(names: string[]): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Per loaded document: what is logged, applied and stored. */
interface DocState {
  /** Changes seen, and how many of those are in storage. */
  changes: number;
  stored: number;
  /** Logged updates not applied to the live document yet (their seq). */
  unapplied: Set<number>;
  /** The highest logged seq applied to the live document. */
  appliedThrough: number;
  /** The document's size in bytes: its last encoded state plus the updates logged since. */
  bytes: number;
}

/**
 * Yjs persistence through the storage interface, with a durable update log (NOTES.md: Durability):
 *
 * - Every update a client sends is decoded and checked before it touches the live document (a
 *   malformed one, or one that would take the document past 5 MB, closes only that connection),
 *   then appended to the log — and only then does Hocuspocus apply and acknowledge it. An
 *   acknowledged update survives `kill -9`, so the client's "saved" is true.
 * - The debounced store writes a snapshot and drops the log entries it contains, in one transaction.
 * - Hocuspocus 4.7 unloads a document whose last store failed as soon as its last client leaves;
 *   a store is retried with backoff until it succeeds, and a dirty document refuses to unload.
 * - App documents keep their listing fields (title, description, icon, tags) in the apps table.
 */
export function createPersistence(
  store: DocumentStore,
  logger: Logger,
  apps?: AppStore,
  timings: CollabTimings = NO_COLLAB_TIMINGS,
): Persistence {
  const docs = new Map<string, DocState>();
  const log = new UpdateLog(store, timings);
  /** The logged seq of the update a connection is handling now (one message at a time each). */
  const inFlight = new WeakMap<object, { name: string; seq: number }>();
  let abandoned = false;
  /** Loaded documents being deleted (until they unload), and each document's writes under way. */
  const discarded = new Set<string>();
  const writing = new Map<string, Set<Promise<unknown>>>();
  const tracked = <T>(name: string, work: Promise<T>): Promise<T> => {
    const pending = writing.get(name) ?? new Set<Promise<unknown>>();
    writing.set(name, pending);
    const done = work.finally(() => {
      pending.delete(done);
      if (pending.size === 0 && writing.get(name) === pending) writing.delete(name);
    });
    pending.add(done);
    return done;
  };

  const stateOf = (name: string): DocState => {
    let state = docs.get(name);
    if (!state) {
      state = { changes: 0, stored: 0, unapplied: new Set(), appliedThrough: 0, bytes: 0 };
      docs.set(name, state);
    }
    return state;
  };
  const isDirty = (name: string) => {
    const state = docs.get(name);
    return !discarded.has(name) && !!state && state.changes > state.stored;
  };

  async function updateListing(documentName: string, document: Y.Doc) {
    const parsed = parseDocumentName(documentName);
    if (!apps || parsed?.kind !== 'app') return;
    const { meta } = readDefinition(document);
    await apps.updateListing(parsed.appId, {
      archived: meta.archived,
      title: meta.title,
      description: meta.description,
      icon: meta.icon,
      tags: meta.tags,
      updatedAt: Date.now(),
    });
  }

  /** Stores the document's state, retrying until it is stored (or retries are abandoned). */
  async function storeDocument(documentName: string, document: Y.Doc): Promise<void> {
    const state = stateOf(documentName);
    const upTo = state.changes;
    // Only log entries that are in the live document (and so in this snapshot) may be dropped.
    const compactedThrough =
      state.unapplied.size > 0 ? Math.min(...state.unapplied) - 1 : state.appliedThrough;
    for (let attempt = 1; ; attempt++) {
      // Being deleted: a store now (or a retry) would bring it back.
      if (discarded.has(documentName)) return;
      const timed = timings.documentStore();
      try {
        const encoded = Y.encodeStateAsUpdate(document);
        await store.store(documentName, encoded, compactedThrough);
        timed();
        state.bytes = encoded.byteLength;
        break;
      } catch (error) {
        timed();
        if (abandoned) throw error;
        const delay = Math.min(
          STORE_RETRY_MAX_DELAY_MS,
          STORE_RETRY_INITIAL_DELAY_MS * 2 ** (attempt - 1),
        );
        logger.warn(
          { err: error, documentName, attempt, retryInMs: delay },
          'storing a document failed; retrying',
        );
        await sleep(delay);
      }
    }
    state.stored = Math.max(state.stored, upTo);
    try {
      await updateListing(documentName, document);
    } catch (error) {
      // The listing catches up on the next store; the document itself is safe.
      logger.warn({ err: error, documentName }, 'updating the app listing failed');
    }
  }

  return {
    extensionName: 'pipit-persistence',

    async onLoadDocument({ documentName, document }: onLoadDocumentPayload) {
      let loaded: Awaited<ReturnType<DocumentStore['loadWithLog']>>;
      try {
        loaded = await store.loadWithLog(documentName);
      } catch (error) {
        // The provider is told the storage is unavailable (not "permission denied") and retries.
        logger.error(
          { err: error, documentName, digest: createDigest() },
          'loading a document failed',
        );
        throw new SyncRefusal('storage-unavailable');
      }
      if (loaded.snapshot) Y.applyUpdate(document, loaded.snapshot);
      const state = stateOf(documentName);
      for (const { seq, update } of loaded.log) {
        try {
          Y.applyUpdate(document, update);
        } catch (error) {
          logger.warn(
            { err: error, documentName, seq },
            'skipped a logged update that does not apply',
          );
        }
        state.appliedThrough = seq;
      }
      // Logged updates are folded into the snapshot by the next store (at the latest on unload).
      if (loaded.log.length > 0) state.changes += 1;
      state.bytes = Y.encodeStateAsUpdate(document).byteLength;
    },

    async beforeHandleMessage({
      documentName,
      update: message,
      connection,
    }: beforeHandleMessagePayload) {
      if (discarded.has(documentName)) throw new UpdateRefusal('update_rejected');
      let update: Uint8Array | null;
      try {
        update = updateInMessage(message);
        if (update) Y.decodeUpdate(update);
      } catch (error) {
        logger.warn({ err: error, documentName }, 'refused a malformed update');
        throw new UpdateRefusal('update_rejected');
      }
      // A viewer's update is refused by Hocuspocus itself (read-only connection); not logged.
      if (!update || update.byteLength <= EMPTY_UPDATE_BYTES || connection.readOnly) return;
      const state = stateOf(documentName);
      if (state.bytes + update.byteLength > LIMITS.documentBytes) {
        logger.warn(
          { documentName, bytes: state.bytes, updateBytes: update.byteLength },
          'refused an update that would make the document too large',
        );
        throw new UpdateRefusal('document_too_large');
      }
      let seq: number;
      try {
        seq = await tracked(documentName, log.append(documentName, update));
      } catch (error) {
        logger.error(
          { err: error, documentName, digest: createDigest() },
          'appending an update to the log failed',
        );
        throw new SyncRefusal('storage-unavailable');
      }
      state.bytes += update.byteLength;
      state.unapplied.add(seq);
      inFlight.set(connection, { name: documentName, seq });
    },

    afterHandleMessage({ connection }: afterHandleMessagePayload) {
      const handled = inFlight.get(connection);
      if (!handled) return Promise.resolve();
      inFlight.delete(connection);
      const state = stateOf(handled.name);
      state.unapplied.delete(handled.seq);
      state.appliedThrough = Math.max(state.appliedThrough, handled.seq);
      return Promise.resolve();
    },

    onChange({ documentName, transactionOrigin }: onChangePayload) {
      // Updates relayed from another instance (Redis) are stored by the instance that received them.
      if (shouldSkipStoreHooks(transactionOrigin)) return Promise.resolve();
      stateOf(documentName).changes += 1;
      return Promise.resolve();
    },

    async onStoreDocument({ documentName, document }: onStoreDocumentPayload) {
      if (discarded.has(documentName)) return;
      await tracked(documentName, storeDocument(documentName, document));
    },

    beforeUnloadDocument({ documentName, document, instance }: beforeUnloadDocumentPayload) {
      if (!isDirty(documentName)) return Promise.resolve();
      void instance.storeDocumentHooks(
        document,
        {
          instance,
          clientsCount: document.getConnectionsCount(),
          document,
          documentName,
          lastContext: {},
          lastTransactionOrigin: undefined,
        },
        true,
      );
      return Promise.reject(new SyncRefusal('unsaved-changes'));
    },

    afterUnloadDocument({ documentName }) {
      docs.delete(documentName);
      discarded.delete(documentName);
      return Promise.resolve();
    },

    unsavedDocuments: () => [...docs.keys()].filter(isDirty),

    async discard(names) {
      for (const name of names) discarded.add(name);
      await Promise.allSettled(names.flatMap((name) => [...(writing.get(name) ?? [])]));
    },

    abandonRetries() {
      abandoned = true;
    },
  };
}
