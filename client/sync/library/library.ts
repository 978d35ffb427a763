import { type LibraryEntry, listLibrary } from '@pipit/protocol';
import { liveQuery } from 'dexie';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { drainLibraryInboxInto, fromRow, mergeIntoDevice } from './library-device';
import { ANONYMOUS_OWNER, localDb } from '../core/local-db';

/**
 * The library (docs/product/routes.md `/apps`): apps a person opened, saved or installed. This
 * device keeps it in IndexedDB per account (`anonymous` for someone not signed in), so it works
 * offline; a signed-in person's is also in their `user/{userId}` document (a Y.Map `library`), so
 * it follows them to their other devices. Both copies merge entry by entry with @pipit/protocol's
 * mergeLibraryEntry, in both directions, until they agree. That half is library-sync.ts, loaded
 * only for someone signed in: an anonymous visitor never syncs, so never downloads the sync layer.
 */

export { ANONYMOUS_OWNER };

/** A change to one app's entry, on this device and (signed in) in the person's document. */
async function changeEntry(accountId: string | null, entry: LibraryEntry): Promise<void> {
  const merged = await mergeIntoDevice(accountId ?? ANONYMOUS_OWNER, entry);
  if (!accountId) return;
  const { mergeIntoUserDocument } = await import('./library-sync');
  await mergeIntoUserDocument(accountId, merged);
}

/**
 * Moves the entries noted where the library was not loaded (library-inbox.ts: the installed app)
 * into this device's library; the signed-in person's also into their document, so they follow
 * them to their other devices. Anyone else's wait on this device for their next sign-in.
 */
export function drainLibraryInbox(accountId: string | null): Promise<void> {
  return drainLibraryInboxInto((owner, entry) =>
    owner === (accountId ?? ANONYMOUS_OWNER)
      ? changeEntry(accountId, entry)
      : mergeIntoDevice(owner, entry),
  );
}

/** What an app page or the installed app knows about an app, to list it in the library. */
export type LibraryListing = Pick<LibraryEntry, 'appId' | 'title' | 'icon' | 'author' | 'version'>;

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

/**
 * The app was deleted by its creator: it leaves the library on every device (it can never open
 * again). Nothing happens when it is not there.
 */
export async function forgetDeletedApp(accountId: string | null, appId: string): Promise<void> {
  const entry = (await libraryOnDevice(accountId ?? ANONYMOUS_OWNER)).find(
    (e) => e.appId === appId,
  );
  if (entry) await removeFromLibrary(accountId, entry);
}

/** Undoes a removal: the app is kept again, as if saved now. */
export async function restoreToLibrary(accountId: string | null, entry: LibraryEntry) {
  await changeEntry(accountId, { ...entry, savedAt: Date.now() });
}

/** Starts the library's sync once its code is loaded; returns the function that stops it. */
function startLibrarySyncSoon(accountId: string): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  import('./library-sync').then(
    ({ startLibrarySync }) => {
      if (!stopped) stop = startLibrarySync(accountId);
    },
    (error: unknown) => console.warn('Could not bring your library up to date:', error),
  );
  return () => {
    stopped = true;
    stop?.();
  };
}

/** One sync per account in this tab, however many components show the library. */
const syncs = new Map<string, { refs: number; stop: () => void }>();

function acquireLibrarySync(accountId: string): () => void {
  let sync = syncs.get(accountId);
  if (!sync) {
    sync = { refs: 0, stop: startLibrarySyncSoon(accountId) };
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

/** This device's library for one owner, as /apps lists it (the one used last first). */
export async function libraryOnDevice(owner: string): Promise<LibraryEntry[]> {
  const rows = await localDb().library.where('owner').equals(owner).toArray();
  return listLibrary(rows.flatMap((row) => fromRow(row) ?? []));
}

/** A live query of this device's library for one owner, as an external store. */
function createLibraryStore(owner: string) {
  let value: LibraryEntry[] | undefined;
  const listeners = new Set<() => void>();
  let subscription: { unsubscribe(): void } | undefined;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      subscription ??= liveQuery(() => libraryOnDevice(owner)).subscribe({
        next: (entries) => {
          value = entries;
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
  useEffect(() => {
    // Signed in, the library's sync moves them in first thing (library-sync.ts).
    if (accountId) return;
    drainLibraryInbox(null).catch((error: unknown) =>
      console.warn('Could not add the apps opened lately to your library:', error),
    );
  }, [accountId]);
  useEffect(() => (accountId ? acquireLibrarySync(accountId) : undefined), [accountId]);
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
