import {
  createVisitorRecord,
  createVisitorRecords,
  readVisitorData,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
  writeVisitorData,
} from '@pipit/app-definition';
import type { MemoryWrite, RuntimeData } from '@pipit/runtime';
import * as Y from 'yjs';
import { loadedDeviceDocument, openDeviceDocument } from '../device/device-documents';
import { anonymousDataName } from '../core/document-names';
import { forgetHeldLater, heldOnDevice } from './held-changes';
import { dataCopyName } from './plain-copy';
import { keepPlainCopy } from './plain-copy-store';
import { sameSync } from '../core/sync-state';
import { ViewStore } from '../core/view-store';
import {
  type DataDocument,
  type DataOperations,
  type DataRole,
  LOADING_VIEW,
  LOCAL,
  NOBODY,
  type PresentPerson,
  REFUSE_WRITES,
  STILL_LOADING,
  type VisitorDataSource,
  type VisitorDataView,
} from './view';

/**
 * The Yjs side of a visitor's data (visitor-data.ts): the store over a document, for the cases that
 * have one — anonymous with data on this device, signed in, in a space — and the data an installed
 * app drew from the document before its store opened. Loaded when a visitor's data is opened from a
 * document, and not before: an installed app's first visit holds its visitor's first changes in
 * memory while this loads (first-visit.ts).
 */

/** The document a source reads, and what its case adds (view.ts, DataRole). */
async function openSource(source: VisitorDataSource): Promise<[DataDocument, DataRole?]> {
  if (source.kind === 'device') return [openDeviceDocument(source.name)];
  if (source.kind === 'space') {
    const { openSpaceData } = await import('./synced-data');
    const { document, role } = openSpaceData(source);
    return [document, role];
  }
  const { appId, accountId } = source;
  if (accountId) {
    const { openAccountVisitorData } = await import('./synced-data');
    return [
      openAccountVisitorData(appId, accountId),
      { plainCopy: dataCopyName(appId, accountId) },
    ];
  }
  return [
    openDeviceDocument(anonymousDataName(appId)),
    { ...markedAtFirstWrite(appId), plainCopy: dataCopyName(appId, null) },
  ];
}

/** Anonymous data is noted for the merge at sign-in once there is some (at the first write). */
function markedAtFirstWrite(appId: string): DataRole {
  let marked = false;
  return {
    beforeWrite() {
      if (marked) return;
      marked = true;
      import('./anonymous-data')
        .then(({ markAnonymousData }) => markAnonymousData(appId))
        .catch((error: unknown) => {
          marked = false; // the next change tries again
          console.warn('Could not note the data kept on this device for your account:', error);
        });
    },
  };
}

export class VisitorDataStore extends ViewStore<VisitorDataView> {
  private loaded = false;
  private disposed = false;
  private readonly unsubscribe: () => void;

  /** The data the page drew before this store opened, taken over (drawnData, below). */
  private readonly drawn: TakenOver | null;

  /** Resolves once this device's copy is read into the document. */
  readonly whenLocal: Promise<void>;

  constructor(
    private readonly document: DataDocument,
    private readonly role: DataRole = {},
  ) {
    super();
    this.loaded = document.isLocal();
    this.drawn = this.loaded ? takeOver(document.doc, this.operations) : null;
    this.view = this.drawn
      ? this.compute({ ...LOADING_VIEW, data: this.drawn.data }, false)
      : this.compute(null);
    document.doc.on('afterTransaction', this.onTransaction);
    this.unsubscribe = document.subscribe?.(this.onSync) ?? (() => undefined);
    this.whenLocal = document.whenLocal;
    if (this.loaded) this.keepCopy();
    // Loaded already, the view has the data: a change comes as a transaction.
    if (!this.loaded) {
      void document.whenLocal.then(() => {
        this.loaded = true;
        this.update(true);
      });
    }
  }

  private readonly onTransaction = (transaction: Y.Transaction) => {
    this.update(transaction.changed.size > 0);
  };

