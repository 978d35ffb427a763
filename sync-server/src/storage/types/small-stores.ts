export interface RateLimitStore {
  /**
   * Counts one event (or `amount`: bytes for a byte budget) under `key` in a fixed window of
   * `windowMs`, atomically across instances that share the database. Returns the count including
   * this event and when the window ends. No window is longer than a day.
   */
  hit(
    key: string,
    windowMs: number,
    now: number,
    amount?: number,
  ): Promise<{ count: number; resetAt: number }>;
  /** The count in `key`'s current window (0 when it has none or it ended), counting nothing. */
  peek(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
}

export interface HumanCheckStore {
  /** Records a challenge as used; false when it already was (a replay). Prunes expired entries now and then. */
  consume(signature: string, expiresAt: number, now: number): Promise<boolean>;
}

export interface SecretStore {
  /** The named secret, created once (by whichever instance gets there first) and shared by all. */
  getOrCreate(name: string, create: () => string): Promise<string>;
}

export interface MessageRecord {
  id: string;
  kind: 'contact' | 'feedback';
  userId: string | null;
  email: string | null;
  body: string;
  page: string | null;
  createdAt: number;
}

export interface MessageStore {
  insert(message: MessageRecord): Promise<void>;
  list(limit: number): Promise<MessageRecord[]>;
}

export interface UploadRecord {
  id: string;
  /** Whose upload quota it counts against: the uploader's, or the app's owner for an app image. */
  userId: string;
  contentType: string;
  bytes: Uint8Array;
  createdAt: number;
  /** The app an image was uploaded to (deleted with it); null or absent for an avatar. */
  appId?: string | null;
}

export interface UploadStore {
  /**
   * Stores an upload whatever the quota (tests fill a quota with it). Its id is registered for
   * good: an id used before, its upload deleted or not, is refused (a unique violation).
   */
  insert(upload: UploadRecord): Promise<void>;
  /**
   * Stores an upload only when the bytes counted against its `userId`, this upload's included,
   * fit in `quotaBytes`; false, storing nothing, when they do not. The sum and the insert are one
   * transaction holding that person (docs/product/quotas.md): requests sent together take turns,
   * and no two of them find room in the same bytes. The id is registered as `insert` does.
   */
  insertWithinQuota(upload: UploadRecord, quotaBytes: number): Promise<boolean>;
  get(id: string): Promise<UploadRecord | null>;
  /** The ids of an app's uploaded images, oldest first. */
  idsForApp(appId: string): Promise<string[]>;
  delete(id: string): Promise<void>;
  deleteForUser(userId: string): Promise<void>;
  totalBytesForUser(userId: string): Promise<number>;
}

/** One backup the server made on its schedule (docs/operations.md#scheduled-backups). */
export interface BackupRun {
  id: string;
  /** The instance that made it (INSTANCE_NAME). */
  instance: string;
  startedAt: number;
  finishedAt: number;
  status: 'done' | 'failed';
  /** The file it wrote, for a done one. */
  file: string | null;
  bytes: number | null;
  rows: number | null;
  /** What restoring it into a scratch database found; null when no drill ran. */
  drill: 'restored' | 'failed' | null;
  /** Why it or its drill failed, in the operator's words. */
  message: string | null;
}

export interface BackupRunStore {
  /** Keeps the run, and only the newest `BACKUP_RUNS_KEPT` of them. */
  record(run: BackupRun): Promise<void>;
  /** The newest first. */
  recent(limit: number): Promise<BackupRun[]>;
}

/** One instance's latest figures (docs/operations.md#the-operators-view). */
export interface InstanceStatus {
  name: string;
  version: string;
  startedAt: number;
  seenAt: number;
  sockets: number;
  documents: number;
  rssBytes: number;
  heapBytes: number;
  /** HTTP responses in the `windowMs` before `seenAt`, and those with a 5xx status. */
  windowMs: number;
  requests: number;
  serverErrors: number;
}

export interface InstanceStore {
  /** Writes the instance's figures over its last ones; rows unwritten since `forgetBefore` go. */
  beat(status: InstanceStatus, forgetBefore: number): Promise<void>;
  /** Every instance that wrote since `since`, by name. */
  list(since: number): Promise<InstanceStatus[]>;
  /** The database's size now, in bytes (SQLite: its pages; PostgreSQL: the database). */
  databaseBytes(): Promise<number>;
  /** Keeps `bytes` as the size on the UTC day starting at `day`; days before `forgetBefore` go. */
  recordSize(day: number, bytes: number, forgetBefore: number): Promise<void>;
  /** The oldest size kept from `since` on, or null. */
  sizeSince(since: number): Promise<{ day: number; bytes: number } | null>;
}
