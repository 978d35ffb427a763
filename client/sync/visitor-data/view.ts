import type { VisitorData } from '@pipit/app-definition';
import type { RuntimeData } from '@pipit/runtime';
import type * as Y from 'yjs';
import type { SyncState } from '../core/sync-state';

/*
 * What a visitor's data is read from and looks like (visitor-data.ts), shared by its stores: the
 * one over a document (document-store.ts, with Yjs) and the one of a first visit (first-visit.ts,
 * in memory). Nothing here loads Yjs.
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
  | {
      kind: 'space';
      spaceId: string;
      accountId: string;
      name: string;
      /** The person's role there as the device knows it: a new role opens the space afresh. */
      role?: string;
    };

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

/**
 * The document a store reads and writes: what openDocument (synced) and openDeviceDocument (this
 * device only) both give, taken as it is. A device's document has no sync state: it is `local`.
 */
export interface DataDocument {
  readonly doc: Y.Doc;
  readonly whenLocal: Promise<void>;
  /** This device's copy is already loaded (known at once: the store starts ready). */
  isLocal(): boolean;
  sync?(): SyncState;
  subscribe?(listener: () => void): () => void;
  release(): void;
}

/** What a case adds to its document (none for a device's or an account's own data). */
export interface DataRole {
  /** Called before each of the visitor's own changes. */
  beforeWrite?(): void;
  /** Records added here carry this author (a space's). */
  authorId?: string;
  /** Who else is here now (a space's members). */
  presence?(): PresentPerson[];
  /** Called when the store lets its document go. */
  onRelease?(): void;
  /**
   * The name a plain copy of the data is kept under on this device, drawn before the document is
   * read at the next start (plain-copy.ts): an account's own data.
   */
  plainCopy?: string;
}

/** The writes of a visitor's data (what a store adds to what it reads). */
export type DataOperations = Omit<RuntimeData, keyof VisitorData>;

export const STILL_LOADING = 'Your data is still loading. Try again in a moment.';

const refuse = () => {
  throw new Error(STILL_LOADING);
};

/** Writes before anything can take them: refused with a message (the moment is short). */
export const REFUSE_WRITES: DataOperations = {
  create: refuse,
  createMany: refuse,
  update: refuse,
  remove: refuse,
  setCounter: refuse,
};

export const NOBODY: readonly PresentPerson[] = [];

export const LOCAL: SyncState = { kind: 'local' };

export const LOADING_VIEW: VisitorDataView = {
  phase: 'loading',
  data: { records: [], counters: {}, ...REFUSE_WRITES },
  sync: { kind: 'connecting', pending: 0 },
  presence: NOBODY,
};
