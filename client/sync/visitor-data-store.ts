import {
  createVisitorRecord,
  readVisitorData,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
  writeVisitorData,
} from '@pipit/app-definition';
import type { MemoryWrite, RuntimeData } from '@pipit/runtime';
import type * as Y from 'yjs';
import { loadedDeviceDocument, openDeviceDocument } from './device-documents';
import { anonymousDataName } from './document-names';
import { forgetHeldLater, heldOnDevice } from './held-changes';
import type { OpenDocument } from './documents';
import { sameSync } from './sync-state';
import { ViewStore } from './view-store';
import { drawnData, takeOver, type TakenOver } from './drawn-data';
import {
  type Backing,
  type DataOperations,
  LOADING_VIEW,
  LOCAL,
  NOBODY,
  type PresentPerson,
  type VisitorDataSource,
  type VisitorDataView,
} from './visitor-data-view';

/**
 * The Yjs side of a visitor's data (visitor-data.ts): the store over a document, and what backs it.
 * Loaded when a visitor's data is opened from a document — signed in, in a space, or when this
 * device already keeps some — and not before: an installed app's first visit holds its visitor's
 * first changes in memory while this loads (visitor-data.ts, HeldDataStore).
 */

function deviceBacking(name: string): Backing {
  const opened = openDeviceDocument(name);
  return {
    doc: opened.doc,
    whenLocal: opened.whenLocal,
    isLocal: () => opened.isLocal(),
    sync: () => LOCAL,
    subscribe: () => () => undefined,
    release: () => opened.release(),
  };
}

export function accountBacking(opened: OpenDocument): Backing {
  return {
    doc: opened.doc,
    whenLocal: opened.whenLocal,
    isLocal: () => opened.isLocal(),
    sync: () => opened.sync(),
    subscribe: (listener) => opened.subscribe(listener),
    release: () => opened.release(),
  };
}

/** Anonymous data is noted for the merge at sign-in once there is some (at the first write). */
function anonymousBacking(appId: string): Backing {
  let marked = false;
  return {
    ...deviceBacking(anonymousDataName(appId)),
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

async function backingFor(source: VisitorDataSource): Promise<Backing> {
  if (source.kind === 'device') return deviceBacking(source.name);
  if (source.kind === 'space') {
    const { spaceBacking } = await import('./space-data');
    return spaceBacking(source, accountBacking);
  }
  const { appId, accountId } = source;
  if (!accountId) return anonymousBacking(appId);
  const { openAccountVisitorData } = await import('./visitor-data-merge');
  return accountBacking(openAccountVisitorData(appId, accountId));
}

export class VisitorDataStore extends ViewStore<VisitorDataView> {
  private loaded = false;
  private disposed = false;
  private readonly unsubscribe: () => void;

  /** The data the page drew before this store opened, taken over (drawn-data.ts). */
  private readonly drawn: TakenOver | null;

  /** Resolves once this device's copy is read into the document. */
  readonly whenLocal: Promise<void>;

  constructor(private readonly backing: Backing) {
    super();
    this.loaded = backing.isLocal?.() ?? false;
    this.drawn = this.loaded ? takeOver(backing.doc, this.operations) : null;
    this.view = this.drawn
      ? this.compute({ ...LOADING_VIEW, data: this.drawn.data }, false)
      : this.compute(null);
    backing.doc.on('afterTransaction', this.onTransaction);
    this.unsubscribe = backing.subscribe(this.onSync);
    this.whenLocal = backing.whenLocal;
    // Loaded already, the view has the data: a change comes as a transaction.
    if (!this.loaded) {
      void backing.whenLocal.then(() => {
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
    const doc = this.backing.doc;
    const data: RuntimeData =
      previous && !changed ? previous.data : { ...readVisitorData(doc), ...this.operations };
    const people = this.backing.presence?.() ?? NOBODY;
    const presence = previous && samePeople(previous.presence, people) ? previous.presence : people;
    return { phase: this.loaded ? 'ready' : 'loading', data, sync: this.backing.sync(), presence };
  }

  private readonly operations: DataOperations = {
    create: (collection, values) => {
      this.backing.beforeWrite?.();
      const { authorId } = this.backing;
      return createVisitorRecord(
        this.backing.doc,
        collection,
        values,
        authorId ? { authorId } : {},
      );
    },
    update: (collection, recordId, values) => {
      this.backing.beforeWrite?.();
      return updateVisitorRecord(this.backing.doc, collection, recordId, values);
    },
    remove: (recordId) => {
      this.backing.beforeWrite?.();
      removeVisitorRecord(this.backing.doc, recordId);
    },
    setCounter: (counterId, value) => {
      this.backing.beforeWrite?.();
      return setCounter(this.backing.doc, counterId, value);
    },
  };

  /**
   * A change made in memory before this store opened (visitor-data.ts, HeldDataStore), written as
   * it was made: the same record id, values and times.
   */
  write(change: MemoryWrite): void {
    const { doc } = this.backing;
    this.backing.beforeWrite?.();
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
  }

  dispose() {
    this.disposed = true;
    this.drawn?.release();
    this.backing.doc.off('afterTransaction', this.onTransaction);
    this.unsubscribe();
    this.backing.release();
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
  const store = new VisitorDataStore(await backingFor(source));
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

export { openDeviceDocumentAhead } from './device-documents';
