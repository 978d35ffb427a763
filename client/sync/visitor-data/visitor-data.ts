import { createMemoryDataStore, type MemoryDataStore, type MemoryWrite } from '@pipit/runtime';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { anonymousDataName, deviceKeeps } from '../core/document-names';
import { forgetHeldLater, heldOnDevice, noteHeld } from './held-changes';
import { openAccountDocumentAhead } from '../core/read-ahead';
import { ViewStore } from '../core/view-store';
import {
  copyBeingRead,
  dataCopyName,
  dropPlainCopyAhead,
  plainCopyAhead,
  readPlainCopyAhead,
} from './plain-copy';
import {
  LOADING_VIEW,
  LOCAL,
  NOBODY,
  REFUSE_WRITES,
  type VisitorDataSource,
  type VisitorDataView,
} from './view';
import type * as StoresModule from './document-store';
import type { VisitorDataStore } from './document-store';

/**
 * A visitor's data for one app as the runtime uses it (docs/architecture.md,
 * docs/product/app-definition.md). This module is where every case starts; each is a store the
 * hook below reads, and only the cases that need Yjs or the sync layer load them:
 *
 * 1. **Anonymous, first visit** (this device keeps nothing for the app yet, as an installed app's
 *    first start usually is): `HeldDataStore`, below, an empty store in memory. The app draws and
 *    takes input without Yjs; the first change starts opening `data/{appId}` on this device, every
 *    change is noted in localStorage until it is in that document (held-changes.ts), and the
 *    document's store takes over.
 * 2. **Anonymous, with data on this device**: `data/{appId}` in IndexedDB (named after the
 *    document, so apps installed side by side never share data), never synced: the store over the
 *    document (document-store.ts, with Yjs). An installed app opens it before its first render
 *    (`openVisitorDataAhead`) and draws it at once (document-store.ts, `drawnBeforeStore`).
 * 3. **Signed in**: the account's `data/{appId}/{userId}`, synced through the account's websocket
 *    (synced-data.ts, which loads the sync layer); the anonymous records of this device are merged
 *    into it at the first open after a sign-in.
 * 4. **In a space**: `space/{spaceId}`, synced the same way, records carrying their author, and who
 *    else is here now (synced-data.ts). app-data.ts combines it with the person's own data.
 *
 * What a store shows, and the types they share, are in view.ts; what the sync state means to the
 * person, in status.ts.
 */

/** What the hook reads: a store over a document, or the store of a first visit. */
interface Store {
  subscribe(listener: () => void): () => void;
  getView(): VisitorDataView;
  dispose(): void;
}

type Stores = typeof StoresModule;
let stores: Stores | null = null;

/** The stores over documents (document-store.ts, with Yjs), loaded once. */
export async function loadVisitorDataStores(): Promise<Stores> {
  stores ??= await import('./document-store');
  return stores;
}

/** How long a first visit waits before it tries again to open the document its changes go to. */
const RETRY_OPENING_MS = 5_000;
/** First visits writing their held changes into the document, by app: an account's open waits. */
const writingHeld = new Map<string, Promise<void>>();

/**
 * Whether this device keeps the anonymous visitor's data for the app: their document, or changes
 * of a first visit not written into it yet (held-changes.ts). `known`: whether the document is
 * there, as the service worker found as it served the page (device-start.ts).
 */
async function deviceKeepsData(appId: string, known?: boolean): Promise<boolean> {
  return heldOnDevice(appId).length > 0 || (known ?? deviceKeeps(anonymousDataName(appId)));
}

/**
 * An anonymous visitor's data while this device keeps none (an installed app's first visit): an
 * empty store in memory, checked by the same rules as the document (@pipit/runtime's memory
 * store), so the page needs no Yjs to show the app and take input. Their first change starts
 * opening the document on this device (loading Yjs); every change is kept in memory and in order
 * until it is open (and noted in localStorage, held-changes.ts), then written into it as it was
 * made (same ids, values and times), and the document's store takes over. Closing this store
 * before then still writes them.
 */
export class HeldDataStore extends ViewStore<VisitorDataView> implements Store {
  private readonly memory: MemoryDataStore;
  private readonly held: MemoryWrite[] = [];
  /** The document's store, once open and every held change is in it. */
  private lasting: VisitorDataStore | null = null;
  private opening: Promise<void> | null = null;
  private disposed = false;
  private stopListening: () => void = () => undefined;

  constructor(private readonly appId: string) {
    super();
    this.memory = createMemoryDataStore({}, { onWrite: (change) => this.wrote(change) });
    this.view = { phase: 'ready', data: this.memory.getSnapshot(), sync: LOCAL, presence: NOBODY };
  }

  /** What memory holds; "saving" while some of it is not stored on this device yet. */
  private showMemory() {
    if (this.lasting) return;
    const pending = this.held.length;
    this.publish({
      ...this.view,
      data: this.memory.getSnapshot(),
      sync: pending > 0 ? { kind: 'local', pending } : LOCAL,
    });
  }

