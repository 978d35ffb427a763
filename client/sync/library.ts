import {
  documentName,
  LIBRARY_MAP,
  type LibraryEntry,
  listLibrary,
  mergeLibraryEntry,
  normalizeLibraryEntry,
  parseLibraryEntry,
  sameLibraryEntry,
} from '@pipit/protocol';
import { liveQuery } from 'dexie';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { openDocument, type OpenDocument } from './documents';
import { ANONYMOUS_OWNER, localDb, type LocalLibraryEntry } from './local-db';
import { mergeAnonymousVisitorData } from './visitor-data-merge';

/**
 * The library (SPEC §3 `/apps`): apps a person opened, saved or installed. This device keeps it in
 * IndexedDB per account (`anonymous` for someone not signed in), so it works offline; a signed-in
 * person's is also in their `user/{userId}` document (a Y.Map `library`), so it follows them to
 * their other devices. Both copies merge entry by entry with @pipit/protocol's mergeLibraryEntry,
 * in both directions, until they agree.
 */

export { ANONYMOUS_OWNER };

const rowKey = (owner: string, appId: string) => `${owner}:${appId}`;

function toRow(owner: string, entry: LibraryEntry): LocalLibraryEntry {
  return { ...normalizeLibraryEntry(entry), key: rowKey(owner, entry.appId), owner };
}

function fromRow(row: LocalLibraryEntry): LibraryEntry | null {
  const { key: _key, owner: _owner, ...entry } = row;
  return parseLibraryEntry(entry);
}

function libraryMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap<unknown>(LIBRARY_MAP);
}

function openUserDocument(accountId: string): OpenDocument {
  return openDocument(
    documentName({ kind: 'user', userId: accountId }),
    { kind: 'account', accountId },
    { connect: true },
  );
}

/** Merges `entry` into this device's copy for `owner`; resolves with the merged entry. */
async function mergeIntoDevice(owner: string, entry: LibraryEntry): Promise<LibraryEntry> {
  const db = localDb();
  return db.transaction('rw', db.library, async () => {
    const row = await db.library.get(rowKey(owner, entry.appId));
    const known = row ? fromRow(row) : null;
    const merged = known ? mergeLibraryEntry(known, entry) : normalizeLibraryEntry(entry);
    if (!sameLibraryEntry(known, merged)) await db.library.put(toRow(owner, merged));
    return merged;
  });
}

/** Merges `entry` into the document's map; writes only when that changes something. */
function mergeIntoDocument(doc: Y.Doc, entry: LibraryEntry): LibraryEntry {
  const map = libraryMap(doc);
  const known = parseLibraryEntry(map.get(entry.appId));
  const merged = known ? mergeLibraryEntry(known, entry) : normalizeLibraryEntry(entry);
  if (!sameLibraryEntry(known, merged)) map.set(entry.appId, merged);
  return merged;
}

/** A change to one app's entry, on this device and (signed in) in the person's document. */
async function changeEntry(accountId: string | null, entry: LibraryEntry): Promise<void> {
  const merged = await mergeIntoDevice(accountId ?? ANONYMOUS_OWNER, entry);
  if (!accountId) return;
  const opened = openUserDocument(accountId);
  try {
    await opened.whenLocal;
    mergeIntoDocument(opened.doc, merged);
  } finally {
    // It stays open (and connected) until the server has the change, then closes by itself.
    opened.release();
  }
}

/** What an app page or the installed app knows about an app, to list it in the library. */
export type LibraryListing = Pick<LibraryEntry, 'appId' | 'title' | 'icon' | 'author' | 'version'>;

/** The person opened the app (the installed app calls this each time it starts). */
export function recordAppOpened(accountId: string | null, listing: LibraryListing) {
  return changeEntry(accountId, { ...listing, openedAt: Date.now() });
}

/** The person saved the app to their library without opening it. */
export function saveToLibrary(accountId: string | null, listing: LibraryListing) {
  return changeEntry(accountId, { ...listing, openedAt: 0, savedAt: Date.now() });
}

/** The app was installed on this device (the browser's `appinstalled`, or the install page). */
export function recordAppInstalled(accountId: string | null, listing: LibraryListing) {
  const now = Date.now();
  return changeEntry(accountId, { ...listing, openedAt: 0, installedAt: now });
}

/** Takes the app out of the library on every device (opening it again brings it back). */
export async function removeFromLibrary(accountId: string | null, entry: LibraryEntry) {
  await changeEntry(accountId, { ...entry, removedAt: Date.now() });
}