  private readonly onSync = () => this.update(false);

  /** A new `data` object after every change of the document, so React renders it. */
  private compute(previous: VisitorDataView | null, changed = true): VisitorDataView {
    const doc = this.document.doc;
    const data: RuntimeData =
      previous && !changed ? previous.data : { ...readVisitorData(doc), ...this.operations };
    const people = this.role.presence?.() ?? NOBODY;
    const presence = previous && samePeople(previous.presence, people) ? previous.presence : people;
    const sync = this.document.sync?.() ?? LOCAL;
    return { phase: this.loaded ? 'ready' : 'loading', data, sync, presence };
  }

  private readonly operations: DataOperations = {
    create: (collection, values) => {
      this.role.beforeWrite?.();
      const { authorId } = this.role;
      return createVisitorRecord(
        this.document.doc,
        collection,
        values,
        authorId ? { authorId } : {},
      );
    },
    createMany: (collection, rows) => {
      this.role.beforeWrite?.();
      const { authorId } = this.role;
      return createVisitorRecords(
        this.document.doc,
        collection,
        rows,
        authorId ? { authorId } : {},
      );
    },
    update: (collection, recordId, values) => {
      this.role.beforeWrite?.();
      return updateVisitorRecord(this.document.doc, collection, recordId, values);
    },
    remove: (recordId) => {
      this.role.beforeWrite?.();
      removeVisitorRecord(this.document.doc, recordId);
    },
    setCounter: (counterId, value) => {
      this.role.beforeWrite?.();
      return setCounter(this.document.doc, counterId, value);
    },
  };

  /**
   * A change made in memory before this store opened (visitor-data.ts, HeldDataStore), written as
   * it was made: the same record id, values and times.
   */
  write(change: MemoryWrite): void {
    const { doc } = this.document;
    this.role.beforeWrite?.();
    if (change.kind === 'create') writeVisitorData(doc, { records: [change.record], counters: {} });
    else if (change.kind === 'update') {
      const { collection, recordId, values, now } = change;
      updateVisitorRecord(doc, collection, recordId, values, { now });
    } else if (change.kind === 'remove') removeVisitorRecord(doc, change.recordId);
    else setCounter(doc, change.counterId, change.value);
  }

  private update(changed: boolean) {
    if (this.disposed) return;
    const next = this.compute(this.view, changed);
    if (
      next.data === this.view.data &&
      next.phase === this.view.phase &&
      next.presence === this.view.presence &&
      sameSync(next.sync, this.view.sync)
    ) {
      return;
    }
    this.publish(next);
    if (next.phase === 'ready') this.keepCopy();
  }

  /** What the document holds now, copied for the next start (plain-copy.ts). */
  private keepCopy() {
    const name = this.role.plainCopy;
    if (!name) return;
    // What the document has seen, and how many records it holds: a record removed adds nothing
    // to the state vector, but changes the count.
    const { records } = this.view.data;
    const version = `${records.length}:${Y.encodeStateVector(this.document.doc).join(',')}`;
    keepPlainCopy(name, this.view.data, version);
  }

  dispose() {
    this.disposed = true;
    this.drawn?.release();
    this.document.doc.off('afterTransaction', this.onTransaction);
    this.unsubscribe();
    this.role.onRelease?.();
    this.document.release();
  }
}

function samePeople(a: readonly PresentPerson[], b: readonly PresentPerson[]): boolean {
  return (
    a.length === b.length &&
    a.every((person, i) => person.id === b[i]?.id && person.name === b[i]?.name)
  );
}

/**
 * The store over the source's document (opened, or found open in this tab). An anonymous
 * visitor's gets the changes of a first visit noted on this device and not written yet
 * (held-changes.ts) once it is read, unless `leftovers` is false (the first visit writing its own).
 */
