import type { RecordFileKind } from '@pipit/protocol';

/**
 * A photo or file on records (docs/product/records.md#photos-and-files-on-records): kept once per
 * scope — the name of the document whose records refer to it, `data/{appId}/{userId}` or
 * `space/{spaceId}` — under the SHA-256 of the bytes the device sent.
 */
export interface RecordFileRecord {
  scope: string;
  /** 64 lowercase hex digits: the SHA-256 of the bytes as sent (a photo is kept encoded again). */
  hash: string;
  appId: string;
  /** The shared space it is in; null in a person's own data. */
  spaceId: string | null;
  /** Whose upload quota it counts against: the data's person, or the space's owner. */
  ownerId: string;
  uploadedBy: string;
  kind: RecordFileKind;
  contentType: string;
  bytes: Uint8Array;
  /** A photo's thumbnail (WebP); null for a file. */
  thumbnail: Uint8Array | null;
  width: number | null;
  height: number | null;
  createdAt: number;
}

/** A file without its bytes, and what it counts against the quota (its thumbnail's included). */
export type RecordFileInfo = Omit<RecordFileRecord, 'bytes' | 'thumbnail'> & { size: number };

export type RecordFileWrite =
  | { outcome: 'stored' | 'existing'; file: RecordFileInfo }
  | { outcome: 'over_quota' | 'scope_full' };

export interface RecordFileStore {
  /**
   * Stores a file unless its scope has it already (`existing`, nothing written: content-addressed,
   * so sending it again changes nothing). In one transaction holding the quota's owner (like
   * UploadStore.insertWithinQuota, and counted together with their uploads): refused when the
   * owner's bytes would pass `quotaBytes`, or the scope would hold more than `perScope` files.
   */
  insertWithinQuota(
    file: RecordFileRecord,
    limits: { quotaBytes: number; perScope: number },
  ): Promise<RecordFileWrite>;
  info(scope: string, hash: string): Promise<RecordFileInfo | null>;
  get(scope: string, hash: string): Promise<RecordFileRecord | null>;
  /** A scope's files, oldest first (an export carries them). */
  listForScope(scope: string): Promise<RecordFileRecord[]>;
  /**
   * Files stored before `before`, oldest first (then by scope and hash), after `after` when given:
   * what the sweep looks at, a page at a time.
   */
  storedBefore(
    before: number,
    limit: number,
    after?: { createdAt: number; scope: string; hash: string },
  ): Promise<Array<{ createdAt: number; scope: string; hash: string }>>;
  delete(scope: string, hashes: readonly string[]): Promise<number>;
  /** Every file of an app's data and spaces (the app is deleted). */
  deleteForApp(appId: string): Promise<void>;
  deleteForSpace(spaceId: string): Promise<void>;
  /** Every file of a person's own data, in every app (their account is deleted). */
  deleteForPersonData(userId: string): Promise<void>;
}
