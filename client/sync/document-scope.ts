import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';

/**
 * Whose copy of a document this device keeps, and the IndexedDB database it lives in. Apart from
 * documents.ts (which brings the websocket provider) so that documents kept on this device only
 * can be opened without loading the sync layer: an anonymous visitor never syncs.
 */

/** Whose copy: a signed-in account's (synced), or the demo's (this device only). */
export type DocumentScope = { kind: 'account'; accountId: string } | { kind: 'demo' };

export const scopeKey = (scope: DocumentScope) =>
  scope.kind === 'demo' ? 'demo' : `account:${scope.accountId}`;

/** The IndexedDB database of one document: per account, so a shared device keeps people apart. */
export const localDatabaseName = (scope: DocumentScope, name: string) =>
  `pipit:${scopeKey(scope)}:${name}`;

/** Writes `state` into this device's copy of a document and waits until it is stored. */
export async function writeLocalCopy(
  scope: DocumentScope,
  name: string,
  state: Uint8Array,
): Promise<void> {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  // y-indexeddb writes the document's whole state when it opens, in the transaction `whenSynced`
  // waits for: once it resolves, the state is on disk, whatever happens to the page next.
  const persistence = new IndexeddbPersistence(localDatabaseName(scope, name), doc);
  await persistence.whenSynced;
  await persistence.destroy();
  doc.destroy();
}