export async function openVisitorDataStore(
  source: VisitorDataSource,
  { leftovers = true }: { leftovers?: boolean } = {},
): Promise<VisitorDataStore> {
  const store = new VisitorDataStore(...(await openSource(source)));
  if (leftovers && source.kind === 'app' && !source.accountId) {
    const { appId } = source;
    void store.whenLocal.then(() => {
      const left = heldOnDevice(appId);
      if (left.length === 0) return;
      writeHeld(store, left);
      forgetHeldLater(appId);
    });
  }
  return store;
}

/** Changes held by a first visit, written into the document in order, as they were made. */
export function writeHeld(store: VisitorDataStore, changes: readonly MemoryWrite[]): void {
  for (const change of changes) {
    try {
      store.write(change);
    } catch (error) {
      // Checked against what the first visit held, a change can only fail here if the device had
      // data it could not see (a browser without indexedDB.databases() says it has).
      console.error('A change made while your data was opening could not be kept:', error);
    }
  }
}

/**
 * What shows until a store opens: a document of this device already loaded in this tab (an
 * installed app opens its visitor's data ahead, client/features/runtime-host/open-ahead.ts) is
 * drawn at once rather than as loading (null: nothing to draw); a change before the store has it
 * is refused with a message (a moment).
 */
export function drawnBeforeStore(name: string): VisitorDataView | null {
  const doc = loadedDeviceDocument(name);
  if (!doc) return null;
  return { ...LOADING_VIEW, phase: 'ready', data: drawnData(doc), sync: LOCAL };
}

export { openDeviceDocumentAhead } from '../device/device-documents';

/*
 * A visitor's data drawn from a document of this device before its store opened (an installed app
 * opens it ahead and draws it with its first render, visitor-data.ts `beforeStore`), and the store
 * taking that very object over when nothing changed in between: the app's tree, the page's largest,
 * then has nothing new to render when the store arrives (it rendered it all again, one
 * long task on a phone). One drawing per document while the document is unchanged.
 */

interface Drawing {
  data: RuntimeData;
  /** Where the drawn data's writes go: the store that took it over. */
  writes: DataOperations;
  /** The document changed after it was read: this drawing is out of date. */
  changed: boolean;
}

const drawings = new WeakMap<Y.Doc, Drawing>();

/** The visitor's data as the document holds it now: the same object while it is unchanged. */
export function drawnData(doc: Y.Doc): RuntimeData {
  const known = drawings.get(doc);
  if (known && !known.changed) return known.data;
  const drawing = { writes: REFUSE_WRITES, changed: false } as Drawing;
  drawing.data = {
    ...readVisitorData(doc),
    create: (collection, values) => drawing.writes.create(collection, values),
    createMany: (collection, rows) => {
      if (!drawing.writes.createMany) throw new Error(STILL_LOADING);
      return drawing.writes.createMany(collection, rows);
    },
    update: (collection, recordId, values) => drawing.writes.update(collection, recordId, values),
    remove: (recordId) => drawing.writes.remove(recordId),
    setCounter: (counterId, value) => drawing.writes.setCounter(counterId, value),
  };
  const onTransaction = (transaction: Y.Transaction) => {
    if (transaction.changed.size === 0) return;
    drawing.changed = true;
    doc.off('afterTransaction', onTransaction);
  };
  doc.on('afterTransaction', onTransaction);
  drawings.set(doc, drawing);
  return drawing.data;
}

export interface TakenOver {
  /** The object drawn: the store shows it until the document changes. */
  data: RuntimeData;
  /** The drawn object's writes are refused again (the store closed). */
  release(): void;
}

/**
 * The data drawn from `doc` if the document has not changed since, its writes going to `writes`
 * from now on; null when nothing was drawn or the document moved on (the store reads it afresh).
 */
export function takeOver(doc: Y.Doc, writes: DataOperations): TakenOver | null {
  const drawing = drawings.get(doc);
  if (!drawing || drawing.changed) return null;
  drawing.writes = writes;
  return {
    data: drawing.data,
    release: () => {
      if (drawing.writes === writes) drawing.writes = REFUSE_WRITES;
    },
  };
}
