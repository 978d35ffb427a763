import type { SuggestionStatus } from '@pipit/protocol';

type Person = { id: string; username: string; displayName: string };

/** A suggestion as stored, without its definitions (docs/product/ai-builder.md). */
export interface SuggestionRecord {
  id: string;
  appId: string;
  asked: string;
  summary: string[];
  earlier: Array<{ instruction: string; summary: string[] }>;
  status: SuggestionStatus;
  createdAt: number;
  createdBy: Person | null;
  closedAt: number | null;
  closedBy: Person | null;
}

export interface NewSuggestion {
  id: string;
  appId: string;
  asked: string;
  summary: string[];
  earlier: Array<{ instruction: string; summary: string[] }>;
  /** The definitions' JSON, gzipped. */
  base: Uint8Array;
  proposed: Uint8Array;
  createdById: string;
  createdAt: number;
}

/**
 * Ask AI's suggestions kept for review. A suggestion's id is its app's (a device chooses it);
 * nothing of one app's is read or written through another's.
 */
export interface SuggestionStore {
  /**
   * Stores it unless the app holds one of its id, and only while the app's open ones number
   * fewer than `limits.count` and, with this one, hold at most `limits.bytes` (its definitions'
   * bytes); answers 'stored', 'exists' or 'full'.
   */
  insert(
    suggestion: NewSuggestion,
    limits: { count: number; bytes: number },
  ): Promise<'stored' | 'exists' | 'full'>;
  /** The app's suggestions of a status, newest first. */
  list(appId: string, status: SuggestionStatus): Promise<SuggestionRecord[]>;
  get(appId: string, id: string): Promise<SuggestionRecord | null>;
  /** The gzipped definitions, or null when no such suggestion is the app's. */
  definitions(
    appId: string,
    id: string,
  ): Promise<{ base: Uint8Array; proposed: Uint8Array } | null>;
  /**
   * Closes an open suggestion, emptying its definitions; false when it is not open (closed by
   * someone else first, or not the app's). Closed ones past the newest `keepClosed` are deleted.
   */
  close(
    appId: string,
    id: string,
    outcome: Exclude<SuggestionStatus, 'open'>,
    byId: string,
    at: number,
    keepClosed: number,
  ): Promise<boolean>;
}
