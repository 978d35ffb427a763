import { randomUUID } from 'node:crypto';
import { type Extension, Hocuspocus } from '@hocuspocus/server';
import type { SyncCloseReason } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { CollabTimings, OpeningKind } from '../metrics';
import type { AppStore, DocumentStore } from '../storage/types';
import type { DocumentAccess } from './access';
import { type ConnectionContext, createAccessEpoch, createAuthentication } from './authenticate';
import { createPresenceClaims } from './client-owners';
import { DocumentLedger } from './document-ledger';
import type { RedisFanOut } from './redis-fan-out';
import { createPersistence, type Persistence, type PersistenceOptions } from './persistence';
import { ResourceBounds } from './resource-bounds';
import { createResourceBoundsExtension } from './resource-bounds-extension';
import type { ResourceLimits } from './resource-limits';
import type { SpaceRules } from './space-rules';
import { createUpdateGuard } from './update-guard';
import { createUpdateLogExtension, UpdateLog } from './update-log';

/**
 * Stores are debounced: 2 s after the last edit, and at least every 30 s while edits never pause.
 * Every acknowledged edit is in the durable log already; a store only folds the log into the
 * snapshot, so a document under constant editing need not be compacted more often (each store is
 * a transaction of several statements: every 10 s for hundreds of documents at once, the database
 * and the process spent a noticeable share of two cores on it).
 */
export const STORE_DEBOUNCE_MS = 2_000;
export const STORE_MAX_DEBOUNCE_MS = 30_000;

/**
 * One socket syncs all of a person's documents in the background (docs/product/states.md#offline:
 * sync resumes for apps that are not open): the free plan's 25 apps with their data documents, and
 * room to spare. Hocuspocus's default of 100 pending documents would reset such a socket
 * (docs/library-notes.md#hocuspocus-and-yjs).
 */
export const MAX_PENDING_DOCUMENTS = 500;
/** Messages buffered per socket before authentication (the default is 1,000). */
export const MAX_UNAUTHENTICATED_MESSAGES = 5_000;

export interface Collab {
  hocuspocus: Hocuspocus;
  persistence: Persistence;
  /** Each person's share of the server's memory (sockets, documents, bytes, items, heap). */
  bounds: ResourceBounds;
  /**
   * Closes the document connections matching `which` (a person lost access, their role changed,
   * their session ended), on one document when `documentName` is given, else on all — on this
   * instance (the cluster carries the decision to the others: server/cluster-events.ts). Their provider is
   * told `reason` and does not get the document again unless it authenticates anew.
   */
  disconnect(
    reason: Extract<SyncCloseReason, 'forbidden' | 'role_changed'>,
    which: (context: ConnectionContext) => boolean,
    documentName?: string,
  ): number;
  /**
   * Before documents are deleted from storage: the loaded ones among those `which` matches stop
   * being written (Persistence.discard) and every connection to them is closed. Resolves when
   * deleting them from storage is final (on this instance: see ClusterEvent 'deleting').
   */
  closeForDeletion(which: (documentName: string) => boolean): Promise<void>;
}

