import type { CheckpointKind } from '@pipit/protocol';

/** A checkpoint as stored, without its definition (docs/product/history.md). */
export interface CheckpointRecord {
  id: string;
  appId: string;
  kind: CheckpointKind;
  name: string | null;
  version: number | null;
  createdAt: number;
  /** Null for automatic checkpoints and once the account is deleted. */
  createdBy: { id: string; username: string; displayName: string } | null;
  /** Whose edits it holds (ids; the service names them). */
  authorIds: string[];
  /** `CheckpointChanges` as JSON. */
  changesJson: string;
  /** Of the definition's canonical JSON: an automatic checkpoint of an unchanged app is not made. */
  definitionHash: string;
  /** Stored bytes (the gzipped definition). */
  size: number;
}

export interface NewCheckpoint extends Omit<CheckpointRecord, 'createdBy'> {
  createdById: string | null;
  /** The definition's JSON, gzipped. */
  definition: Uint8Array;
}

/**
 * An app's checkpoints. A checkpoint's id is its app's: two apps may hold the same id (a device
 * chooses it), and nothing of one app's checkpoints is read or written through another's.
 */
export interface CheckpointStore {
  /** Stores it unless the app holds a checkpoint of its id; returns whether it was new. */
  insert(checkpoint: NewCheckpoint): Promise<boolean>;
  /** Newest first. */
  list(appId: string): Promise<CheckpointRecord[]>;
  get(appId: string, id: string): Promise<CheckpointRecord | null>;
  /** The newest checkpoint of an app, or null. */
  latest(appId: string): Promise<CheckpointRecord | null>;
  /** The gzipped definition, or null when no such checkpoint is the app's. */
  definition(appId: string, id: string): Promise<Uint8Array | null>;
  /** Removes these checkpoints of the app (thinning). */
  delete(appId: string, ids: string[]): Promise<void>;
}
