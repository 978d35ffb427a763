import type {
  AppIcon,
  AppRole,
  Avatar,
  CollaboratorRole,
  ReportDropReason,
  StorageEngine,
  Visibility,
} from '@pipit/protocol';

/** A person (docs/product/records.md). Times are epoch milliseconds. */
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
  Partial<
    Pick<UserRecord, 'displayName' | 'bio' | 'avatar' | 'links' | 'createdAt' | 'emailVerifiedAt'>
  >;

export type UserPatch = Partial<
  Pick<
    UserRecord,
    | 'username'
    | 'email'
    | 'emailVerifiedAt'
    | 'pendingEmail'
    | 'passwordHash'
    | 'displayName'
    | 'bio'
    | 'avatar'
    | 'links'
    | 'pinnedAppIds'
  >
>;

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

export interface UserStore {
  /** Throws ConflictError('username' | 'email') when either is taken. */
  insert(user: NewUser): Promise<UserRecord>;
  /** Case-insensitive; deleted accounts are not found. */
  findByUsername(username: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  findById(id: string): Promise<UserRecord | null>;
  /** The live accounts among `ids`, by id (one query for a list of people). */
  findByIds(ids: string[]): Promise<Map<string, UserRecord>>;
  /**
   * Changes the given fields of a live account; ConflictError('username' | 'email') when either is
   * taken, a username also while it is held for another account. A new username puts the old one
   * on hold from `at`, like a deleted account's; taking back a name the account itself holds ends
   * that hold.
   */
  update(id: string, patch: UserPatch, at?: number): Promise<UserRecord>;
  /**
   * Deletes an account: personal data is wiped and the email freed at once; the username is held
   * from `at` until it is released.
   */
  markDeleted(id: string, at: number): Promise<void>;
  /**
   * Ends the hold on `username` if it began at or before `heldBefore` (the name was given up by a
   * rename or a deletion then). Returns whether a hold ended.
   */
  releaseUsername(username: string, heldBefore: number): Promise<boolean>;
  /**
   * Whether a live account has this username, or it is held for an account other than `asker` (a
   * name someone gave up is still theirs to take back).
   */
  usernameInUse(username: string, asker?: string): Promise<boolean>;
}

/** An account that sees the operator's inbox, since `addedAt`. */
export interface OperatorRecord {
  userId: string;
  addedAt: number;
}

/** Operators are accounts, by id: a rename or a name taken over never moves the role. */
export interface OperatorStore {
  /** Returns false, changing nothing, when the account already is one. */
  add(userId: string, at: number): Promise<boolean>;
  /** Returns whether it was one. */
  remove(userId: string): Promise<boolean>;
  has(userId: string): Promise<boolean>;
  /** Oldest first. */
  list(): Promise<OperatorRecord[]>;
}

export interface SessionRecord {
  id: string;
  secretHash: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  userAgent: string | null;
  ip: string | null;
}

export interface SessionStore {
  insert(session: SessionRecord): Promise<void>;
  findById(id: string): Promise<SessionRecord | null>;
  listForUser(userId: string): Promise<SessionRecord[]>;
  touch(id: string, lastSeenAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** Deletes every session of a user, but `exceptId`; returns the ids deleted. */
  deleteForUser(userId: string, exceptId?: string): Promise<string[]>;
}

export type TokenKind = 'verify_email' | 'reset_password' | 'change_email';

export interface NewToken {
  hash: string;
  kind: TokenKind;
  userId: string;
  /** The address the token is about (verification, the new address of an email change). */
  email: string | null;
  createdAt: number;
  expiresAt: number;
}

export type TokenUse =
  | { outcome: 'consumed'; userId: string; email: string | null }
  | { outcome: 'invalid' | 'expired' | 'used' };

export interface TokenStore {
  insert(token: NewToken): Promise<void>;
  /** Reads a token without using it; `consume` is what makes it count. */
  find(hash: string): Promise<(NewToken & { usedAt: number | null }) | null>;
  /**
   * Marks a token used and returns whose it is — exactly once, even when several requests race:
   * the first one consumes it, every other one is told it was used.
   */
  consume(hash: string, kind: TokenKind, now: number): Promise<TokenUse>;
  /**
   * Makes every unused token of that kind for the user unusable (a new link replaces old ones);
   * every kind when `kind` is null.
   */
  revokeForUser(userId: string, kind: TokenKind | null, now: number): Promise<void>;
}

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
  userId: string;
  contentType: string;
  bytes: Uint8Array;
  createdAt: number;
}

export interface UploadStore {
  insert(upload: UploadRecord): Promise<void>;
  get(id: string): Promise<UploadRecord | null>;
  delete(id: string): Promise<void>;
  deleteForUser(userId: string): Promise<void>;
  totalBytesForUser(userId: string): Promise<number>;
}

/** An app's row (docs/product/records.md); its definition lives in the `app/{id}` document. */
export interface AppRecord {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  icon: AppIcon | null;
  tags: string[];
  visibility: 'private' | 'unlisted' | 'public';
  archivedAt: number | null;
  /** A remix: the app and the published version it copied. */
  forkedFrom: string | null;
  forkedFromVersion: number | null;
  /** The version visitors are served, and since when; both null while not published. */
  publishedVersion: number | null;
  publishedAt: number | null;
  /** Visitors who opened / installed it, each counted once while remembered (app_events). */
  opens: number;
  installs: number;
  createdAt: number;
  updatedAt: number;
}

export type NewApp = Pick<AppRecord, 'id' | 'ownerId' | 'title' | 'description' | 'icon'> & {
  createdAt: number;
  forkedFrom?: { appId: string; version: number } | null;
};

export interface AppListing {
  title: string;
  description: string;
  icon: AppIcon | null;
  tags: string[];
  updatedAt: number;
}

export interface CollaboratorRecord {
  appId: string;
  userId: string;
  role: CollaboratorRole;
  invitedBy: string;
  addedAt: number;
}

export interface AppStore {
  /**
   * Inserts the app unless its id exists; returns the row either way and whether it was new, or
   * `deleted` when the id belonged to an app deleted forever (its id is never used again).
   */
  insert(app: NewApp): Promise<{ app: AppRecord; created: boolean } | { deleted: true }>;
  /** Whether an app of this id was deleted forever. */
  wasDeleted(id: string): Promise<boolean>;
  get(id: string): Promise<AppRecord | null>;
  /** Apps a person owns or collaborates on, with their role, newest change first. */
  listForUser(userId: string): Promise<Array<AppRecord & { role: AppRole }>>;
  countOwned(ownerId: string): Promise<number>;
  /** The listing fields, as read from the stored document. */
  updateListing(id: string, listing: AppListing): Promise<void>;
  /**
   * Archives the app at `at`, or restores it (null): the owner's alone, so it is server state,
   * never read from the shared document. Archiving an archived app keeps its first time.
   */
  setArchived(id: string, at: number | null): Promise<AppRecord | null>;
  /**
   * The row and its collaborators (the caller deletes the document); its id is kept, deleted at
   * `at`, and never registered again.
   */
  delete(id: string, at: number): Promise<void>;
  /** The app and a person's role on it (null when they have none), in one read. */
  getWithRole(id: string, userId: string): Promise<{ app: AppRecord; role: AppRole | null } | null>;
  collaborators(appId: string): Promise<CollaboratorRecord[]>;
  /** Adds a collaborator or changes their role. */
  putCollaborator(collaborator: CollaboratorRecord): Promise<void>;
  /** Returns whether they were a collaborator. */
  removeCollaborator(appId: string, userId: string): Promise<boolean>;
}

/** The listing fields of a published version, as cards and search show them. */
export interface VersionListing {
  title: string;
  description: string;
  icon: AppIcon | null;
  tags: string[];
}

/** An immutable published version (docs/product/records.md). */
export interface AppVersionRecord extends VersionListing {
  appId: string;
  number: number;
  /** The validated definition, as JSON text. */
  definitionJson: string;
  publisherId: string;
  publishedAt: number;
}

export interface NewAppVersion {
  appId: string;
  definitionJson: string;
  listing: VersionListing;
  publisherId: string;
  publishedAt: number;
  /** Set in the same transaction as the version. */
  visibility: Visibility;
}

/** A published app as cards show it: its served version's listing, its author and popularity. */
export interface AppCardRecord extends VersionListing {
  id: string;
  version: number;
  publishedAt: number;
  opens: number;
  installs: number;
  author: { id: string; username: string; displayName: string; avatar: Avatar };
}

export interface ExploreSearch {
  /** Matched case-insensitively against title, description, tags and the author's names. */
  q: string;
  tag?: string | undefined;
  /** Only this author's apps, by username. */
  author?: string | undefined;
  sort: 'new' | 'popular';
  page: number;
  pageSize: number;
}

export type AppEventKind = 'open' | 'install';

/**
 * Published versions, visibility, discovery and popularity (docs/product/routes.md, states.md).
 * "Listed" below means public, published, not archived, by a live account.
 */
export interface PublishingStore {
  /**
   * Stores the next version (1, 2, …; numbers never repeat, even after unpublishing) and makes it
   * the published one with the given visibility, in one transaction.
   */
  publish(version: NewAppVersion): Promise<{ number: number }>;
  version(appId: string, number: number): Promise<AppVersionRecord | null>;
  /** Newest first; `publisher` is null once their account is deleted. */
  versions(appId: string): Promise<
    Array<{
      number: number;
      publishedAt: number;
      publisher: { username: string; displayName: string } | null;
    }>
  >;
  /** Returns whether it was published. Versions are kept. */
  unpublish(appId: string): Promise<boolean>;
  setVisibility(appId: string, visibility: Visibility): Promise<void>;
  /** Apps of an owner that are published now (archived ones too: their installs still work). */
  countPublished(ownerId: string): Promise<number>;
  /** Listed apps matching the search, one page of them, their total, and the 20 most used tags. */
  explore(search: ExploreSearch): Promise<{
    apps: AppCardRecord[];
    total: number;
    tags: Array<{ tag: string; count: number }>;
  }>;
  /** A person's listed apps: pinned ones first in their pinned order, then the newest. */
  listPublicForOwner(ownerId: string): Promise<AppCardRecord[]>;
  /** Listed apps remixed from this one, newest first. */
  remixes(appId: string): Promise<AppCardRecord[]>;
  /**
   * Counts a visitor once per app and kind while they are remembered (until forgetVisitors);
   * returns whether this was their first time.
   */
  recordEvent(appId: string, kind: AppEventKind, visitor: string, at: number): Promise<boolean>;
  /**
   * Forgets the visitors counted before `countedBefore`, then the oldest beyond `keepAtMost`
   * remembered visits (ties in time go together, so at most that many stay). The counts stay.
   * Returns how many were forgotten.
   */
  forgetVisitors(countedBefore: number, keepAtMost: number): Promise<number>;
  eventCounts(appId: string): Promise<{ opens: number; installs: number }>;
}

/** Where an error happened: a browser that reported it, or this server. */
export const ERROR_SOURCES = ['client', 'server'] as const;
export type ErrorSource = (typeof ERROR_SOURCES)[number];

/** One occurrence of an error, as the operator's inbox shows it (issue 6). Times are epoch ms. */
export interface ErrorEventRecord {
  /** The report's event id (32 hex digits): a report sent twice is stored once. */
  id: string;
  fingerprint: string;
  source: ErrorSource;
  /** The error's type and message and its top in-app frame (`file:function`), as grouped. */
  type: string;
  message: string;
  topFrame: string | null;
  receivedAt: number;
  /**
   * The digest a server error showed the person (docs/product/errors.md); null for browser reports.
   */
  digest: string | null;
  /** The page's route, and its address without query or fragment. */
  route: string | null;
  url: string | null;
  /** "Chrome 126" */
  browser: string | null;
  release: string | null;
  environment: string | null;
  level: string;
  /** The redacted report (Sentry's event JSON: exception, breadcrumbs, request, tags), as text. */
  eventJson: string;
}

/** A kind of error: every occurrence with the same fingerprint. */
export interface ErrorGroupRecord {
  fingerprint: string;
  source: ErrorSource;
  type: string;
  message: string;
  topFrame: string | null;
  count: number;
  firstSeen: number;
  lastSeen: number;
  /** A few of the routes and browsers its stored occurrences came from, most recent first. */
  routes: string[];
  browsers: string[];
}

export interface MonitoringStore {
  /**
   * Stores an occurrence and counts it in its group (created on first sight), in one transaction.
   * Returns false, changing nothing, when an event with that id is already stored.
   */
  record(event: ErrorEventRecord): Promise<boolean>;
  /** Groups, the most recently seen first, one page of them, and how many there are. */
  listGroups(page: { limit: number; offset: number }): Promise<{
    groups: ErrorGroupRecord[];
    total: number;
  }>;
  /** One group by its fingerprint, as listGroups shows it. */
  group(fingerprint: string): Promise<ErrorGroupRecord | null>;
  /** The group's latest stored occurrence. */
  sampleEvent(fingerprint: string): Promise<ErrorEventRecord | null>;
  /** The occurrence a server error's digest names (the latest, should a digest repeat). */
  findByDigest(digest: string): Promise<ErrorEventRecord | null>;
  /**
   * Deletes occurrences received before `olderThan`, then the groups left without any, and the
   * counts of dropped reports of days before it.
   */
  prune(olderThan: number): Promise<{ events: number; groups: number }>;
  /**
   * Keeps at most `maxGroups` groups and `maxEvents` occurrences of each source (browsers' and the
   * server's own, so a flood of one never pushes out the other), removing the least recently seen
   * groups (with their occurrences), then the oldest occurrences. Returns how many of each went.
   */
  evict(caps: {
    maxEvents: number;
    maxGroups: number;
  }): Promise<{ events: number; groups: number }>;
  /** Counts `count` reports dropped for `reason` on the (UTC) day of `at`. */
  countDrops(reason: ReportDropReason, at: number, count: number): Promise<void>;
  /** The drops counted, by reason, with the start of the first day each was counted on. */
  drops(): Promise<Array<{ reason: ReportDropReason; count: number; since: number }>>;
}

/**
 * The one storage interface (docs/decisions/0005-sqlite-default-postgres-optional.md). Two
 * adapters implement it, SQLite and PostgreSQL, and one contract suite (test/storage-contract.ts)
 * runs against both.
 */
export interface Storage {
  readonly engine: StorageEngine;
  readonly documents: DocumentStore;
  readonly apps: AppStore;
  readonly publishing: PublishingStore;
  readonly users: UserStore;
  readonly operators: OperatorStore;
  readonly sessions: SessionStore;
  readonly tokens: TokenStore;
  readonly rateLimits: RateLimitStore;
  readonly humanChecks: HumanCheckStore;
  readonly secrets: SecretStore;
  readonly messages: MessageStore;
  readonly uploads: UploadStore;
  /** Error reports from browsers and this server (issue 6). */
  readonly monitoring: MonitoringStore;
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

/** An update addressed an account that does not exist (or is deleted). */
export class NotFoundError extends Error {}
