import {
  createVisitorRecord,
  readVisitorData,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
  type VisitorData,
} from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import type { RuntimeData } from '@pipit/runtime';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type * as Y from 'yjs';
import { openDeviceDocument } from './device-documents';
import { openDocument, type OpenDocument } from './documents';
import { sameSync, type SyncState } from './sync-state';
import {
  anonymousDataName,
  markAnonymousData,
  mergeAnonymousVisitorData,
} from './visitor-data-merge';

/**
 * A visitor's data for one app as the runtime uses it (SPEC §2, §5): signed in, the document
 * `data/{appId}/{userId}` on this device (IndexedDB, named after the document, so apps installed
 * side by side never share data), synced through the account's websocket; anonymous, `data/{appId}`
 * on this device only, merged into the account when the person signs in.
 */

export type VisitorDataSource =
  /** A published app: the account's synced document, or the anonymous one on this device. */
  | { kind: 'app'; appId: string; accountId: string | null }
  /** A document on this device only that never merges anywhere (the /demo1 showcase). */
  | { kind: 'device'; name: string };

export interface VisitorDataView {
  /** `loading` until this device's copy is read (rendering before would flash an empty app). */
  phase: 'loading' | 'ready';
  data: RuntimeData;
  /** `local` for data kept on this device only. */
  sync: SyncState;
}

interface Backing {
  doc: Y.Doc;
  whenLocal: Promise<void>;
  sync(): SyncState;
  subscribe(listener: () => void): () => void;
  release(): void;
}

const LOCAL: SyncState = { kind: 'local' };

function deviceBacking(name: string): Backing {
  const opened = openDeviceDocument(name);
  return {
    doc: opened.doc,
    whenLocal: opened.whenLocal,
    sync: () => LOCAL,
    subscribe: () => () => undefined,
    release: () => opened.release(),
  };
}

function accountBacking(opened: OpenDocument): Backing {
  return {
    doc: opened.doc,
    whenLocal: opened.whenLocal,
    sync: () => opened.sync(),
    subscribe: (listener) => opened.subscribe(listener),
    release: () => opened.release(),
  };
}

function backingFor(source: VisitorDataSource): Backing {
  if (source.kind === 'device') return deviceBacking(source.name);
  const { appId, accountId } = source;
  if (!accountId) {
    void markAnonymousData(appId);
    return deviceBacking(anonymousDataName(appId));
  }
  const opened = openDocument(
    documentName({ kind: 'data', appId, userId: accountId }),
    { kind: 'account', accountId },
    { connect: true },
  );
  // Signed in now, maybe for the first time since using the app anonymously on this device: the
  // anonymous records join the account's (it is a no-op when there are none).
  void opened.whenLocal.then(() => mergeAnonymousVisitorData(accountId, appId));
  return accountBacking(opened);
}

class VisitorDataStore {
  private view: VisitorDataView;
  private readonly listeners = new Set<() => void>();
  private loaded = false;
  private disposed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly backing: Backing) {
    this.view = this.compute(null);
    backing.doc.on('afterTransaction', this.onTransaction);
    this.unsubscribe = backing.subscribe(this.onSync);
    void backing.whenLocal.then(() => {
      this.loaded = true;
      this.update(true);
    });
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
    return { phase: this.loaded ? 'ready' : 'loading', data, sync: this.backing.sync() };
  }

  private readonly operations: Omit<RuntimeData, keyof VisitorData> = {
    create: (collection, values) => createVisitorRecord(this.backing.doc, collection, values),
    update: (collection, recordId, values) =>
      updateVisitorRecord(this.backing.doc, collection, recordId, values),
    remove: (recordId) => {
      removeVisitorRecord(this.backing.doc, recordId);
    },
    setCounter: (counterId, value) => setCounter(this.backing.doc, counterId, value),
  };

  private update(changed: boolean) {
    if (this.disposed) return;
    const next = this.compute(this.view, changed);
    if (
      next.data === this.view.data &&
      next.phase === this.view.phase &&
      sameSync(next.sync, this.view.sync)
    ) {
      return;
    }
    this.view = next;
    this.listeners.forEach((listener) => listener());
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getView = () => this.view;

  dispose() {
    this.disposed = true;
    this.backing.doc.off('afterTransaction', this.onTransaction);
    this.unsubscribe();
    this.backing.release();
  }
}

const sourceKey = (source: VisitorDataSource | null) =>
  !source
    ? ''
    : source.kind === 'device'
      ? `device|${source.name}`
      : `app|${source.appId}|${source.accountId ?? ''}`;

const refuse = () => {
  throw new Error('Your data is still loading. Try again in a moment.');
};

const LOADING_VIEW: VisitorDataView = {
  phase: 'loading',
  data: {
    records: [],
    counters: {},
    create: refuse,
    update: refuse,
    remove: refuse,
    setCounter: refuse,
  },
  sync: { kind: 'connecting', pending: 0 },
};

const idle = {
  subscribe: () => () => undefined,
  getView: () => LOADING_VIEW,
};

/**
 * The visitor's data for an app (null: nothing to open yet), read through useSyncExternalStore
 * (ENGINEERING.md habit 5). Switching account reopens it: signed out, the anonymous copy on this
 * device; signed in, the account's — with the anonymous records merged into it.
 */
export function useVisitorData(source: VisitorDataSource | null): VisitorDataView {
  const key = sourceKey(source);
  const [store, setStore] = useState<VisitorDataStore | null>(null);
  useEffect(() => {
    if (!source) return;
    const created = new VisitorDataStore(backingFor(source));
    setStore(created);
    return () => {
      created.dispose();
      setStore((current) => (current === created ? null : current));
    };
    // `source` is compared by its key, not by object identity.
  }, [key]);
  const active = useMemo(() => store ?? idle, [store]);
  return useSyncExternalStore(active.subscribe, active.getView, active.getView);
}
