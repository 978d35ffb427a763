/**
 * Where this device keeps each document: the IndexedDB database names of document-scope.ts and
 * device-documents.ts, and whether one exists, with neither Yjs nor y-indexeddb loaded. An
 * installed app's first visit asks here whether the visitor has data on this device before it
 * loads the code that opens it (visitor-data.ts).
 */

/** Whose copy: a signed-in account's (synced), or the demo's (this device only). */
export type DocumentScope = { kind: 'account'; accountId: string } | { kind: 'demo' };

export const scopeKey = (scope: DocumentScope) =>
  scope.kind === 'demo' ? 'demo' : `account:${scope.accountId}`;

/** The IndexedDB database of one document: per account, so a shared device keeps people apart. */
export const localDatabaseName = (scope: DocumentScope, name: string) =>
  `pipit:${scopeKey(scope)}:${name}`;

/** Documents of this device only are named as the demo's, which is also this device's only. */
const DEVICE_SCOPE: DocumentScope = { kind: 'demo' };

export const deviceDatabaseName = (name: string) => localDatabaseName(DEVICE_SCOPE, name);

/** An anonymous visitor's document for one app, kept on this device. */
export const anonymousDataName = (appId: string) => `data/${appId}`;

/**
 * Whether this device keeps a copy of a document of its own (device-documents.ts), asked of
 * IndexedDB's list of databases, which opens none. True when the browser cannot say (no
 * `indexedDB.databases()`, or it failed): the copy is then opened, as if it were there.
 */
export async function deviceKeeps(name: string): Promise<boolean> {
  if (typeof indexedDB === 'undefined' || typeof indexedDB.databases !== 'function') return true;
  try {
    const databases = await indexedDB.databases();
    return databases.some((database) => database.name === deviceDatabaseName(name));
  } catch {
    return true;
  }
}