  /** Resolves once the held changes are in the document (at once when there are none). */
  whenWritten(): Promise<void> {
    return this.opening ?? Promise.resolve();
  }

  private wrote(change: MemoryWrite) {
    // An object drawn before the document took over, used once more: its change goes on through.
    if (this.lasting) {
      this.lasting.write(change);
      return;
    }
    this.held.push(change);
    noteHeld(this.appId, this.held);
    // Memory has the change already (its store calls this after it committed).
    this.showMemory();
    this.startOpening();
  }

  private startOpening() {
    if (this.opening) return;
    const { appId } = this;
    this.opening = this.open().catch((error: unknown) => {
      // Its code could not load (the network went before the service worker had it, say): the
      // changes stay held, shown as not stored yet and noted in localStorage, and opening is
      // tried again in a moment. A browser may keep a failed import failed for the page's life;
      // the note is then written by the next open of the document.
      console.error('Could not keep your changes on this device yet:', error);
      this.opening = null;
      setTimeout(() => {
        if (this.held.length > 0) this.startOpening();
      }, RETRY_OPENING_MS);
    });
    const opening = this.opening;
    writingHeld.set(appId, opening);
    void opening.then(() => {
      if (writingHeld.get(appId) === opening) writingHeld.delete(appId);
    });
  }

  private async open() {
    const { appId } = this;
    const { openVisitorDataStore, writeHeld } = await loadVisitorDataStores();
    const store = await openVisitorDataStore(
      { kind: 'app', appId, accountId: null },
      { leftovers: false },
    );
    await store.whenLocal;
    // Noted for the merge into an account before a sign-in's open reads it (that waits for this).
    await import('./anonymous-data')
      .then(({ markAnonymousData }) => markAnonymousData(appId))
      .catch((error: unknown) =>
        console.warn('Could not note the data kept on this device for your account:', error),
      );
    // From here to the takeover nothing awaits: no change can come in between.
    writeHeld(store, this.held.splice(0));
    forgetHeldLater(appId, () => this.held.length === 0);
    if (this.disposed) {
      store.dispose();
      // A change through an object drawn before, after this: it is held and opens it again.
      this.opening = null;
      return;
    }
    this.lasting = store;
    this.stopListening();
    this.stopListening = store.subscribe(() => this.publish(store.getView()));
    this.publish(store.getView());
  }

  dispose() {
    this.disposed = true;
    this.stopListening();
    this.lasting?.dispose();
  }
}

/** First-visit stores made before the page's first render (openAnonymousDataAhead), by app. */
const heldAhead = new Map<string, HeldDataStore>();
/**
 * Apps whose anonymous data a store was opened for in this tab: one made ahead after that would
 * be too late, and could be out of date (its visitor may have changed something since).
 */
const openedFor = new Set<string>();
/** What openAnonymousDataAhead found the device keeps, for the store's open: asked once a start. */
const keepsAhead = new Map<string, Promise<boolean>>();

/**
 * Before an installed app's first render (client/features/runtime-host/open-ahead.ts): whether
 * this device keeps the anonymous visitor's data for the app. If it does, its document starts
 * opening; if not, the empty store of a first visit is made now, and the first render draws the
 * app with it rather than "Opening your data…". Resolves when the data can be drawn. `known`: as
 * for deviceKeepsData.
 */
export async function openAnonymousDataAhead(appId: string, known?: boolean): Promise<void> {
  const name = anonymousDataName(appId);
  const keeps = deviceKeepsData(appId, known);
  keepsAhead.set(appId, keeps);
  if (await keeps) {
    // As an account's (openVisitorDataAhead): a plain copy is drawn first, the document read after.
    if (await readPlainCopyAhead(dataCopyName(appId, null))) return;
    await (await loadVisitorDataStores()).openDeviceDocumentAhead(name);
  } else if (!heldAhead.has(appId) && !openedFor.has(appId)) {
    heldAhead.set(appId, new HeldDataStore(appId));
  }
}

/**
 * Before an installed app's first render: starts reading the visitor's data. Signed in (the account
 * last seen on this device), the account's document; anonymous, as openAnonymousDataAhead.
 * Resolves when an anonymous visitor's data can be drawn (an account's is not waited for).
 */
export async function openVisitorDataAhead(
  appId: string,
  accountId: string | null,
  deviceData?: boolean,
): Promise<void> {
  if (!accountId) return openAnonymousDataAhead(appId, deviceData);
  // With a plain copy of the data on this device, the first render draws it, and the document is
  // read after (when the store opens): read now, its records would hold the main thread before
  // that render (plain-copy.ts). Without one, the document starts reading at once.
  if (await readPlainCopyAhead(dataCopyName(appId, accountId))) return;
  openAccountDocumentAhead({ kind: 'data', appId, userId: accountId }, accountId);
}

/** The anonymous visitor's store made ahead for the source, if any. */
const heldAheadFor = (source: VisitorDataSource | null) =>
  source?.kind === 'app' && !source.accountId ? heldAhead.get(source.appId) : undefined;

