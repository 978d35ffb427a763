import { libraryMap } from '@pipit/app-definition';
import {
  documentName,
  type LibraryEntry,
  mergeLibraryEntry,
  normalizeLibraryEntry,
  parseLibraryEntry,
  sameLibraryEntry,
} from '@pipit/protocol';
import type * as Y from 'yjs';
import { openDocument, type OpenDocument } from '../core/documents';
import { drainLibraryInboxInto, fromRow, mergeIntoDevice } from './library-device';
import { ANONYMOUS_OWNER, localDb } from '../core/local-db';
import { mergeAnonymousVisitorData } from '../visitor-data/synced-data';

/**
 * The synced half of the library (library.ts): a signed-in person's library is also in their
 * `user/{userId}` document (a Y.Map `library`), so it follows them to their other devices. Loaded
 * only for someone signed in.
 */

function openUserDocument(accountId: string): OpenDocument {
  return openDocument(
    documentName({ kind: 'user', userId: accountId }),
    { kind: 'account', accountId },
    { connect: true },
  );
}

/** Merges `entry` into the document's map; writes only when that changes something. */
function mergeIntoDocument(doc: Y.Doc, entry: LibraryEntry): LibraryEntry {
  const map = libraryMap(doc);
  const known = parseLibraryEntry(map.get(entry.appId));
  const merged = known ? mergeLibraryEntry(known, entry) : normalizeLibraryEntry(entry);
  if (!sameLibraryEntry(known, merged)) map.set(entry.appId, merged);
  return merged;
}

/** A change to one app's entry, already on this device, into the person's document. */
export async function mergeIntoUserDocument(accountId: string, entry: LibraryEntry): Promise<void> {
  const opened = openUserDocument(accountId);
  try {
    await opened.whenLocal;
    mergeIntoDocument(opened.doc, entry);
  } finally {
    // It stays open (and connected) until the server has the change, then closes by itself.
    opened.release();
  }
}

/**
 * While a signed-in person's library is on screen: the anonymous library of this device joins the
 * account's (signing in keeps it), and the device's copy and the document's merge both ways, now
 * and whenever another device changes the document. Returns the function that stops it.
 */
export function startLibrarySync(accountId: string): () => void {
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
      // Apps opened in an installed app since (library-inbox.ts), then the anonymous library; the
      // reconcile below brings the device's rows into the document.
      await drainLibraryInboxInto();
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
