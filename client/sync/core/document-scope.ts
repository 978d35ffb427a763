import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { type DocumentScope, localDatabaseName } from './document-names';

/**
 * Whose copy of a document this device keeps, and the IndexedDB database it lives in. Apart from
 * documents.ts (which brings the websocket provider) so that documents kept on this device only
 * can be opened without loading the sync layer: an anonymous visitor never syncs.
 */

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
