import type { SpaceEndingReason, SpaceGrantableRole, SpaceRole } from '@pipit/protocol';

/** A shared space's row (docs/product/spaces.md); its records live in the `space/{id}` document. */
export interface SpaceRecord {
  id: string;
  appId: string;
  ownerId: string;
  name: string;
  createdAt: number;
}

export type NewSpace = SpaceRecord;

/** A space with the asker's role and how many people are in it, as lists show it. */
export interface SpaceWithRole extends SpaceRecord {
  role: SpaceRole;
  memberCount: number;
}

export interface SpaceMemberRecord {
  spaceId: string;
  userId: string;
  role: SpaceRole;
  joinedAt: number;
}

/** An invitation link; the token itself is never stored, only its sha256. */
export interface SpaceInviteRecord {
  id: string;
  spaceId: string;
  role: SpaceGrantableRole;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export interface NewSpaceInvite extends Omit<SpaceInviteRecord, 'revokedAt'> {
  tokenHash: string;
}

/** Why a space is deleted, and by whom: that person is not told it ended, everyone else in it is. */
export interface SpaceDeletion {
  why: SpaceEndingReason;
  /** The person who deleted it (the space's owner, or the app's); null when nobody did. */
  by: string | null;
}

/** A deleted space, as one of the people who were in it is told. */
export interface SpaceEndingRecord {
  spaceId: string;
  name: string;
  why: SpaceEndingReason;
  endedAt: number;
}

/** How many spaces one person may be in, and how many people one space may hold (SPACE_LIMITS). */
export interface MembershipLimits {
  spacesPerPerson: number;
  membersPerSpace: number;
}

/**
 * What joining came to: in, in it already (their role unchanged), refused by a limit, barred
 * (removed by the owner, joining with a link), or the space is gone.
 */
export type JoinOutcome = 'joined' | 'already' | 'space_full' | 'person_full' | 'barred' | 'gone';

/**
 * Shared spaces: who belongs to which space, with which role, and its invitation links. Members
 * are server state, never part of the shared document.
 *
 * Every count-then-insert is one transaction holding the rows it counts against (PostgreSQL: a row
 * lock on the space or the person; SQLite: one writer at a time), so requests racing each other
 * cannot pass a limit together.
 */
export interface SpaceStore {
  /**
   * Makes the space with its owner as its first member, unless the owner is in
   * `limits.spacesPerPerson` spaces already (`full`). An id in use already (or used by a deleted
   * space) makes nothing: `existing` is that space (null when it was deleted).
   */
  insert(
    space: NewSpace,
    limits: Pick<MembershipLimits, 'spacesPerPerson'>,
  ): Promise<
    | { created: true }
    | { created: false; existing: SpaceRecord | null }
    | { created: false; full: true }
  >;
  /** A space that exists (not deleted). */
  get(id: string): Promise<SpaceRecord | null>;
  /** Whether the id belonged to a space deleted since. */
  wasDeleted(id: string): Promise<boolean>;
  /** The space and a person's role in it (null when they are not in it), in one read. */
  getWithRole(
    id: string,
    userId: string,
  ): Promise<{ space: SpaceRecord; role: SpaceRole | null } | null>;
  /** The spaces a person is in, in one app or in all, oldest first, with their role in each. */
  listForUser(userId: string, appId?: string): Promise<SpaceWithRole[]>;
  /** The spaces a person is in, over all apps (owned or joined). */
  countForUser(userId: string): Promise<number>;
  rename(id: string, name: string): Promise<SpaceRecord | null>;
  /**
   * Marks the space deleted at `at` and removes its members and invitations (the caller deletes
   * the document). Everyone who was in it but `deletion.by` keeps an ending saying why. Its id is
   * never used again.
   */
  delete(id: string, at: number, deletion: SpaceDeletion): Promise<void>;
  /** The spaces of one app, or owned by one person (to delete them with the app or the account). */
  idsOf(of: { appId: string } | { ownerId: string }): Promise<string[]>;
  /** Everyone in the space, the owner included, in the order they joined. */
  members(spaceId: string): Promise<SpaceMemberRecord[]>;
  memberCount(spaceId: string): Promise<number>;
  /**
   * Adds a person who is not in the space yet, within `limits`. `viaLink`: they are joining with
   * an invitation link, which someone the owner removed may not use; added by the owner, such a
   * person may join again.
   */
  join(
    member: SpaceMemberRecord,
    limits: MembershipLimits,
    how: { viaLink: boolean },
  ): Promise<JoinOutcome>;
  /** Whether the owner took this person out (so an invitation link no longer lets them in). */
  isBarred(spaceId: string, userId: string): Promise<boolean>;
  /** Changes the role of someone in the space; false when they are not in it. */
  setRole(spaceId: string, userId: string, role: SpaceRole): Promise<boolean>;
  /**
   * Returns whether they were in it. `barredAt`: the owner removed them, so invitation links no
   * longer let them in (until the owner adds them again).
   */
  removeMember(spaceId: string, userId: string, barredAt?: number): Promise<boolean>;
  /**
   * A person leaves every space they are in (their account is being deleted); the endings they
   * were told about go too.
   */
  removeMemberships(userId: string): Promise<void>;
  /** The spaces of one app a person was in that ended at `since` or later, newest first. */
  endingsFor(userId: string, appId: string, since: number): Promise<SpaceEndingRecord[]>;
  /** A person dismisses the ending of a space of one app; false when they had no such ending. */
  dismissEnding(userId: string, appId: string, spaceId: string): Promise<boolean>;
  /** Forgets the endings of spaces that ended before `before`; answers how many. */
  pruneEndings(before: number): Promise<number>;
  /** Adds a link unless the space has `maxOpen` links open at `now` already; whether it did. */
  insertInvite(invite: NewSpaceInvite, limit: { maxOpen: number; now: number }): Promise<boolean>;
  /** Links not revoked and not expired at `now`, newest first. */
  openInvites(spaceId: string, now: number): Promise<SpaceInviteRecord[]>;
  /** The invitation a token's hash names, revoked or expired too; null when there is none. */
  inviteByTokenHash(tokenHash: string): Promise<SpaceInviteRecord | null>;
  /** Revokes one of the space's links; false when it has no such link still open. */
  revokeInvite(spaceId: string, inviteId: string, at: number): Promise<boolean>;
}
