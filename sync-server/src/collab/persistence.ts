import { createHash } from 'node:crypto';
import type {
  beforeUnloadDocumentPayload,
  Extension,
  LocalTransactionOrigin,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { shouldSkipStoreHooks } from '@hocuspocus/server';
import { readDefinition } from '@pipit/app-definition';
import { parseDocumentName, type RecordsDocument } from '@pipit/protocol';
import * as Y from 'yjs';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import { type CollabTimings, NO_COLLAB_TIMINGS } from '../metrics';
import type { AppStore, DocumentOwner, DocumentStore } from '../storage/types';
import type { DocumentLedger } from './document-ledger';
import { SyncRefusal } from './refusal';
import type { ResourceBounds } from './resource-bounds';
import { replayInto } from '../storage/replay';
import { sleep } from '../sleep';

export const STORE_RETRY_INITIAL_DELAY_MS = 100;
/**
 * Stores run at most this many at once. Documents edited together reach their longest debounce
 * together (every 30 s while edits never pause): hundreds of stores at once would hold every
 * database connection, and requests, loads and sign-ins would wait behind them.
 */
export const STORE_CONCURRENCY = 4;
/** An app's "updated" time moves on at most this often while only its content changes. */
export const LISTING_REFRESH_MS = 60_000;
export const STORE_RETRY_MAX_DELAY_MS = 5_000;

/**
 * The origin of what a store folds into a live document from storage (what other instances
 * logged or stored that this one had not received): it is in storage already, so it starts no store
 * of its own; Hocuspocus still sends it to this instance's clients, and the fan-out to the others.
 */
export const STORAGE_ORIGIN: LocalTransactionOrigin = {
  source: 'local',
  skipStoreHooks: true,
  context: { fromStorage: true },
};

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

export interface PersistenceOptions {
  store: DocumentStore;
  ledger: DocumentLedger;
  logger: Logger;
  /** App documents keep their listing fields in the apps table. */
  apps?: AppStore;
  timings?: CollabTimings;
  /** Each person's share of memory: told when a document is loaded (measured) or failed to load. */
  bounds?: ResourceBounds;
  /**
   * A document being edited waits a random part of this before it is stored (create-collab.ts:
   * the store debounce): documents opened together reach their longest debounce together, and
   * their stores (CPU and database work) are spread out instead of landing in the same second.
   * Every edit is in the log meanwhile.
   */
  spreadMs?: number;
  /**
   * After an app document is stored: whose edits it holds since the last call that returned true
   * (the people who sent them), and whether its last person has left. The app's history
   * (history/checkpoints.ts) decides whether that makes a checkpoint; true clears the authors.
   */
  afterAppStored?: (
    appId: string,
    document: Y.Doc,
    authorIds: readonly string[],
    final: boolean,
  ) => Promise<boolean>;
  /**
   * After a document of records is stored — a person's data of an app, or a space's — (reminders
   * counted from records queue what they now give). A failure is logged, never the store's: the
   * document is safe.
   */
  afterRecordsStored?: (name: RecordsDocument, document: Y.Doc) => Promise<void>;
}

/** A loaded document's connections on this instance (Hocuspocus's Document is a Y.Doc). */
const connectionsOf = (document: Y.Doc): number =>
  'getConnectionsCount' in document && typeof document.getConnectionsCount === 'function'
    ? (document.getConnectionsCount as () => number)()
    : 0;

/** At most `limit` of the given works run at once; the others wait their turn, in order. */
function turns(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}

const fingerprint = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('base64');

/**
 * The app and person a document belongs to, or its shared space: it is never stored once either was
 * deleted.
 */
function ownerOf(documentName: string): DocumentOwner | undefined {
  const parsed = parseDocumentName(documentName);
  if (!parsed) return undefined;
  switch (parsed.kind) {
    case 'user':
      return { userId: parsed.userId };
    case 'app':
      return { appId: parsed.appId };
    case 'draft':
      return { appId: parsed.appId, draftId: parsed.draftId };
    case 'data':
      return { appId: parsed.appId, userId: parsed.userId };
    case 'space':
      return { spaceId: parsed.spaceId };
  }
}

/** What one instance keeps about the documents it holds, between loads and stores. */
interface PersistenceState {
  /** Failed stores are no longer retried (the end of a shutdown's grace period). */
  abandoned: boolean;
  inTurn: ReturnType<typeof turns>;
  /** What this instance last wrote as each document's snapshot: it need not be read back. */
  lastWritten: Map<string, string>;
  /**
   * The listing this instance last wrote for each app document, and when: unchanged, it is written
   * again only to move the app's "updated" time on, at most once a minute.
   */
  lastListing: Map<string, { listing: string; at: number }>;
  /** Who sent the edits of each app document since its last checkpoint. */
  authors: Map<string, Set<string>>;
}

/**
 * Loading and storing documents (docs/decisions/0001-durable-log-before-ack.md). Every update a
 * client sends is in the durable log before it is acknowledged (update-log.ts); this step only
 * loads, stores, retries and unloads:
 *
 * - A load applies the stored snapshot and the logged updates (`replayInto`).
 * - The debounced store folds into one snapshot what storage holds — the snapshot and every
 *   logged update, this instance's and other instances' alike — together with the live document,
 *   in one transaction (`DocumentStore.compact`). What other instances stored and this one never
 *   received (a fan-out message lost) is applied to the live document too, so its clients get it.
 *   Two instances holding one document never overwrite each other's edits, however their stores
 *   interleave.
 * - Hocuspocus 4.7 unloads a document whose last store failed as soon as its last client leaves;
 *   a store is retried with backoff until it succeeds, and a dirty document refuses to unload.
 * - A document whose app or person was deleted is never stored again.
 * - App documents keep their listing fields (title, description, icon, tags) in the apps table.
 */
export function createPersistence(options: PersistenceOptions): Persistence {
  const { ledger } = options;
  const state: PersistenceState = {
    abandoned: false,
    inTurn: turns(STORE_CONCURRENCY),
    lastWritten: new Map(),
    lastListing: new Map(),
    authors: new Map(),
  };

  return {
    extensionName: 'pipit-persistence',

    onLoadDocument: (payload: onLoadDocumentPayload) => loadDocument(options, state, payload),

    onChange({ documentName, transactionOrigin, context }: onChangePayload) {
      // Updates relayed from another instance are in the log already (that instance logged them),
      // and so is what a store folded in from storage.
      if (!shouldSkipStoreHooks(transactionOrigin)) {
        ledger.changed(documentName);
        const userId = (context as { userId?: unknown } | undefined)?.userId;
        if (typeof userId === 'string' && options.afterAppStored) {
          const ids = state.authors.get(documentName) ?? new Set<string>();
          ids.add(userId);
          state.authors.set(documentName, ids);
        }
      }
      return Promise.resolve();
    },

    async onStoreDocument({ documentName, document }: onStoreDocumentPayload) {
      // Hocuspocus runs a document's stores one after the other, and queues one more each time
      // its debounce runs out while a slow store goes on (hocuspocus #1110): those that find
      // nothing new since the last store cost nothing, so a slow store never builds a storm.
      if (!ledger.isDirty(documentName)) return;
      // Not when it is about to unload, or the server to stop: those stores are waited for.
      if (document.getConnectionsCount() > 0 && !state.abandoned) {
        await sleep(Math.random() * (options.spreadMs ?? 0));
      }
      await ledger.tracked(documentName, storeDocument(options, state, documentName, document));
    },

    beforeUnloadDocument({ documentName, document, instance }: beforeUnloadDocumentPayload) {
      if (!ledger.isDirty(documentName)) return Promise.resolve();
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
      return Promise.reject(new SyncRefusal('unsaved_changes'));
    },

    afterUnloadDocument({ documentName }) {
      ledger.forget(documentName);
      state.lastWritten.delete(documentName);
      state.lastListing.delete(documentName);
      state.authors.delete(documentName);
      return Promise.resolve();
    },

    unsavedDocuments: () => ledger.dirtyDocuments(),

    discard: (names) => ledger.discard(names),

    abandonRetries() {
      state.abandoned = true;
    },
  };
}

/**
 * Loads a document: the stored snapshot and the logged updates (`replayInto`). A load that fails
 * destroys the half-made document and refuses its connections with `storage_unavailable`.
 */
async function loadDocument(
  { store, ledger, logger, bounds }: PersistenceOptions,
  { lastWritten }: PersistenceState,
  { documentName, document }: onLoadDocumentPayload,
): Promise<void> {
  let stored: Awaited<ReturnType<DocumentStore['loadWithLog']>>;
  try {
    stored = await store.loadWithLog(documentName);
  } catch (error) {
    // The provider is told the storage is unavailable (not "permission denied") and retries.
    logger.error({ err: error, documentName, digest: createDigest() }, 'loading a document failed');
    // Every connection waiting for this load fails with it.
    bounds?.unloaded(documentName);
    // Hocuspocus 4.7 does not destroy a document whose load failed (hocuspocus #1156): its
    // presence timer would keep it in memory for good, one per failed attempt.
    document.destroy();
    throw new SyncRefusal('storage_unavailable');
  }
  replayInto(document, stored, {
    onSkipped: (seq, error) =>
      logger.warn({ err: error, documentName, seq }, 'skipped a logged update that does not apply'),
  });
  // Logged updates are folded into the snapshot by the next store (at the latest on unload).
  if (stored.log.length > 0) ledger.changed(documentName);
  ledger.hold(
    documentName,
    stored.log.map(({ seq }) => seq),
  );
  if (stored.snapshot) lastWritten.set(documentName, fingerprint(stored.snapshot));
  ledger.measure(documentName, document, Y.encodeStateAsUpdate(document).byteLength);
  // Measured: the person's next document may be admitted against it.
  bounds?.loaded(documentName);
}

/** Folds storage and the live document into one snapshot, retrying until it is stored. */
async function storeDocument(
  options: PersistenceOptions,
  state: PersistenceState,
  documentName: string,
  document: Y.Doc,
): Promise<void> {
  const { store, ledger, logger, timings = NO_COLLAB_TIMINGS } = options;
  const { inTurn, lastWritten } = state;
  const entry = ledger.of(documentName);
  const upTo = entry.changes;
  const owner = ownerOf(documentName);
  for (let attempt = 1; ; attempt++) {
    // Being deleted: a store now (or a retry) would bring it back.
    if (ledger.isDiscarded(documentName)) return;
    const timed = timings.documentStore();
    try {
      const kept = await inTurn(() =>
        store.compact(
          documentName,
          (stored) => {
            const known =
              stored.snapshot !== null &&
              lastWritten.get(documentName) === fingerprint(stored.snapshot);
            replayInto(document, stored, {
              origin: STORAGE_ORIGIN,
              skipSnapshot: known,
              onSkipped: (seq, error) =>
                logger.warn(
                  { err: error, documentName, seq },
                  'skipped a logged update that does not apply',
                ),
            });
            const encoded = Y.encodeStateAsUpdate(document);
            ledger.measure(documentName, document, encoded.byteLength);
            lastWritten.set(documentName, fingerprint(encoded));
            return encoded;
          },
          {
            ...(owner ? { owner } : {}),
            // What this instance logged and applied, or loaded, is in the live document.
            held: (seq) => ledger.isHeld(documentName, seq),
          },
        ),
      );
      timed();
      if (!kept) {
        // Its app or person was deleted (on another instance): nothing of it is written again.
        // Marked only: this store is one of the writes a discard waits for, and the deletion's
        // own discard (closeForDeletion, on every instance) waits for this store to end.
        ledger.markDiscarded(documentName);
        return;
      }
      ledger.folded(documentName, kept);
      break;
    } catch (error) {
      timed();
      lastWritten.delete(documentName);
      if (state.abandoned) throw error;
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
  entry.stored = Math.max(entry.stored, upTo);
  try {
    await updateListing(options, state, documentName, document);
  } catch (error) {
    // The listing catches up on the next store; the document itself is safe.
    logger.warn({ err: error, documentName }, 'updating the app listing failed');
  }
  await afterAppStored(options, state, documentName, document);
  const parsed = parseDocumentName(documentName);
  if ((parsed?.kind === 'data' || parsed?.kind === 'space') && options.afterRecordsStored) {
    try {
      await options.afterRecordsStored(parsed, document);
    } catch (error) {
      logger.warn({ err: error, documentName }, 'queuing reminders after a store failed');
    }
  }
}

async function updateListing(
  { apps }: PersistenceOptions,
  { lastListing }: PersistenceState,
  documentName: string,
  document: Y.Doc,
) {
  const parsed = parseDocumentName(documentName);
  if (!apps || parsed?.kind !== 'app') return;
  const { meta } = readDefinition(document);
  const listing = {
    title: meta.title,
    description: meta.description,
    icon: meta.icon,
    tags: meta.tags,
  };
  const written = JSON.stringify(listing);
  const now = Date.now();
  const last = lastListing.get(documentName);
  if (last?.listing === written && now - last.at < LISTING_REFRESH_MS) return;
  await apps.updateListing(parsed.appId, { ...listing, updatedAt: now });
  lastListing.set(documentName, { listing: written, at: now });
}

async function afterAppStored(
  options: PersistenceOptions,
  { authors }: PersistenceState,
  documentName: string,
  document: Y.Doc,
) {
  const parsed = parseDocumentName(documentName);
  if (!options.afterAppStored || parsed?.kind !== 'app') return;
  const ids = authors.get(documentName) ?? new Set<string>();
  const taken = [...ids];
  const made = await options.afterAppStored(
    parsed.appId,
    document,
    taken,
    connectionsOf(document) === 0,
  );
  if (made) for (const id of taken) ids.delete(id);
}
