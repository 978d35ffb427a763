/** An update appended to a document's durable log, in the order the server applied it. */
export interface LoggedUpdate {
  seq: number;
  update: Uint8Array;
}

/** What storage holds of a document: its snapshot and the logged updates not folded into it yet. */
export interface StoredDocument {
  snapshot: Uint8Array | null;
  log: LoggedUpdate[];
}

/**
 * What a document cannot outlive: its app (app and visitor-data documents), its person, or both;
 * or its shared space (space documents); a draft's, its app and the draft staying open.
 */
export interface DocumentOwner {
  appId?: string;
  userId?: string;
  spaceId?: string;
  /** With `appId`: a draft of the app (docs/product/drafts.md), stored only while it is open. */
  draftId?: string;
}

export interface DocumentStore {
  /** The stored snapshot of a document (without its update log), or null when it has none. */
  load(name: string): Promise<Uint8Array | null>;
  /** The snapshot and every logged update after it, read together. */
  loadWithLog(name: string): Promise<StoredDocument>;
  /**
   * Appends updates to their documents' logs in one transaction (one commit for a group of
   * updates) and returns their sequence numbers, in order. Durable when it resolves.
   */
  append(entries: Array<{ name: string; update: Uint8Array }>): Promise<number[]>;
  /**
   * Replaces the snapshot with a full Yjs state (a new document's first state, an import);
   * live documents are stored with `compact`.
   */
  store(name: string, state: Uint8Array): Promise<void>;
  /**
   * Folds what is stored into one snapshot, safely beside other instances doing the same for the
   * same document: in one transaction, holding the document's lock, reads the snapshot and every
   * logged update, calls `fold` with them — it returns the new snapshot, which must contain all
   * of them (a live document they were applied to) — writes it and drops exactly the logged
   * updates it read. Nothing another instance logged or stored meanwhile is overwritten or lost.
   * Logged updates `held` says the caller's document holds already are not read back, and are
   * dropped with the others. Resolves with the sequence numbers dropped.
   *
   * With `owner`, nothing is written once that app, person or space was deleted (checked under a lock
   * their deletion waits for): a deleted document is never brought back. Resolves `null` then.
   */
  compact(
    name: string,
    fold: (stored: StoredDocument) => Uint8Array,
    options?: { owner?: DocumentOwner; held?: (seq: number) => boolean },
  ): Promise<number[] | null>;
  /**
   * Who writes under each of `clients` (Yjs client ids) in the document: each one nobody has yet
   * becomes `userId`'s, atomically across instances (the first to claim it keeps it). Resolves
   * with the owner of every one of them. Claims made together go to storage together
   * (storage/kysely/batched.ts), the first of them keeping a client id two ask for.
   */
  claimClients(name: string, userId: string, clients: number[]): Promise<Map<number, string>>;
  /** The snapshot, the log and who writes under which client id. */
  delete(name: string): Promise<void>;
  /**
   * Every visitor-data document (`data/{appId}/{userId}`, snapshot and log) of one app, or of one
   * person across apps; or every draft's document of one app (`draft/{appId}/{draftId}`, open or
   * not). Throws on an id that is not an id (docs/architecture.md).
   */
  deleteData(of: { appId: string } | { userId: string } | { draftsOf: string }): Promise<void>;
}
