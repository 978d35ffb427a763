import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { deviceDatabaseName } from '../core/document-names';

/**
 * Documents that live on this device only and never sync: an anonymous visitor's data for an app
 * (`data/{appId}`) and the showcase's (`data/demo1`). Like openDocument, exactly one Y.Doc and one
 * IndexedDB persistence per document in this tab however many components ask
 * (docs/library-notes.md#y-indexeddb) — but a document closes as soon as its last user lets go
 * (nothing is on its way to a server), so the anonymous copy can be deleted once it is merged into
 * an account.
 */

export interface DeviceDocument {
  readonly name: string;
  readonly doc: Y.Doc;
  /** Resolves once this device's copy is loaded into `doc`. */
  readonly whenLocal: Promise<void>;
  /** This device's copy is loaded into `doc` (`whenLocal` has resolved). */
  isLocal(): boolean;
  release(): void;
}

interface Entry {
  doc: Y.Doc;
  persistence: IndexeddbPersistence;
  whenLocal: Promise<void>;
  refs: number;
}

const entries = new Map<string, Entry>();

/** How long a document opened ahead waits for its first user before it closes. */
const AHEAD_MS = 10_000;

/** Documents opened ahead of their first user (openDeviceDocumentAhead): how to let them go. */
const ahead = new Map<string, { release(): void; timer: ReturnType<typeof setTimeout> }>();

function letGoAhead(name: string) {
  const held = ahead.get(name);
  if (!held) return;
  ahead.delete(name);
  clearTimeout(held.timer);
  held.release();
}

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
  // Its first user has it now: the hold taken ahead goes (so it closes when that user lets go).
  letGoAhead(name);
  let released = false;
  return {
    name,
    doc: opened.doc,
    whenLocal: opened.whenLocal,
    isLocal: () => opened.persistence.synced,
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

/**
 * Starts reading a document from this device before anything renders it (an installed app opens
 * its visitor's data while React starts, client/features/runtime-host/open-ahead.ts). It is held
 * until its first openDeviceDocument, or for ten seconds if nobody comes. Resolves once it is read.
 */
export function openDeviceDocumentAhead(name: string): Promise<void> {
  const open = entries.get(name);
  if (open) return open.whenLocal;
  const { release, whenLocal } = openDeviceDocument(name);
  ahead.set(name, { release, timer: setTimeout(() => letGoAhead(name), AHEAD_MS) });
  return whenLocal;
}

/**
 * The document, if it is open in this tab and this device's copy is loaded into it (opened ahead,
 * say), so it can be drawn at once; null otherwise. Opens nothing.
 */
export function loadedDeviceDocument(name: string): Y.Doc | null {
  const entry = entries.get(name);
  return entry?.persistence.synced ? entry.doc : null;
}

/** Whether some part of this tab has the document open now (held ahead counts). */
export function isDeviceDocumentOpen(name: string): boolean {
  return entries.has(name);
}

/**
 * Whether something in this tab uses the document: open, and not only held ahead for a user who
 * may never come (the installed app read an anonymous visitor's data ahead, and the server then
 * said someone is signed in).
 */
export function isDeviceDocumentInUse(name: string): boolean {
  const entry = entries.get(name);
  return entry !== undefined && entry.refs > (ahead.has(name) ? 1 : 0);
}
