import type { DraftStatus } from '@pipit/protocol';

type Person = { id: string; username: string; displayName: string };

/** A draft of an app as stored, without its base (docs/product/drafts.md). */
export interface DraftRecord {
  id: string;
  appId: string;
  name: string;
  status: DraftStatus;
  createdAt: number;
  createdBy: Person | null;
  baseAt: number;
  closedAt: number | null;
  closedBy: Person | null;
}

export interface NewDraft {
  id: string;
  appId: string;
  name: string;
  /** The app's definition it began from: JSON, gzipped. */
  base: Uint8Array;
  createdById: string;
  createdAt: number;
}

/**
 * Drafts of an app. A draft's id is its app's (a device chooses it); nothing of one app's is read
 * or written through another's.
 */
export interface DraftStore {
  /**
   * Stores it unless the app holds one of its id (answered 'exists', whatever its status), and only
   * while the app's open drafts number fewer than `openLimit` ('full').
   */
  insert(draft: NewDraft, openLimit: number): Promise<'stored' | 'exists' | 'full'>;
  /** The app's open drafts, newest first, then its newest closed ones. */
  list(appId: string): Promise<DraftRecord[]>;
  get(appId: string, id: string): Promise<DraftRecord | null>;
  /** An open draft's gzipped base, or null when there is no such open draft of the app. */
  base(appId: string, id: string): Promise<Uint8Array | null>;
  /** Renames an open draft, or gives it a new base taken in at `at`; false when it is not open. */
  update(
    appId: string,
    id: string,
    change: { name?: string; base?: { bytes: Uint8Array; at: number } },
  ): Promise<boolean>;
  /**
   * Closes an open draft, emptying its base; false when it is not open (closed by someone else
   * first, or not the app's). Closed ones past the newest `keepClosed` are deleted.
   */
  close(
    appId: string,
    id: string,
    outcome: Exclude<DraftStatus, 'open'>,
    byId: string,
    at: number,
    keepClosed: number,
  ): Promise<boolean>;
}
