/** An update appended to a document's durable log, in the order the server applied it. */
export interface LoggedUpdate {
  seq: number;
  update: Uint8Array;
}

export interface DocumentStore {
  /** The stored snapshot of a document (without its update log), or null when it has none. */
  load(name: string): Promise<Uint8Array | null>;
  /** The snapshot and every logged update after it, read together. */
  loadWithLog(name: string): Promise<{ snapshot: Uint8Array | null; log: LoggedUpdate[] }>;
  /**
   * Appends updates to their documents' logs in one transaction (one commit for a group of
   * updates) and returns their sequence numbers, in order. Durable when it resolves.
   */
  append(entries: Array<{ name: string; update: Uint8Array }>): Promise<number[]>;
  /**
   * Replaces the snapshot (a full Yjs state update) and, in the same transaction, drops the logged
   * updates up to `compactedThrough` that the snapshot already contains.
   */
  store(name: string, state: Uint8Array, compactedThrough?: number): Promise<void>;
  /** The snapshot and the log. */
  delete(name: string): Promise<void>;
  /**
   * Every visitor-data document (`data/{appId}/{userId}`, snapshot and log) of one app, or of one
   * person across apps. Throws on an id that is not an id (docs/architecture.md).
   */
  deleteData(of: { appId: string } | { userId: string }): Promise<void>;
}
