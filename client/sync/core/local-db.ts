import { ANONYMOUS_VIEWER, type AppIcon, type LibraryEntry } from '@pipit/protocol';
import { Dexie, type EntityTable } from 'dexie';

/**
 * What this device knows about the apps it has seen, per account (a shared device keeps people
 * apart): the studio reads it offline, and background sync finds the apps with changes that the
 * server has not stored yet. Dexie because IndexedDB's raw API makes compound keys, indexes and
 * schema upgrades long-winded and easy to get wrong.
 */
export interface LocalApp {
  /** `${accountId}:${appId}`; `demo:${appId}` for the local-only demo. */
  key: string;
  accountId: string;
  id: string;
  title: string;
  description: string;
  icon: AppIcon | null;
  role: 'owner' | 'editor' | 'viewer';
  archived: boolean;
  published: boolean;
  createdAt: number;
  updatedAt: number;
  /** The server has this app (its registration went through, or it listed it). */
  registered: boolean;
  /** Local changes the server has not acknowledged yet (0 = saved). */
  pending: number;
  /** The owner deleted it forever on this device while offline: the server delete is still due. */
  deleting?: boolean;
  /**
   * The owner archived or restored it on this device and the server has not taken that yet:
   * `archived` is this device's, sent with the next reconciliation.
   */
  archiveDue?: boolean;
  /**
   * The server refused to register it (the plan's app limit, say): it stays on this device, and
   * registration is tried again with each reconciliation.
   */
  registrationRefused?: 'limit_reached' | 'refused';
  /** A remix: the published version it copies, sent with its registration (kept until then). */
  forkedFrom?: { appId: string; version: number };
}

/** Whose library on this device when nobody is signed in (the same word as a published copy's). */
export const ANONYMOUS_OWNER = ANONYMOUS_VIEWER;

/**
 * One app in a library on this device: `owner` is the account id, or `anonymous` for someone not
 * signed in (merged into their account's library when they sign in).
 */
export interface LocalLibraryEntry extends LibraryEntry {
  /** `${owner}:${appId}` */
  key: string;
  owner: string;
}

/**
 * An app whose anonymous visitor data (`data/{appId}`) is on this device: merged into the account's
 * data document when the person signs in, at the next chance (the app need not be open then).
 */
export interface AnonymousData {
  appId: string;
  createdAt: number;
}

/**
 * An AI run kept on this device (sync/ai-queue.ts): asked for offline, it waits here, runs when the
 * device is back online, and keeps how it went (done, or failed and why) until dismissed. Only
 * `owner` ever sees or runs it: another person signing in on the device does not.
 */
export interface LocalAiRun {
  id: string;
  /** The account that asked for it. */
  owner: string;
  appId: string;
  aiActionId: string;
  /** Binding name → value, as the run sends them. */
  bindings: Record<string, string>;
  /** The record a field target writes to. */
  recordId: string | null;
  state: 'queued' | 'working' | 'done' | 'failed';
  text: string | null;
  problem: string | null;
  /**
   * The server's answer to a run whose pass was over before it could land (the person signed out,
   * the app closed): kept, queued again, so their next pass lands it without a second run of
   * their quota. Not indexed, so no new version of the database.
   */
  output?: unknown;
  queuedAt: number;
  updatedAt: number;
}

/**
 * An app's history as this device last saw it (docs/product/history.md), per account: the list,
 * and each checkpoint's definition once opened, so history works offline for what the device
 * holds. Checkpoints made offline wait in `pendingCheckpoints` until the server takes them.
 */
export interface LocalHistory {
  /** `${owner}:${appId}` */
  key: string;
  owner: string;
  appId: string;
  list: unknown;
  fetchedAt: number;
}

export interface LocalCheckpointDefinition {
  /** `${owner}:${appId}:${checkpointId}` */
  key: string;
  owner: string;
  definition: unknown;
}

export interface PendingCheckpoint {
  id: string;
  owner: string;
  appId: string;
  kind: 'manual' | 'restore';
  name: string;
  createdAt: number;
  definition: unknown;
  /** Why the server refused it last time (it stays, shown, until sent or dismissed). */
  problem?: string;
}

/**
 * A photo or file picked for a record on this device (client/sync/visitor-data/record-files.ts):
 * its bytes, by the SHA-256 that records name it by, so it shows at once and offline.
 */
