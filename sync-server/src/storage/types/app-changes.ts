import type { ChangeAuthorKind } from '@pipit/protocol';

/** One entity changed by one author, as one store of the app's document found it. */
export interface NewAppChange {
  id: string;
  appId: string;
  /** An `EntityChange`'s entity ('component', 'app', …) and its id. */
  entity: string;
  entityId: string;
  /** 'exists', or the entity's changed properties. */
  paths: string[];
  kind: ChangeAuthorKind;
  /** The person; null for an import. */
  authorId: string | null;
  /** When the server had it (UTC epoch ms). */
  at: number;
}

export interface AppChangeRecord extends Omit<NewAppChange, 'authorId'> {
  /** Null for an import and once the account is deleted. */
  author: { id: string; username: string; displayName: string } | null;
}

export interface AppChangeQuery {
  /** After this time (exclusive). */
  since?: number;
  /** Up to this time (inclusive). */
  until?: number;
  /** One entity's changes only. */
  entity?: { entity: string; id: string };
  limit: number;
}

/**
 * Who changed what in each app (docs/product/history.md#who-changed-what). Nothing of one app is
 * read or written through another's.
 */
export interface AppChangeStore {
  /** Adds entries; those of apps that no longer exist are left out. Answers how many were added. */
  add(changes: NewAppChange[]): Promise<number>;
  /** Newest first (by time, then id). */
  list(appId: string, query: AppChangeQuery): Promise<AppChangeRecord[]>;
  /** Deletes the app's oldest entries past the newest `keep`; answers how many went. */
  thin(appId: string, keep: number): Promise<number>;
}