/** Undoes a removal: the app is kept again, as if saved now. */
export async function restoreToLibrary(accountId: string | null, entry: LibraryEntry) {
  await changeEntry(accountId, { ...entry, savedAt: Date.now() });
}

/**
 * While a signed-in person's library is on screen: the anonymous library of this device joins the
 * account's (signing in keeps it), and the device's copy and the document's merge both ways, now
 * and whenever another device changes the document. Returns the function that stops it.
 */
function startLibrarySync(accountId: string): () => void {
  const opened = openUserDocument(accountId);
  let stopped = false;
  const map = libraryMap(opened.doc);

  async function reconcile(onlyIds?: ReadonlySet<string>) {
    const db = localDb();
    const rows = await db.library.where('owner').equals(accountId).toArray();
    const device = new Map<string, LibraryEntry>();
    for (const row of rows) {
      const entry = fromRow(row);
      if (entry) device.set(entry.appId, entry);
    }
    const ids = onlyIds ?? new Set([...device.keys(), ...map.keys()]);
    if (stopped) return;
    opened.doc.transact(() => {
      for (const id of ids) {
        const local = device.get(id);
        if (local) mergeIntoDocument(opened.doc, local);
      }
    });
    for (const id of ids) {
      const shared = parseLibraryEntry(map.get(id));
      if (shared) await mergeIntoDevice(accountId, shared);
    }
  }

  /** Signing in keeps what was opened anonymously on this device: the library and the data. */
  async function adoptAnonymous() {
    const db = localDb();
    const rows = await db.library.where('owner').equals(ANONYMOUS_OWNER).toArray();
    for (const row of rows) {
      const entry = fromRow(row);
      if (entry) await mergeIntoDevice(accountId, entry);
      await db.library.delete(row.key);
    }
    await mergeAnonymousVisitorData(accountId);
  }

  const onRemoteChange = (event: Y.YMapEvent<unknown>) => {
    if (event.transaction.local) return;
    void reconcile(new Set(event.keysChanged)).catch(warn);
  };

  void opened.whenLocal
    .then(async () => {
      if (stopped) return;
      await adoptAnonymous();
      if (stopped) return;
      map.observe(onRemoteChange);
      await reconcile();
    })
    .catch(warn);

  return () => {
    stopped = true;
    map.unobserve(onRemoteChange);
    opened.release();
  };
}

function warn(error: unknown) {
  console.warn('Could not bring your library up to date on this device:', error);
}

/** One sync per account in this tab, however many components show the library. */
const syncs = new Map<string, { refs: number; stop: () => void }>();

function acquireLibrarySync(accountId: string): () => void {
  let sync = syncs.get(accountId);
  if (!sync) {
    sync = { refs: 0, stop: startLibrarySync(accountId) };
    syncs.set(accountId, sync);
  }
  const held = sync;
  held.refs += 1;
  return () => {
    held.refs -= 1;
    if (held.refs > 0) return;
    syncs.delete(accountId);
    held.stop();
  };
}

/** A live query of this device's library for one owner, as an external store. */
function createLibraryStore(owner: string) {
  let value: LibraryEntry[] | undefined;
  const listeners = new Set<() => void>();
  let subscription: { unsubscribe(): void } | undefined;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      subscription ??= liveQuery(() =>
        localDb().library.where('owner').equals(owner).toArray(),
      ).subscribe({
        next: (rows) => {
          value = listLibrary(rows.flatMap((row) => fromRow(row) ?? []));
          listeners.forEach((l) => l());
        },
        error: (error: unknown) => {
          console.warn('Could not read the library on this device:', error);
          value = [];
          listeners.forEach((l) => l());
        },
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          subscription?.unsubscribe();
          subscription = undefined;
        }
      };
    },
    get: () => value,
  };
}

/**
 * The library of the person signed in (`accountId`), or of this device's anonymous visitor (null):
 * apps in it, the one used last first; `undefined` while it loads. Signed in, it also keeps the
 * library in step with their other devices while shown.
 */
export function useLibrary(accountId: string | null): LibraryEntry[] | undefined {
  const owner = accountId ?? ANONYMOUS_OWNER;
  const store = useMemo(() => createLibraryStore(owner), [owner]);
  useEffect(() => (accountId ? acquireLibrarySync(accountId) : undefined), [accountId]);
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
