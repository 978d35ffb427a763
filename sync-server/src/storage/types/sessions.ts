import type { UserRecord } from './users';

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
  /**
   * A session and its live account in one read (every socket and request that carries a cookie
   * asks for both); `user` is null when the account is gone or deleted. Calls made together are
   * answered by one read (storage/kysely/batched.ts).
   */
  findWithUser(id: string): Promise<{ session: SessionRecord; user: UserRecord | null } | null>;
  listForUser(userId: string): Promise<SessionRecord[]>;
  touch(id: string, lastSeenAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** Deletes every session of a user, but `exceptId`; returns the ids deleted. */
  deleteForUser(userId: string, exceptId?: string): Promise<string[]>;
}