export interface DeviceFile {
  hash: string;
  blob: Blob;
  /** A photo's small copy (320 px, made on the device), what lists and galleries show. */
  thumbnail?: Blob;
  type: string;
  name: string;
  size: number;
  createdAt: number;
}

/**
 * A photo or file waiting to be sent to the server, for the person who picked it: `path` is where
 * (`/api/apps/{id}/files/{hash}` or a space's). Deleted once the server has it; one the server
 * refused keeps why, and is not sent again.
 */
export interface PendingUpload {
  /** `${owner}:${path}` */
  key: string;
  owner: string;
  path: string;
  hash: string;
  kind: 'image' | 'file';
  queuedAt: number;
  problem?: string;
}

/**
 * A draft of an app this device knows (docs/product/drafts.md): one started here (registered
 * once the server has it; until then its `base`, the app it began from, waits here), or one the
 * server listed. Its document is `draft/{appId}/{id}`.
 */
export interface LocalDraft {
  /** `${owner}:${appId}:${id}` */
  key: string;
  owner: string;
  appId: string;
  id: string;
  name: string;
  createdAt: number;
  /** Who started it, as the server names them; null: this person, not registered yet. */
  startedBy: string | null;
  registered: boolean;
  /** The app it began from, until the server has it. */
  base?: unknown;
  /** Why the server refused it (it stays, shown, until deleted here). */
  problem?: string;
}

class LocalDatabase extends Dexie {
  apps!: EntityTable<LocalApp, 'key'>;
  library!: EntityTable<LocalLibraryEntry, 'key'>;
  anonymousData!: EntityTable<AnonymousData, 'appId'>;
  aiRuns!: EntityTable<LocalAiRun, 'id'>;
  history!: EntityTable<LocalHistory, 'key'>;
  checkpointDefinitions!: EntityTable<LocalCheckpointDefinition, 'key'>;
  pendingCheckpoints!: EntityTable<PendingCheckpoint, 'id'>;
  deviceFiles!: EntityTable<DeviceFile, 'hash'>;
  pendingUploads!: EntityTable<PendingUpload, 'key'>;
  drafts!: EntityTable<LocalDraft, 'key'>;
  constructor() {
    super('pipit-local');
    this.version(1).stores({ apps: 'key, accountId, [accountId+id]' });
    // Version 2 adds tables and keeps `apps` as it is (Dexie upgrades in place, no data moves).
    this.version(2).stores({
      apps: 'key, accountId, [accountId+id]',
      library: 'key, owner',
      published: 'appId',
      anonymousData: 'appId',
    });
    // Version 3 drops `published`: the copy of each app run here is the service worker's cached
    // answer now (published-cache.ts), one copy instead of two.
    this.version(3).stores({ published: null });
    // Version 4 adds AI runs waiting on this device, per person and app.
    this.version(4).stores({ aiRuns: 'id, [owner+appId]' });
    // Version 5 adds apps' history as last seen, and checkpoints made offline.
    this.version(5).stores({
      history: 'key, owner',
      checkpointDefinitions: 'key, owner',
      pendingCheckpoints: 'id, owner, [owner+appId]',
    });
    // Version 6 adds photos and files picked for records, and those waiting to be sent.
    this.version(6).stores({ deviceFiles: 'hash', pendingUploads: 'key, owner' });
    // Version 7 adds drafts of apps, those started here offline among them.
    this.version(7).stores({ drafts: 'key, owner, [owner+appId]' });
  }
}

let database: LocalDatabase | undefined;

/**
 * This device's database, opened on first use. A failed open is never kept: Dexie leaves an
 * instance whose open failed (an `UnknownError` that outlasts its own retries, Chrome's "Internal
 * error opening backing store", a blocked upgrade) closed for good, every later operation
 * rejecting with `DatabaseClosedError`, while IndexedDB may work again a moment later. The app
 * list, registration and pending checkpoints would then stay broken until the page reloads, which
 * an installed app may not do for days. So the next call after such a failure opens a new
 * instance; a failure is answered once, to the calls that were waiting on that open.
 */
export function localDb(): LocalDatabase {
  // `hasFailed()`: the open ended in an error (or the instance was closed): it never opens again.
  if (database?.hasFailed()) database = undefined;
  database ??= new LocalDatabase();
  return database;
}

export const localAppKey = (accountId: string, appId: string) => `${accountId}:${appId}`;
