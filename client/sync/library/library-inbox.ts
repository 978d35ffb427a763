import {
  type LibraryEntry,
  mergeLibraryEntry,
  normalizeLibraryEntry,
  parseLibraryEntry,
  sameLibraryEntry,
} from '@pipit/protocol';

/**
 * Library entries written where the library's database is not loaded: the installed app
 * (`/apps/{id}/pwa`) notes "opened" here, a few hundred bytes in localStorage, instead of loading
 * the database layer on an app's first visit (its JavaScript is budgeted). Whoever shows or
 * syncs the library first moves the entries in (library.ts `drainLibraryInbox`): the site on its
 * next page, or the installed app itself for someone signed in, whose data syncs anyway.
 */

const STORAGE_KEY = 'pipit:library-inbox';
/** One entry per person and app (entries merge), so this only bounds a pathological device. */
const MAX_ENTRIES = 500;

export interface InboxEntry {
  /** An account id, or `anonymous`. */
  owner: string;
  entry: LibraryEntry;
}

function read(): InboxEntry[] {
  try {
    const value = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: unknown) => {
      if (!item || typeof item !== 'object') return [];
      const { owner, entry } = item as { owner?: unknown; entry?: unknown };
      const parsed = parseLibraryEntry(entry);
      return typeof owner === 'string' && parsed ? [{ owner, entry: parsed }] : [];
    });
  } catch {
    return [];
  }
}

function write(entries: InboxEntry[]): void {
  if (entries.length === 0) localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, JSON.stringify(entries.slice(-MAX_ENTRIES)));
}

const sameKey = (a: InboxEntry, b: InboxEntry) =>
  a.owner === b.owner && a.entry.appId === b.entry.appId;

/** Notes a change to one app's entry for `owner`, merged with what is already waiting. */
export function queueLibraryEntry(owner: string, entry: LibraryEntry): void {
  try {
    const entries = read();
    const waiting = entries.find((item) => sameKey(item, { owner, entry }));
    const merged = waiting ? mergeLibraryEntry(waiting.entry, entry) : normalizeLibraryEntry(entry);
    write([...entries.filter((item) => item !== waiting), { owner, entry: merged }]);
  } catch (error) {
    // Storage unavailable or full: the app still runs; it is missing from the library only.
    console.warn('Could not add the app to your library:', error);
  }
}

/** What is waiting, oldest first. */
export function libraryInbox(): InboxEntry[] {
  return read();
}

/**
 * Takes out entries that were moved into the library — unless one changed again meanwhile (another
 * tab queued a newer open): that one stays for the next move.
 */
export function removeFromLibraryInbox(moved: InboxEntry[]): void {
  try {
    write(
      read().filter(
        (item) =>
          !moved.some((done) => sameKey(item, done) && sameLibraryEntry(item.entry, done.entry)),
      ),
    );
  } catch {
    // Left in place: moving an entry twice changes nothing (entries merge).
  }
}
