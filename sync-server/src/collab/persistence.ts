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
import { readDefinition } from '@pipit/app-definition';
import { parseDocumentName } from '@pipit/protocol';
import * as Y from 'yjs';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import { type CollabTimings, NO_COLLAB_TIMINGS } from '../metrics';
import type { AppStore, DocumentStore } from '../storage/types';
import type { ConnectionContext } from './authenticate';
import { SyncRefusal, UpdateRefusal } from './refusal';
import type { DocumentUsage, ResourceBounds } from './resource-bounds';
import { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from './resource-limits';
import { checkMessage } from './update-check';
import { UpdateLog } from './update-log';
import { itemsOf } from './yjs-usage';

export const STORE_RETRY_INITIAL_DELAY_MS = 100;
export const STORE_RETRY_MAX_DELAY_MS = 5_000;

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
  /** What a loaded document holds (bytes and Yjs structs); undefined when it is not loaded. */
  usageOf(documentName: string): DocumentUsage | undefined;
}

export interface PersistenceOptions {
  store: DocumentStore;
  logger: Logger;
  /** App documents keep their listing fields in the apps table. */
  apps?: AppStore;
  timings?: CollabTimings;
  /** A document's bytes and items (resource-limits.ts). */
  limits?: Pick<ResourceLimits, 'documentBytes' | 'documentItems'>;
  /** Each person's share of memory: an update may not take their open documents past it. */
  bounds?: ResourceBounds;
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
  /**
   * The document's size in bytes and Yjs structs: as last measured (on load and store), plus the
   * updates let through since. An update counts from the moment it is let through, before it is
   * logged and applied, so updates arriving together cannot pass the limits together.
   */
  bytes: number;
  items: number;
  /** Updates let through but not applied yet: not in a measurement taken now. */
  inFlight: DocumentUsage;
}

/**
 * Yjs persistence through the storage interface, with a durable update log
 * (docs/decisions/0001-durable-log-before-ack.md):
 *
 * - Every update a client sends is decoded and checked before it touches the live document (a
 *   malformed one, or one that would take the document past its bytes or items, or its sender's
 *   open documents past theirs, closes only that connection), then appended to the log — and only
 *   then does Hocuspocus apply and acknowledge it. An acknowledged update survives `kill -9`, so
 *   the client's "saved" is true.
 * - The debounced store writes a snapshot and drops the log entries it contains, in one
 *   transaction.
 * - Hocuspocus 4.7 unloads a document whose last store failed as soon as its last client leaves;
 *   a store is retried with backoff until it succeeds, and a dirty document refuses to unload.
 * - App documents keep their listing fields (title, description, icon, tags) in the apps table.
 */
export function createPersistence(options: PersistenceOptions): Persistence {
  const { store, logger, apps, bounds, timings = NO_COLLAB_TIMINGS } = options;
  const limits = options.limits ?? DEFAULT_RESOURCE_LIMITS;
  const docs = new Map<string, DocState>();
  const log = new UpdateLog(store, timings);
  /** The update a connection is handling now (one message at a time each): its seq and size. */
  const inFlight = new WeakMap<object, { name: string; seq: number; growth: DocumentUsage }>();
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
      state = {
        changes: 0,
        stored: 0,
        unapplied: new Set(),
        appliedThrough: 0,
        bytes: 0,
        items: 0,
        inFlight: { bytes: 0, items: 0 },
      };
      docs.set(name, state);
    }
    return state;
  };
  /** Takes the document's size as it is now (the updates in flight are not in it yet). */
  const measure = (state: DocState, document: Y.Doc, bytes: number) => {
    state.bytes = bytes + state.inFlight.bytes;
    state.items = itemsOf(document) + state.inFlight.items;
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
        measure(state, document, encoded.byteLength);
        await store.store(documentName, encoded, compactedThrough);
        timed();
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
        // Every connection waiting for this load fails with it.
        bounds?.unloaded(documentName);
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
      measure(state, document, Y.encodeStateAsUpdate(document).byteLength);
      // Measured: the person's next document may be admitted against it.
      bounds?.loaded(documentName);
    },

    async beforeHandleMessage({
      documentName,
      document,
      update: message,
      connection,
      context,
    }: beforeHandleMessagePayload<Partial<ConnectionContext> | undefined>) {
      if (discarded.has(documentName)) throw new UpdateRefusal('update_rejected');
      const state = stateOf(documentName);
      const checked = checkMessage({
        documentName,
        message,
        document,
        usage: state,
        readOnly: connection.readOnly,
        limits,
        bounds,
        socketKey: context?.socketKey,
        logger,
      });
      if (!checked) return;
      const { update, growth } = checked;
      // Counted from now: updates arriving meanwhile are checked against this one too.
      const grow = (sign: 1 | -1) => {
        state.bytes += sign * growth.bytes;
        state.items += sign * growth.items;
        state.inFlight.bytes += sign * growth.bytes;
        state.inFlight.items += sign * growth.items;
      };
      grow(1);
      let seq: number;
      try {
        seq = await tracked(documentName, log.append(documentName, update));
      } catch (error) {
        grow(-1);
        logger.error(
          { err: error, documentName, digest: createDigest() },
          'appending an update to the log failed',
        );
        throw new SyncRefusal('storage-unavailable');
      }
      state.unapplied.add(seq);
      inFlight.set(connection, { name: documentName, seq, growth });
    },

    afterHandleMessage({ connection }: afterHandleMessagePayload) {
      const handled = inFlight.get(connection);
      if (!handled) return Promise.resolve();
      inFlight.delete(connection);
      const state = stateOf(handled.name);
      state.unapplied.delete(handled.seq);
      state.appliedThrough = Math.max(state.appliedThrough, handled.seq);
      state.inFlight.bytes -= handled.growth.bytes;
      state.inFlight.items -= handled.growth.items;
      return Promise.resolve();
    },

    onChange({ documentName, transactionOrigin }: onChangePayload) {
      // Updates relayed from another instance (Redis) are stored by the instance that received
      // them.
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

    usageOf(documentName) {
      const state = docs.get(documentName);
      return state && { bytes: state.bytes, items: state.items };
    },

    async discard(names) {
      for (const name of names) discarded.add(name);
      await Promise.allSettled(names.flatMap((name) => [...(writing.get(name) ?? [])]));
    },

    abandonRetries() {
      abandoned = true;
    },
  };
}