export function createCollab(options: {
  documents: DocumentStore;
  apps?: AppStore;
  access: DocumentAccess;
  logger: Logger;
  debounceMs?: number;
  /** The longest a store waits while edits keep coming (tests shorten it). */
  maxDebounceMs?: number;
  /** Storage latency for the metrics. */
  timings?: CollabTimings;
  limits: ResourceLimits;
  /** With several instances: edits and presence to and from the others (fan-out.ts). */
  fanOut?: RedisFanOut | null;
  /** After an app document is stored: its history may take a checkpoint (persistence.ts). */
  afterAppStored?: PersistenceOptions['afterAppStored'];
  /** After a person's data document is stored: their reminders about records (persistence.ts). */
  afterRecordsStored?: PersistenceOptions['afterRecordsStored'];
  /**
   * The record rules of shared spaces (space-rules.ts): a space's updates change only the records
   * their sender may change (space-guard.ts). Without them, every collection has the strictest rule.
   */
  spaceRules?: SpaceRules;
  /** Time, for how long refused messages slow their sender down (the server's clock). */
  now?: () => number;
  /**
   * Watching what each loaded document integrates, after it is stored in the log: a space's
   * activity (src/activity/activity.ts).
   */
  watchers?: Extension[];
}): Collab {
  const { logger, limits, timings } = options;
  /** Access decisions carried out here (disconnect, closeForDeletion): see authenticate.ts. */
  // Sessions the policy kept are read again after any decision (access.ts).
  const epoch = createAccessEpoch(() => options.access.forget?.());
  const ledger = new DocumentLedger();
  // Asked only once a socket is open, when Hocuspocus exists.
  const bounds: ResourceBounds = new ResourceBounds({
    limits,
    usageOf: (name) => ledger.usageOf(name),
    isLoaded: (name): boolean =>
      hocuspocus.documents.has(name) || hocuspocus.loadingDocuments.has(name),
    loadingCount: () => hocuspocus.loadingDocuments.size,
    ...(timings ? { onShed: (what: OpeningKind) => timings.openingShed(what) } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const persistence = createPersistence({
    store: options.documents,
    ledger,
    logger,
    bounds,
    spreadMs: options.debounceMs ?? STORE_DEBOUNCE_MS,
    ...(options.apps ? { apps: options.apps } : {}),
    ...(timings ? { timings } : {}),
    ...(options.afterAppStored ? { afterAppStored: options.afterAppStored } : {}),
    ...(options.afterRecordsStored ? { afterRecordsStored: options.afterRecordsStored } : {}),
  });

  /*
   * The path of a document and of each message, one step per file. Hocuspocus runs each hook of
   * these in this order (all have its default priority, but the fan-out: see below).
   */
  const extensions: Extension[] = [
    // 1. Who may open which document, and as what (authenticate.ts, access.ts). Deny by default.
    //    Past the openings the server takes at once, the next is told it is busy (resource-bounds.ts).
    createAuthentication(options.access, logger, epoch, () => bounds.startOpening('document')),
    // 2. Each person's share of memory: a granted document is admitted only within it
    //    (resource-bounds.ts); presence is bounded here too.
    createResourceBoundsExtension(bounds),
    //    A client id named in presence is claimed for its person before anyone hears of it
    //    (client-owners.ts): nobody may write under it in their place.
    createPresenceClaims({
      ownershipOf: (name) => ledger.of(name).clients,
      claim: (name, userId, clients) => options.documents.claimClients(name, userId, clients),
      logger,
      ...(options.now ? { now: options.now } : {}),
    }),
    // 3. Every message decoded once and checked before anything else sees it: malformed,
    //    oversized or over-limit updates close only their connection, and so does a space's
    //    update that changes a record its sender may not (update-guard.ts, space-guard.ts).
    createUpdateGuard({
      ledger,
      limits,
      bounds,
      logger,
      timings,
      spaceRules: options.spaceRules,
      claimClients: (name, userId, clients) =>
        options.documents.claimClients(name, userId, clients),
      ...(options.now ? { now: options.now } : {}),
    }),
    // 4. The checked update appended to the durable log; its acknowledgement is held until the
    //    write commits, while other clients get it at once (update-log.ts). A storage outage
    //    pauses acknowledgements; it never skips the log.
    createUpdateLogExtension({
      log: new UpdateLog(options.documents, { logger, ...(timings ? { timings } : {}) }),
      ledger,
      logger,
      waitingBytesBudget: limits.logWaitingBytes,
    }),
    // 5. Load (snapshot + log), debounced store merged into what is stored, retries, unload guard
    //    (persistence.ts).
    persistence,
    // 6. What members did in a space, read from what Yjs integrated, for those who asked to be
    //    told (src/activity/activity.ts); who changed what in an app (src/history/attribution.ts).
    ...(options.watchers ?? []),
  ];
  // 7. With several instances, the Redis fan-out (fan-out.ts). Its priority (1000) runs its hooks
  //    before the others': a loaded document joins its channel, and every change is announced to
  //    the other instances — after the log, since Hocuspocus announces a change once applied.
  if (options.fanOut) extensions.push(options.fanOut);
  // 8. Each document's Yjs id (its `guid`), drawn from Node's batched random source: by itself Yjs
  //    draws 31 random numbers from the kernel one at a time for it, about 0.1 ms a document here
  //    and 0.35 ms in a reconnect storm, where 2,000 documents load at once. The last extension
  //    that answers onCreateDocument sets the document's options; no other one does.
  extensions.push({
    extensionName: 'pipit-document-ids',
    onCreateDocument: () => Promise.resolve({ guid: randomUUID() }),
  });

  const hocuspocus: Hocuspocus = new Hocuspocus({
    name: 'pipit',
    quiet: true,
    debounce: options.debounceMs ?? STORE_DEBOUNCE_MS,
    maxDebounce: options.maxDebounceMs ?? Math.max(options.debounceMs ?? 0, STORE_MAX_DEBOUNCE_MS),
    maxPendingDocuments: MAX_PENDING_DOCUMENTS,
    maxUnauthenticatedQueueMessages: MAX_UNAUTHENTICATED_MESSAGES,
    extensions,
  });
  const disconnect: Collab['disconnect'] = (reason, which, documentName) => {
    // Grants read before this decision are checked again when their connection is established.
    epoch.advance();
    let closed = 0;
    const documents =
      documentName === undefined
        ? [...hocuspocus.documents.values()]
        : [hocuspocus.documents.get(documentName)].filter((d) => d !== undefined);
    for (const document of documents) {
      for (const connection of document.getConnections()) {
        if (which(connection.context as ConnectionContext)) {
          connection.close({ code: 4403, reason });
          closed += 1;
        }
      }
    }
    return closed;
  };
  return {
    hocuspocus,
    persistence,
    bounds,
    disconnect,
    async closeForDeletion(which) {
      epoch.advance();
      // A document being loaded for a connection granted a moment ago is closed too, once loaded.
      const loading = [...hocuspocus.loadingDocuments].filter(([name]) => which(name));
      await Promise.allSettled(loading.map(([, load]) => load));
      const names = [...hocuspocus.documents.keys()].filter(which);
      await persistence.discard(names);
      for (const name of names) disconnect('forbidden', () => true, name);
    },
  };
}
