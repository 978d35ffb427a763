import type { Avatar, StorageEngine } from '@pipit/protocol';

/** A person (SPEC §4). Times are epoch milliseconds. */
export interface UserRecord {
  id: string;
  username: string;
  email: string;
  emailVerifiedAt: number | null;
  pendingEmail: string | null;
  passwordHash: string;
  displayName: string;
  bio: string;
  avatar: Avatar;
  links: Array<{ label: string; url: string }>;
  pinnedAppIds: string[];
  createdAt: number;
  deletedAt: number | null;
}

export type NewUser = Pick<UserRecord, 'id' | 'username' | 'email' | 'passwordHash'> &
  Partial<Pick<UserRecord, 'displayName' | 'bio' | 'avatar' | 'links' | 'createdAt'>>;

export interface DocumentStore {
  /** The stored Yjs state of a document, or null when it was never stored. */
  load(name: string): Promise<Uint8Array | null>;
  /** Replaces the stored state (a full Yjs state update). */
  store(name: string, state: Uint8Array): Promise<void>;
  delete(name: string): Promise<void>;
}

export interface UserStore {
  insert(user: NewUser): Promise<UserRecord>;
  /** Case-insensitive; deleted accounts are not found. */
  findByUsername(username: string): Promise<UserRecord | null>;
}

/**
 * The one storage interface (ENGINEERING.md: src/storage). Two adapters implement it, SQLite and
 * PostgreSQL, and one contract suite (test/storage-contract.ts) runs against both.
 */
export interface Storage {
  readonly engine: StorageEngine;
  readonly documents: DocumentStore;
  readonly users: UserStore;
  /** Names of the applied migrations, oldest first. */
  appliedMigrations(): Promise<string[]>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A unique constraint was violated; `field` names the column when the engine says which. */
export class ConflictError extends Error {
  constructor(readonly field: string | undefined) {
    super(`Unique constraint violated${field ? ` on ${field}` : ''}`);
  }
}
