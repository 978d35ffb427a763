import type { Avatar } from '@pipit/protocol';

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
