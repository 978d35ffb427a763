import { HocuspocusProvider, WebSocketStatus } from '@hocuspocus/provider';
import { clearDocument, IndexeddbPersistence } from 'y-indexeddb';
import type { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { appListing } from '@pipit/app-definition';
import {
  Acknowledgements,
  busyRetryDelay,
  isSyncCloseReason,
  parseDocumentName,
  SYNC_PROVIDER_ADDRESSING,
  type SyncCloseReason,
  trackAcknowledgements,
} from '@pipit/protocol';

import { onAccountEnd } from './account-end';
import { type DocumentScope, localDatabaseName, scopeKey } from './document-names';
import { type LocalApp, localAppKey, localDb } from './local-db';
import { noteSynced } from './device-storage';
import { closeSyncSocket, syncSocket } from './socket';
import { PASSING_SYNC_ERRORS, sameSync, type SyncErrorReason, type SyncState } from './sync-state';

export interface OpenDocument {
  readonly name: string;
  readonly doc: Y.Doc;
  /** Resolves once the copy on this device (IndexedDB) is loaded into `doc`. */
  readonly whenLocal: Promise<void>;
  /** `whenLocal` has resolved (known at once: a view can start ready). */
  isLocal(): boolean;
  awareness(): Awareness | null;
  sync(): SyncState;
  /**
   * Changes here cannot reach the server: it gave this connection read-only access, or, before
   * it has answered (offline too), this device knows the person as a viewer of the app.
   */
  isReadOnly(): boolean;
  /**
   * Changes made here that the server refused for good (the person can only view the app now)
   * were removed from this device: this copy is stale, and opening the document again gives the
   * server's. How many were removed is `refusedChanges()`.
   */
  isReplaced(): boolean;
  /** How many of this person's changes here were removed as refused (0 when none, or once read). */
  refusedChanges(): number;
  /** The person has read that their refused changes were removed. */
  forgetRefusedChanges(): void;
  /** Notified on sync-state and awareness changes (not on document updates: observe `doc`). */
  subscribe(listener: () => void): () => void;
  /**
   * Sends the edits waiting for the provider's batch now, so the next transaction travels in a
   * message of its own: the server then integrates it as one transaction of its own (a marked
   * change is credited by its own mark, docs/product/history.md#who-changed-what).
   */
  flush(): void;
  /** Starts syncing with the server once this device's copy is loaded (an account's only). */
  connect(): void;
  release(): void;
}

/** A document stays open this long after its last user lets go, to finish sending its changes. */
const LINGER_MS = 5_000;

/** The listing fields of an app document, when it has a definition. */
function listingOf(doc: Y.Doc): Partial<LocalApp> {
  const listing = appListing(doc);
  return listing ? { ...listing, updatedAt: Date.now() } : {};
}

/**
 * The server's refusals and close reasons, as the person is told them (undefined: the provider
 * connects again by itself, e.g. after a role change).
 */
/**
 * Whether a transaction inserted or deleted anything: what makes Yjs emit it as an update (the
 * same test as its own, on the clocks and the deleted ranges).
 */
function changedContent(transaction: Y.Transaction): boolean {
  if (transaction.deleteSet.clients.size > 0) return true;
  for (const [client, clock] of transaction.afterState) {
    if (transaction.beforeState.get(client) !== clock) return true;
  }
  return false;
}

/**
 * The device's copy of a document in IndexedDB (y-indexeddb). While the copy loads, y-indexeddb's
 * own listener of 'update' is set aside: with any listener of 'update', Yjs encodes the
 * transaction that applies the stored rows as one more update, the whole document again, which
 * y-indexeddb then ignores (its origin is the persistence). On a 1,000-component app that encoding
 * took longer than reading the rows (`npm run bench -- editor`). Nothing is lost meanwhile:
 * y-indexeddb stores nothing before its database is open, and the first thing it stores once the
 * rows are read is the document's whole state, with any edit made before. The listener is back in
 * the same event that resolves `whenSynced`, before anything else runs.
 */
function openDeviceCopy(databaseName: string, doc: Y.Doc): IndexeddbPersistence {
  const persistence = new IndexeddbPersistence(databaseName, doc);
  doc.off('update', persistence._storeUpdate);
  const restore = () => {
    persistence.off('synced', restore);
    doc.on('update', persistence._storeUpdate);
  };
  persistence.on('synced', restore);
  return persistence;
}

const ERROR_REASONS: Record<SyncCloseReason, SyncErrorReason | undefined> = {
  unknown_document: 'rejected',
  unsaved_changes: 'rejected',
  forbidden: 'forbidden',
  not_found: 'not-registered',
  deleted: 'deleted',
  role_changed: undefined,
  storage_unavailable: 'storage-unavailable',
  server_busy: 'busy',
  too_many_documents: 'too-much-open',
  document_too_large: 'too-large',
  over_capacity: 'too-much-open',
  slow_down: 'busy',
  update_rejected: 'rejected',
};

/** A reason as the provider hands it over (any string): one of the server's, or unknown. */
const errorReasonOf = (reason: string): SyncErrorReason | undefined =>
  isSyncCloseReason(reason) ? ERROR_REASONS[reason] : undefined;

/** After a refusal that passes by itself, the document tries again this much later (± 25 %). */
const RETRY_AFTER_REFUSAL_MS = 60_000;
/** Refusals in a row for a busy server before the badge says so (until then: connecting). */
const BUSY_SHOWN_AFTER = 3;

/** One open document per person (or the demo) and name. */
const entryKey = (scope: DocumentScope, name: string) => `${scopeKey(scope)}|${name}`;

/**
 * Per open-document key: changes removed from this device because the server refused them for
 * good. Kept past the entry (the editor opens the document again to show the server's copy), and
 * per person, so the next person on the device never sees someone else's note.
 */
const refusedChanges = new Map<string, number>();

class Entry {
  readonly doc = new Y.Doc();
  readonly persistence: IndexeddbPersistence;
  readonly whenLocal: Promise<void>;
  /** `whenLocal` has resolved. */
  isLocal = false;
  /** This app's row in the device's list (app documents of an account only). */
  /** The device's row of the app whose document this is, its draft's included: its role. */
  private readonly roleKey: string | null;
  /** The device's row of the app, when this is the app's own document: its changes waiting. */
  private readonly appKey: string | null;
  /** The person's role on the app as this device last heard it (its row), for offline. */
  private knownRole: LocalApp['role'] | null = null;
  /** Refused changes were removed from the device: a new open gets the server's copy. */
  replaced = false;
  provider: HocuspocusProvider | null = null;
  refs = 0;
  lingerTimer: ReturnType<typeof setTimeout> | undefined;
  /** Local changes the server has not acknowledged, kept on the device for the studio's list. */
  pending = 0;
  /** What the server acknowledged having stored: "Saved" comes from here (@pipit/protocol sync-acknowledgements.ts). */
  private readonly acks = new Acknowledgements(() => {
    if (this.acks.isSaved() && this.provider?.authorizedScope !== 'readonly') {
      this.setPending(0);
      noteSynced();
    }
    this.notify();
  });
  private untrackAcks: () => void = () => undefined;
  error: SyncErrorReason | null = null;
  readonly listeners = new Set<() => void>();
  private snapshot: SyncState = { kind: 'connecting', pending: 0 };
  private savePendingTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Times in a row the server said it was too busy to open this document (busyRetryDelay). */
  private busyInRow = 0;

  constructor(
    readonly name: string,
    readonly scope: DocumentScope,
    private readonly onIdle: () => void,
    /** Takes this entry out of the open documents, so the next open starts afresh. */
    private readonly onReplaced: () => void,
  ) {
    const parsed = parseDocumentName(name);
    // A draft of an app is edited by whom the app is (docs/product/drafts.md): its role is the
    // app's row's; its changes waiting and its title are its own, not the app's.
    this.roleKey =
      (parsed?.kind === 'app' || parsed?.kind === 'draft') && scope.kind === 'account'
        ? localAppKey(scope.accountId, parsed.appId)
        : null;
    this.appKey = parsed?.kind === 'app' ? this.roleKey : null;
    this.persistence = openDeviceCopy(localDatabaseName(scope, name), this.doc);
    // Loaded with the device's row: a viewer's editor must never open editable, not even offline.
    this.whenLocal = Promise.all([this.persistence.whenSynced, this.loadRow()]).then(() => {
      this.isLocal = true;
    });
    // Counted when a transaction is cleaned up, the moment Yjs would emit 'update', rather than on
    // 'update': a listener of 'update' makes Yjs encode every transaction as an update, the loading
    // of the device's copy too (see openDeviceCopy). A transaction that inserted or deleted
    // anything is exactly one that Yjs sends as an update.
    this.doc.on('afterTransactionCleanup', (transaction: Y.Transaction) => {
      const origin: unknown = transaction.origin;
      if (origin === this.persistence || (this.provider && origin === this.provider)) return;
      if (!changedContent(transaction)) return;
      this.setPending(this.pending + 1);
      this.acks.changed();
    });
    this.snapshot = this.computeSync();
    window.addEventListener('online', this.notify);
    window.addEventListener('offline', this.notify);
  }

  private async loadRow() {
    const key = this.roleKey;
    if (!key) return;
    const row = await localDb().apps.get(key);
    if (!row) return;
    this.knownRole = row.role;
    if (this.appKey && row.pending > this.pending) this.setPending(row.pending, false);
  }

  isReadOnly(): boolean {
    const provider = this.provider;
    if (provider?.isAuthenticated) return provider.authorizedScope === 'readonly';
    return this.knownRole === 'viewer';
  }

  /**
   * The server answered this connection: the device's role follows it (so read-only holds offline
   * next time), and changes made here that a viewer can never send are removed, with a note.
   */
  private readonly onAuthenticated = () => {
    const provider = this.provider;
    if (!provider) return;
    const readOnly = provider.authorizedScope === 'readonly';
    const key = this.roleKey;
    if (key) {
      const role = readOnly ? 'viewer' : this.knownRole === 'viewer' ? 'editor' : this.knownRole;
      if (role && role !== this.knownRole) {
        this.knownRole = role;
        void localDb().apps.update(key, { role });
      }
    }
    // A space's too (a member made a reader while offline, or while adding): what they can never
    // send must not sit on the device looking saved.
    if (readOnly && this.pending > 0) void this.removeRefusedChanges();
  };

  private async removeRefusedChanges() {
    const key = entryKey(this.scope, this.name);
    refusedChanges.set(key, (refusedChanges.get(key) ?? 0) + this.pending);
    this.disconnect();
    this.setPending(0);
    // The copy on this device goes; the next open fills a fresh one from the server. Only once
    // it is gone may anyone open the document again.
    await this.persistence.clearData();
    this.onReplaced();
    this.replaced = true;
    this.notify();
  }

  private setPending(pending: number, persist = true) {
    this.pending = pending;
    this.notify();
    const key = this.appKey;
    if (!key || !persist) return;
    clearTimeout(this.savePendingTimer);
    // Written at once when it reaches 0 or leaves it, otherwise at most twice a second; the listing
    // (title, icon) goes with it, so the studio shows an app's latest name offline.
    const write = () =>
      void localDb().apps.update(key, { pending: this.pending, ...listingOf(this.doc) });
    if (pending <= 1) write();
    else this.savePendingTimer = setTimeout(write, 500);
  }

  /** Starts syncing with the server (once the local copy is loaded). */
  connect() {
    if (this.scope.kind !== 'account' || this.provider) return;
    const provider = new HocuspocusProvider({
      websocketProvider: syncSocket(this.scope.accountId),
      name: this.name,
      document: this.doc,
      // Bursts of edits (typing) travel as one message per 100 ms instead of one per keystroke.
      flushDelay: 100,
      // A connection of its own on the shared socket, even when this document was closed on it a
      // moment ago (its refused changes removed, a retry).
      ...SYNC_PROVIDER_ADDRESSING,
    });
    this.provider = provider;
    this.untrackAcks = trackAcknowledgements(provider.effectiveName, this.acks);
    this.error = null;
    provider.on('status', this.notify);
    provider.on('authenticated', () => {
      this.busyInRow = 0;
      this.onAuthenticated();
      this.notify();
    });
    provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
      this.refused(errorReasonOf(reason) ?? 'rejected', reason);
    });
    // Only the count shown while syncing: whether it is saved is the server's acknowledgements'.
    provider.on('unsyncedChanges', this.notify);
    provider.on('close', ({ event }: { event: { reason?: string } }) => {
      const reason = event.reason ? errorReasonOf(event.reason) : undefined;
      if (reason) this.refused(reason, event.reason);
      else if (event.reason === 'role_changed') {
        // The person's role changed (made a viewer or reader, or an editor again): connect again
        // at once, so the server's new answer (read-only or not) holds now, not at the next
        // reconnect half a minute later.
        queueMicrotask(() => {
          if (this.provider === provider) this.retry();
        });
      } else this.notify();
    });
    provider.on('awarenessChange', this.notify);
    provider.attach();
    this.notify();
  }

  /**
   * The server refused this document's connection: it stops sending — until the page reloads, or,
   * for a reason that passes (the server busy, too much open at once), until it tries again.
   */
  private refused(reason: SyncErrorReason, serverReason?: string) {
    this.error = reason;
    this.disconnect();
    clearTimeout(this.retryTimer);
    if (!PASSING_SYNC_ERRORS.has(reason)) return;
    // Busy: the server sheds a burst of openings (a restart, a crowd) and takes this one a moment
    // later, each client at its own moment. Anything else passes more slowly.
    const delay =
      serverReason === 'server_busy'
        ? busyRetryDelay((this.busyInRow += 1))
        : RETRY_AFTER_REFUSAL_MS * (0.75 + Math.random() / 2);
    this.retryTimer = setTimeout(() => this.retry(), delay);
  }

  disconnect() {
    const provider = this.provider;
    if (!provider) return;
    this.provider = null;
    this.untrackAcks();
    provider.destroy();
    this.notify();
  }

  /** Reconnects after the server was told about the app (registration), or after an error. */
  retry() {
    this.disconnect();
    this.error = null;
    this.connect();
  }

  readonly notify = () => {
    const next = this.computeSync();
    if (!sameSync(next, this.snapshot)) this.snapshot = next;
    this.listeners.forEach((listener) => listener());
  };

  sync(): SyncState {
    return this.snapshot;
  }

  private computeSync(): SyncState {
    if (this.scope.kind === 'demo') return { kind: 'local' };
    // Turned away by a busy server once or twice is part of connecting (it asks again within
    // seconds); said so three times in a row, the person is told.
    if (this.error === 'busy' && this.busyInRow > 0 && this.busyInRow < BUSY_SHOWN_AFTER) {
      return { kind: 'connecting', pending: this.pending };
    }
    if (this.error) return { kind: 'error', why: this.error };
    const provider = this.provider;
    if (provider?.authorizedScope === 'readonly') return { kind: 'read-only' };
    if (this.replaced) return { kind: 'read-only' };
    // Offline is certain when the browser says so (only `online` can be wrong), whatever the
    // socket still claims: going offline asks it to close, and until the close lands (seconds on a
    // busy machine) it says connected, and the badge said "Saved" to someone offline.
    if (!navigator.onLine) return { kind: 'offline', pending: this.pending };
    const socketUp = provider?.configuration.websocketProvider.status === WebSocketStatus.Connected;
    if (!provider || !socketUp || !provider.isAuthenticated) {
      return { kind: 'connecting', pending: this.pending };
    }
    if (!this.acks.isSaved()) {
      return { kind: 'syncing', pending: Math.max(provider.unsyncedChanges, this.pending, 1) };
    }
    return { kind: 'saved' };
  }

  isIdle() {
    return this.refs === 0 && (this.pending === 0 || this.error !== null || !navigator.onLine);
  }

  acquire() {
    this.refs += 1;
    clearTimeout(this.lingerTimer);
  }

  releaseOne() {
    this.refs -= 1;
    if (this.refs > 0) return;
    // Stay open while changes are still on their way to the server.
    const check = () => {
      if (this.refs > 0) return;
      if (this.isIdle()) this.onIdle();
      else this.lingerTimer = setTimeout(check, LINGER_MS);
    };
    this.lingerTimer = setTimeout(check, LINGER_MS);
  }

  destroy() {
    clearTimeout(this.lingerTimer);
    clearTimeout(this.savePendingTimer);
    clearTimeout(this.retryTimer);
    window.removeEventListener('online', this.notify);
    window.removeEventListener('offline', this.notify);
    this.disconnect();
    void this.persistence.destroy();
    this.doc.destroy();
  }
}

