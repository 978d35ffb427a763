import type { LibraryEntry } from './library-entry';

/**
 * A person's library (docs/product/routes.md `/apps`): the apps they opened, saved or installed.
 * Each device keeps its own copy (IndexedDB, so `/apps` works offline), and a signed-in person's
 * copies meet in their `user/{userId}` document (a Y.Map `library`, keyed by app id: `libraryMap`
 * of @pipit/app-definition), so the library follows them to their other devices. Two copies of an
 * entry merge field by field into the same result whatever the order (every time keeps its latest
 * value), so devices that exchange entries in any order agree — and a removal is a time too, so it
 * reaches every device instead of being brought back by the next one that still has the entry.
 */

const laterTime = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** The same fields in the same order, undefined left out: what is stored and compared. */
export function normalizeLibraryEntry(entry: LibraryEntry): LibraryEntry {
  const normal: LibraryEntry = {
    appId: entry.appId,
    title: entry.title,
    icon: entry.icon,
    author: entry.author,
    version: entry.version,
    openedAt: entry.openedAt,
  };
  if (entry.installedAt !== undefined) normal.installedAt = entry.installedAt;
  if (entry.savedAt !== undefined) normal.savedAt = entry.savedAt;
  if (entry.removedAt !== undefined) normal.removedAt = entry.removedAt;
  return normal;
}

export function sameLibraryEntry(a: LibraryEntry | null, b: LibraryEntry | null): boolean {
  if (a === null || b === null) return a === b;
  return JSON.stringify(normalizeLibraryEntry(a)) === JSON.stringify(normalizeLibraryEntry(b));
}

/** Which copy's listing (title, icon, author, version) is the newer one; a fixed rule on ties. */
function newerListing(a: LibraryEntry, b: LibraryEntry): LibraryEntry {
  if (a.openedAt !== b.openedAt) return a.openedAt > b.openedAt ? a : b;
  const versionA = a.version ?? 0;
  const versionB = b.version ?? 0;
  if (versionA !== versionB) return versionA > versionB ? a : b;
  // Same moment, same version, different words: any fixed order will do, as long as every device
  // picks the same one.
  return JSON.stringify(normalizeLibraryEntry(a)) >= JSON.stringify(normalizeLibraryEntry(b))
    ? a
    : b;
}

/**
 * Two copies of one app's entry as one: each time the latest of the two, the listing of the copy
 * opened last. Commutative, associative and idempotent.
 */
export function mergeLibraryEntry(a: LibraryEntry, b: LibraryEntry): LibraryEntry {
  if (a.appId !== b.appId) throw new Error('Only entries of the same app merge.');
  const listing = newerListing(a, b);
  return normalizeLibraryEntry({
    appId: a.appId,
    title: listing.title,
    icon: listing.icon,
    author: listing.author,
    version: listing.version,
    openedAt: Math.max(a.openedAt, b.openedAt),
    installedAt: laterTime(a.installedAt, b.installedAt),
    savedAt: laterTime(a.savedAt, b.savedAt),
    removedAt: laterTime(a.removedAt, b.removedAt),
  });
}

/** Two libraries as one, by app id (see mergeLibraryEntry). */
export function mergeLibraries(
  a: readonly LibraryEntry[],
  b: readonly LibraryEntry[],
): LibraryEntry[] {
  const byId = new Map<string, LibraryEntry>();
  for (const entry of [...a, ...b]) {
    const known = byId.get(entry.appId);
    byId.set(entry.appId, known ? mergeLibraryEntry(known, entry) : normalizeLibraryEntry(entry));
  }
  return [...byId.values()];
}

/** The last time the person opened, saved or installed the app. */
export function lastUsedAt(entry: LibraryEntry): number {
  return Math.max(entry.openedAt, entry.installedAt ?? 0, entry.savedAt ?? 0);
}

/** In the library: never removed, or used again after it was. */
export function isInLibrary(entry: LibraryEntry): boolean {
  return entry.removedAt === undefined || lastUsedAt(entry) > entry.removedAt;
}

/** What `/apps` lists: entries in the library, the one opened last first. */
export function listLibrary(entries: readonly LibraryEntry[]): LibraryEntry[] {
  return entries
    .filter(isInLibrary)
    .sort((a, b) => lastUsedAt(b) - lastUsedAt(a) || (a.appId < b.appId ? -1 : 1));
}

/**
 * Whether the server has a newer published version than the one showing: only a higher number
 * counts (an older answer, e.g. a cached copy, never replaces what is showing).
 */
export function isNewerVersion(server: number | null, showing: number | null): boolean {
  if (server === null) return false;
  return showing === null || server > showing;
}
