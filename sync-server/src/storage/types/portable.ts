import type { AppIcon } from '@pipit/protocol';
import type { VersionListing } from './publishing';

/** One app of an import, everything it brings, with the ids it gets here. */
export interface ImportedApp {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  icon: AppIcon | null;
  tags: string[];
  createdAt: number;
  /** Its id in the file, and the file's export id and origin: a second import is recognised. */
  source: { appId: string; exportId: string; origin: string };
  /** Full Yjs states of new documents: the definition's, the importer's data. */
  documents: Array<{ name: string; state: Uint8Array }>;
  /** Published versions with their numbers, the importer as their publisher; none published. */
  versions: Array<{
    number: number;
    definitionJson: string;
    listing: VersionListing;
    publishedAt: number;
  }>;
  /** Their ids are the app's own (the file's, kept): a new app holds none yet. */
  checkpoints: Array<{
    id: string;
    kind: string;
    name: string | null;
    version: number | null;
    createdAt: number;
    changesJson: string;
    definitionHash: string;
    /** The definition's JSON, gzipped, as the history keeps it. */
    definition: Uint8Array;
  }>;
  /** Images, counted against the owner's upload quota. */
  images: Array<{ id: string; contentType: string; bytes: Uint8Array }>;
}

/** Moving apps between servers (docs/product/portable-file.md). */
export interface PortableStore {
  /**
   * Which of these app ids cannot be given to an imported app: registered here at any time
   * (deleted ones included), or named by a stored document or logged update.
   */
  takenAppIds(ids: readonly string[]): Promise<Set<string>>;
  /**
   * Which of these upload ids cannot be given to an imported image: stored here at any time
   * (deleted ones included — other apps may still point at them).
   */
  takenUploadIds(ids: readonly string[]): Promise<Set<string>>;
  /** The app a person's earlier import of this file's app made, while that app exists. */
  findImport(userId: string, exportId: string, sourceAppId: string): Promise<string | null>;
  /**
   * Writes every app of an import — rows, documents, versions, checkpoints, images, the record of
   * the import — in one transaction: all of it is there, or none (a failure half-way leaves
   * nothing behind). Throws ConflictError when an id was taken meanwhile (an upload id ever used
   * included). The owners' upload quota is checked in the same transaction, each owner held
   * until it ends (as UploadStore.insertWithinQuota does): when the images would take an owner
   * past `quotaBytes`, nothing is written and the answer says how many bytes they have; the same
   * for an owner who would own more than `maxApps` apps, and the answer says how many they own.
   */
  commitImport(
    apps: readonly ImportedApp[],
    at: number,
    limits: { quotaBytes: number; maxApps: number },
  ): Promise<CommitOutcome>;
}

/** What commitImport did: everything, or nothing because an owner has no room left. */
export type CommitOutcome =
  | { committed: true }
  | { committed: false; ownerId: string; usedBytes: number }
  | { committed: false; ownerId: string; ownedApps: number };