const entries = new Map<string, Entry>();

/**
 * Starts reading a document from this device before anything renders it (the editor's route, an
 * installed app's start), in parallel with what those wait for. Let go at once: a document stays
 * open LINGER_MS after its last user, time for its first user to take it over.
 */
export function openDocumentAhead(name: string, scope: DocumentScope): void {
  openDocument(name, scope, { connect: false }).release();
}

/**
 * Opens a document: exactly one Y.Doc and one IndexedDB persistence per document in this tab,
 * however many components ask (React StrictMode mounts twice; y-indexeddb #25, see
 * docs/library-notes.md#y-indexeddb). Syncing with the server starts when `connect` is called on an
 * account's document.
 */
export function openDocument(
  name: string,
  scope: DocumentScope,
  options: { connect: boolean },
): OpenDocument {
  const key = entryKey(scope, name);
  let entry = entries.get(key);
  if (!entry) {
    const created: Entry = new Entry(
      name,
      scope,
      () => {
        if (entries.get(key) === created) entries.delete(key);
        created.destroy();
      },
      () => {
        if (entries.get(key) === created) entries.delete(key);
      },
    );
    entry = created;
    entries.set(key, entry);
  }
  const opened = entry;
  opened.acquire();
  const connect = () => void opened.whenLocal.then(() => opened.connect());
  if (options.connect) connect();
  let released = false;
  return {
    connect,
    name,
    doc: opened.doc,
    whenLocal: opened.whenLocal,
    isLocal: () => opened.isLocal,
    awareness: () => opened.provider?.awareness ?? null,
    sync: () => opened.sync(),
    isReadOnly: () => opened.isReadOnly(),
    isReplaced: () => opened.replaced,
    refusedChanges: () => refusedChanges.get(key) ?? 0,
    forgetRefusedChanges: () => {
      refusedChanges.delete(key);
    },
    flush: () => opened.provider?.flushPendingUpdates(),
    subscribe(listener) {
      opened.listeners.add(listener);
      return () => {
        opened.listeners.delete(listener);
      };
    },
    release() {
      if (released) return;
      released = true;
      opened.releaseOne();
    },
  };
}

