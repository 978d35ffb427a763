import type { AppIcon, Avatar, Visibility } from '@pipit/protocol';

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
  /** How many listed remixes an app has (all of them, not only those `remixes` lists). */
  countRemixes(appId: string): Promise<number>;
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
