import {
  createVisitorRecord,
  readVisitorData,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
} from '@pipit/app-definition';
import type { RuntimeData } from '@pipit/runtime';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { anonymousDataName, loadedDeviceDocument, openDeviceDocument } from './device-documents';
import type { OpenDocument } from './documents';
import { sameSync, type SyncState } from './sync-state';
import { ViewStore } from './view-store';
import {
  type DataOperations,
  drawnData,
  REFUSE_WRITES,
  type TakenOver,
  takeOver,
} from './drawn-data';

/**
 * A visitor's data for one app as the runtime uses it (docs/architecture.md,
 * docs/product/app-definition.md): signed in, the document `data/{appId}/{userId}` on this device
 * (IndexedDB, named after the document, so apps installed side by side never share data), synced
 * through the account's websocket; anonymous, `data/{appId}` on this device only, merged into the
 * account when the person signs in. An anonymous visitor never syncs, so the sync layer (the
 * websocket provider) loads only for a signed-in visitor.
 */

export type VisitorDataSource =
  /** A published app: the account's synced document, or the anonymous one on this device. */
  | { kind: 'app'; appId: string; accountId: string | null }
  /** A document on this device only that never merges anywhere (the /demo1 showcase). */
  | { kind: 'device'; name: string }
  /**
   * A shared space's records (docs/product/spaces.md), synced; records added here carry the
   * account as their author, and the person shows as here now under `name`.
   */
  | { kind: 'space'; spaceId: string; accountId: string; name: string };

export interface VisitorDataView {
  /** `loading` until this device's copy is read (rendering before would flash an empty app). */
  phase: 'loading' | 'ready';
  data: RuntimeData;
  /** `local` for data kept on this device only. */
  sync: SyncState;
  /** Who else has the document open now (a space's members), by account; empty elsewhere. */
  presence: readonly PresentPerson[];
}

export interface PresentPerson {
  id: string;
  name: string;
}

export interface Backing {
  doc: Y.Doc;
  whenLocal: Promise<void>;
  /** This device's copy is already loaded (known at once: the store starts ready). */
  isLocal?(): boolean;
  sync(): SyncState;
  subscribe(listener: () => void): () => void;
  /** Called before each of the visitor's own changes. */
  beforeWrite?(): void;
  /** Records added here carry this author (a space's). */
  authorId?: string;
  /** Who else is here now (a space's members). */
  presence?(): PresentPerson[];
  release(): void;
}

const NOBODY: readonly PresentPerson[] = [];

const LOCAL: SyncState = { kind: 'local' };

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

class VisitorDataStore extends ViewStore<VisitorDataView> {
  private loaded = false;
  private disposed = false;
  private readonly unsubscribe: () => void;

  /** The data the page drew before this store opened, taken over (drawn-data.ts). */
  private readonly drawn: TakenOver | null;

  constructor(private readonly backing: Backing) {
    super();
    this.loaded = backing.isLocal?.() ?? false;
    this.drawn = this.loaded ? takeOver(backing.doc, this.operations) : null;
    this.view = this.drawn
      ? this.compute({ ...LOADING_VIEW, data: this.drawn.data }, false)
      : this.compute(null);
    backing.doc.on('afterTransaction', this.onTransaction);
    this.unsubscribe = backing.subscribe(this.onSync);
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

const sourceKey = (source: VisitorDataSource | null) =>
  !source
    ? ''
    : source.kind === 'device'
      ? `device|${source.name}`
      : source.kind === 'space'
        ? `space|${source.spaceId}|${source.accountId}`
        : `app|${source.appId}|${source.accountId ?? ''}`;

const LOADING_VIEW: VisitorDataView = {
  phase: 'loading',
  data: { records: [], counters: {}, ...REFUSE_WRITES },
  sync: { kind: 'connecting', pending: 0 },
  presence: NOBODY,
};

const idle = {
  subscribe: () => () => undefined,
  getView: () => LOADING_VIEW,
};

/** The document on this device only that a source reads (null: an account's or a space's). */
function deviceNameOf(source: VisitorDataSource): string | null {
  if (source.kind === 'device') return source.name;
  if (source.kind === 'app' && !source.accountId) return anonymousDataName(source.appId);
  return null;
}

/**
 * Until its store opens: a document of this device already loaded in this tab (an installed app
 * opens its visitor's data ahead, client/features/runtime-host/open-ahead.ts) is drawn at once
 * rather than as loading; a change before the store has it is refused with a message (a moment).
 */
function beforeStore(source: VisitorDataSource | null): typeof idle {
  const name = source && deviceNameOf(source);
  const doc = name ? loadedDeviceDocument(name) : null;
  if (!doc) return idle;
  const view: VisitorDataView = {
    ...LOADING_VIEW,
    phase: 'ready',
    data: drawnData(doc),
    sync: LOCAL,
  };
  return { subscribe: idle.subscribe, getView: () => view };
}

/**
 * The visitor's data for an app (null: nothing to open yet), read through useSyncExternalStore
 * (docs/README.md#conventions). Switching account reopens it: signed out, the anonymous copy on
 * this device; signed in, the account's — with the anonymous records merged into it.
 */
export function useVisitorData(source: VisitorDataSource | null): VisitorDataView {
  const key = sourceKey(source);
  const [store, setStore] = useState<VisitorDataStore | null>(null);
  useEffect(() => {
    if (!source) return;
    let created: VisitorDataStore | null = null;
    let cancelled = false;
    backingFor(source).then(
      (backing) => {
        if (cancelled) {
          backing.release();
          return;
        }
        created = new VisitorDataStore(backing);
        setStore(created);
      },
      (error: unknown) => console.error('Could not open your data for this app:', error),
    );
    return () => {
      cancelled = true;
      const mine = created;
      if (!mine) return;
      mine.dispose();
      setStore((current) => (current === mine ? null : current));
    };
    // `source` is compared by its key, not by object identity.
  }, [key]);
  // `source` is compared by its key.
  const active = useMemo(() => store ?? beforeStore(source), [store, key]);
  return useSyncExternalStore(active.subscribe, active.getView, active.getView);
}