/** Connects an open document now (its app was just registered), or retries after an error. */
export function reconnectDocument(scope: DocumentScope, name: string): void {
  const entry = entries.get(entryKey(scope, name));
  if (entry) void entry.whenLocal.then(() => entry.retry());
}

/**
 * Removes a document's copy from this device (a space the person was removed from: what they had
 * offline is dropped, never sent). An open document stops syncing first; the next open starts
 * empty.
 */
export async function discardDocument(scope: DocumentScope, name: string): Promise<void> {
  const key = entryKey(scope, name);
  const entry = entries.get(key);
  if (entry) {
    entries.delete(key);
    entry.disconnect();
    entry.replaced = true;
    await entry.persistence.clearData();
    entry.notify();
    return;
  }
  await clearDocument(localDatabaseName(scope, name));
}

/** Signing out: every document of that account in this tab stops syncing and closes. */
export function closeAccountDocuments(accountId: string): void {
  const prefix = entryKey({ kind: 'account', accountId }, '');
  for (const key of refusedChanges.keys()) if (key.startsWith(prefix)) refusedChanges.delete(key);
  for (const [key, entry] of entries) {
    if (entry.scope.kind === 'account' && entry.scope.accountId === accountId) {
      entries.delete(key);
      entry.destroy();
    }
  }
}

// Signing out (or in as someone else): that account's documents, then its socket, close here.
onAccountEnd((accountId) => {
  closeAccountDocuments(accountId);
  closeSyncSocket();
});
