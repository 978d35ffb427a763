import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { type DocumentScope, localDatabaseName } from './document-scope';

/**
 * Documents that live on this device only and never sync: an anonymous visitor's data for an app
 * (`data/{appId}`) and the showcase's (`data/demo1`). Like openDocument, exactly one Y.Doc and one
 * IndexedDB persistence per document in this tab however many components ask
 * (docs/library-notes.md#y-indexeddb) — but a document closes as soon as its last user lets go
 * (nothing is on its way to a server), so the anonymous copy can be deleted once it is merged into
 * an account.
 */

/** Their databases are named as the demo's, which is also this device's only. */
const DEVICE_SCOPE: DocumentScope = { kind: 'demo' };

export const deviceDatabaseName = (name: string) => localDatabaseName(DEVICE_SCOPE, name);

/** An anonymous visitor's document for one app, kept on this device. */
export const anonymousDataName = (appId: string) => `data/${appId}`;

export interface DeviceDocument {
  readonly name: string;
  readonly doc: Y.Doc;
  /** Resolves once this device's copy is loaded into `doc`. */
  readonly whenLocal: Promise<void>;
  release(): void;
}

interface Entry {
  doc: Y.Doc;
  persistence: IndexeddbPersistence;
  whenLocal: Promise<void>;
  refs: number;
}

const entries = new Map<string, Entry>();

export function openDeviceDocument(name: string): DeviceDocument {
  let entry = entries.get(name);
  if (!entry) {
    const doc = new Y.Doc();
    const persistence = new IndexeddbPersistence(deviceDatabaseName(name), doc);
    entry = { doc, persistence, whenLocal: persistence.whenSynced.then(() => undefined), refs: 0 };
    entries.set(name, entry);
  }
  const opened = entry;
  opened.refs += 1;
  let released = false;
  return {
    name,
    doc: opened.doc,
    whenLocal: opened.whenLocal,
    release() {
      if (released) return;
      released = true;
      opened.refs -= 1;
      if (opened.refs > 0) return;
      entries.delete(name);
      // Closing waits for the writes already queued (IndexedDB finishes open transactions).
      void opened.persistence.destroy();
      opened.doc.destroy();
    },
  };
}

/** Whether some part of this tab has the document open now. */
export function isDeviceDocumentOpen(name: string): boolean {
  return entries.has(name);
}
