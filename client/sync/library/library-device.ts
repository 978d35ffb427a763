import {
  type LibraryEntry,
  mergeLibraryEntry,
  normalizeLibraryEntry,
  parseLibraryEntry,
  sameLibraryEntry,
} from '@pipit/protocol';
import { libraryInbox, removeFromLibraryInbox } from './library-inbox';
import { localDb, type LocalLibraryEntry } from '../core/local-db';

/**
 * The library's copy on this device (IndexedDB, per account), shared by library.ts and its synced
 * half, library-sync.ts.
 */

const rowKey = (owner: string, appId: string) => `${owner}:${appId}`;

function toRow(owner: string, entry: LibraryEntry): LocalLibraryEntry {
  return { ...normalizeLibraryEntry(entry), key: rowKey(owner, entry.appId), owner };
}

export function fromRow(row: LocalLibraryEntry): LibraryEntry | null {
  const { key: _key, owner: _owner, ...entry } = row;
  return parseLibraryEntry(entry);
}

/** Merges `entry` into this device's copy for `owner`; resolves with the merged entry. */
export async function mergeIntoDevice(owner: string, entry: LibraryEntry): Promise<LibraryEntry> {
  const db = localDb();
  return db.transaction('rw', db.library, async () => {
    const row = await db.library.get(rowKey(owner, entry.appId));
    const known = row ? fromRow(row) : null;
    const merged = known ? mergeLibraryEntry(known, entry) : normalizeLibraryEntry(entry);
    if (!sameLibraryEntry(known, merged)) await db.library.put(toRow(owner, merged));
    return merged;
  });
}

/**
 * Moves the entries noted where the library was not loaded (library-inbox.ts: the installed app)
 * through `merge`: by default into this device's library only, for the caller that merges the
 * device's library into the document itself (the library's sync, right after). They leave the
 * inbox once every one is merged.
 */
export async function drainLibraryInboxInto(
  merge: (owner: string, entry: LibraryEntry) => Promise<unknown> = mergeIntoDevice,
): Promise<void> {
  const waiting = libraryInbox();
  if (waiting.length === 0) return;
  for (const { owner, entry } of waiting) await merge(owner, entry);
  removeFromLibraryInbox(waiting);
}