/** Opens what the source's data is read from. */
async function openStore(source: VisitorDataSource): Promise<Store> {
  if (source.kind === 'app' && !source.accountId) {
    const { appId } = source;
    // The store made ahead is this one's, once: a later open asks the device again.
    const ahead = heldAhead.get(appId);
    const keeps = keepsAhead.get(appId) ?? deviceKeepsData(appId);
    heldAhead.delete(appId);
    keepsAhead.delete(appId);
    openedFor.add(appId);
    if (ahead) return ahead;
    if (!(await keeps)) return new HeldDataStore(appId);
  }
  // Signing in during a first visit: its changes go into this device's document first, so the
  // account's open merges them in.
  if (source.kind === 'app' && source.accountId) await writingHeld.get(source.appId);
  // A plain copy being read is drawn first: the document, read now, would hold the main thread.
  if (source.kind === 'app') await copyBeingRead(dataCopyName(source.appId, source.accountId));
  const { openVisitorDataStore } = await loadVisitorDataStores();
  return openVisitorDataStore(source);
}

const sourceKey = (source: VisitorDataSource | null) =>
  !source
    ? ''
    : source.kind === 'device'
      ? `device|${source.name}`
      : source.kind === 'space'
        ? `space|${source.spaceId}|${source.accountId}|${source.role ?? ''}`
        : `app|${source.appId}|${source.accountId ?? ''}`;

/** What the hook reads before a store opens. */
type Readable = Pick<Store, 'subscribe' | 'getView'>;

const idle: Readable = {
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
 * Until its store opens: the store of a first visit made ahead is the store already; a document of
 * this device loaded in this tab (opened ahead, document-store.ts `drawnBeforeStore`) is drawn
 * at once rather than as loading.
 */
function beforeStore(source: VisitorDataSource | null): Readable {
  const ahead = heldAheadFor(source);
  if (ahead) return ahead;
  const name = source && deviceNameOf(source);
  const view = (name && stores ? stores.drawnBeforeStore(name) : null) ?? copyView(source);
  if (view) return { subscribe: idle.subscribe, getView: () => view };
  // A copy still being read is drawn when it lands.
  const pending =
    source?.kind === 'app' ? copyBeingRead(dataCopyName(source.appId, source.accountId)) : null;
  if (!pending) return idle;
  return {
    subscribe: (listener) => {
      let live = true;
      void pending.then(() => live && listener());
      return () => {
        live = false;
      };
    },
    getView: () => copyView(source) ?? LOADING_VIEW,
  };
}

/** The view of each plain copy drawn, by copy: one object while it is drawn. */
const copyViews = new WeakMap<object, VisitorDataView>();

/**
 * A person's data for an app as its plain copy on this device holds it, read before the first render
 * (plain-copy.ts), until the document is read: drawn as the data, not as saved, and refusing a
 * change for that moment.
 */
function copyView(source: VisitorDataSource | null): VisitorDataView | null {
  if (source?.kind !== 'app') return null;
  const copy = plainCopyAhead(dataCopyName(source.appId, source.accountId));
  if (!copy) return null;
  let view = copyViews.get(copy);
  if (!view) {
    // An account's is not saved until its document says so; an anonymous one is this device's.
    const sync = source.accountId ? LOADING_VIEW.sync : LOCAL;
    view = { ...LOADING_VIEW, phase: 'ready', data: { ...copy, ...REFUSE_WRITES }, sync };
    copyViews.set(copy, view);
  }
  return view;
}

/**
 * A store whose document is still being read shows the plain copy drawn before it opened, if
 * there was one, rather than "Opening your data…"; once the document is read, the copy is not
 * drawn again.
 */
function withCopyWhileLoading(store: Store, source: VisitorDataSource | null): Readable {
  const copy = copyView(source);
  if (!copy || source?.kind !== 'app') return store;
  const name = dataCopyName(source.appId, source.accountId);
  return {
    subscribe: (listener) => store.subscribe(listener),
    getView: () => {
      const view = store.getView();
      if (view.phase !== 'loading') {
        dropPlainCopyAhead(name);
        return view;
      }
      return copy;
    },
  };
}

/**
 * The visitor's data for an app (null: nothing to open yet), read through useSyncExternalStore
 * (docs/README.md#conventions). Switching account reopens it: signed out, the anonymous copy on
 * this device; signed in, the account's — with the anonymous records merged into it.
 */
export function useVisitorData(source: VisitorDataSource | null): VisitorDataView {
  const key = sourceKey(source);
  const [store, setStore] = useState<Store | null>(null);
  useEffect(() => {
    if (!source) return;
    let created: Store | null = null;
    let cancelled = false;
    openStore(source).then(
      (opened) => {
        if (cancelled) {
          opened.dispose();
          return;
        }
        created = opened;
        setStore(opened);
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
  const active = useMemo(
    () => (store ? withCopyWhileLoading(store, source) : beforeStore(source)),
    [store, key],
  );
  return useSyncExternalStore(active.subscribe, active.getView, active.getView);
}
