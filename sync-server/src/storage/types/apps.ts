import type { AppIcon, AppRole, CollaboratorRole } from '@pipit/protocol';

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
  /**
   * When `forkedFromVersion` was recorded (the remix made, a pull) as the version its original then
   * published for everyone, public or unlisted. Null for a version only the original's owner and
   * collaborators read, and for a base recorded before this was kept: such a base is
   * given to nobody else (docs/product/history.md#remixes-that-pull-their-originals-updates).
   */
  forkedFromPublicAt: number | null;
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
  /** A remix: the original and a version its maker may read (checked by the caller). */
  forkedFrom?: { appId: string; version: number } | null;
  /** Whether that version was the one the original published for everyone (`forkedFromPublicAt`). */
  forkedFromPublic?: boolean;
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
   * `deleted` when the id belonged to an app deleted forever (its id is never used again). With
   * `limits`, a new app whose owner owns `maxOwned` apps already is not made (`full`): counted and
   * made in one transaction holding the owner, so registrations racing each other take turns.
   */
  insert(
    app: NewApp,
    limits?: { maxOwned: number },
  ): Promise<{ app: AppRecord; created: boolean } | { deleted: true } | { full: true }>;
  /** Whether an app of this id was deleted forever. */
  wasDeleted(id: string): Promise<boolean>;
  get(id: string): Promise<AppRecord | null>;
  /** Apps a person owns or collaborates on, with their role, newest change first. */
  listForUser(userId: string): Promise<Array<AppRecord & { role: AppRole }>>;
  countOwned(ownerId: string): Promise<number>;
  /** The listing fields, as read from the stored document. */
  updateListing(id: string, listing: AppListing): Promise<void>;
  /**
   * A remix pulled its original's newer version, one the puller may read (checked by the caller):
   * that version is its base from now on. `publicAt`: now when it is the version the original
   * publishes for everyone, else null (`forkedFromPublicAt`).
   */
  setForkedFromVersion(id: string, version: number, publicAt: number | null): Promise<void>;
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
  /**
   * The app and a person's role on it (null when they have none), in one read; calls made together
   * share one (storage/kysely/batched.ts).
   */
  getWithRole(id: string, userId: string): Promise<{ app: AppRecord; role: AppRole | null } | null>;
  collaborators(appId: string): Promise<CollaboratorRecord[]>;
  /** Adds a collaborator or changes their role. */
  putCollaborator(collaborator: CollaboratorRecord): Promise<void>;
  /** Returns whether they were a collaborator. */
  removeCollaborator(appId: string, userId: string): Promise<boolean>;
}
