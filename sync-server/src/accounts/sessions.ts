import { randomBytes } from 'node:crypto';
import type { SessionRecord, Storage, UserRecord } from '../storage/types';
import type { Clock } from './clock';
import { equalHex, randomToken, sha256Hex } from './random';

/** A session ends 60 days after sign-in, or after 14 days without use, whichever comes first. */
export const SESSION_ABSOLUTE_MS = 60 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
/** "Last seen" is written at most this often per session. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface Authenticated {
  session: SessionRecord;
  user: UserRecord;
}

export interface SessionService {
  /** A new session; returns the cookie value (`id.secret`) and its lifetime in seconds. */
  create(
    userId: string,
    meta: { userAgent: string | null; ip: string | null },
  ): Promise<{ cookieValue: string; maxAgeSeconds: number; session: SessionRecord }>;
  /** The live session and account behind a cookie value, or null (unknown, expired, deleted). */
  authenticate(cookieValue: string | null): Promise<Authenticated | null>;
  revoke(sessionId: string): Promise<void>;
  /** Signs a person out everywhere (but `exceptId`); returns the ended session ids. */
  revokeAll(userId: string, exceptId?: string): Promise<string[]>;
}

/**
 * `onEnded` hears of every session that sign-out, sign-out everywhere or a password change ends,
 * so what else it opened (sync connections) ends with it.
 */
export function createSessionService(
  storage: Storage,
  clock: Clock,
  onEnded: (sessionIds: string[]) => void = () => undefined,
): SessionService {
  return {
    async create(userId, meta) {
      const now = clock.now();
      const id = randomBytes(16).toString('hex');
      const secret = randomToken();
      const session: SessionRecord = {
        id,
        secretHash: sha256Hex(secret),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: now + SESSION_ABSOLUTE_MS,
        userAgent: meta.userAgent?.slice(0, 512) ?? null,
        ip: meta.ip,
      };
      await storage.sessions.insert(session);
      return { cookieValue: `${id}.${secret}`, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000, session };
    },

    async authenticate(cookieValue) {
      const [id, secret, ...rest] = cookieValue?.split('.') ?? [];
      if (!id || !secret || rest.length > 0 || !/^[0-9a-f]{32}$/.test(id)) return null;
      const found = await storage.sessions.findWithUser(id);
      if (!found || !equalHex(found.session.secretHash, sha256Hex(secret))) return null;
      const { session, user } = found;
      const now = clock.now();
      if (now >= session.expiresAt || now - session.lastSeenAt >= SESSION_IDLE_MS) {
        await storage.sessions.delete(session.id);
        return null;
      }
      if (!user) {
        await storage.sessions.delete(session.id);
        return null;
      }
      if (now - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
        await storage.sessions.touch(session.id, now);
        session.lastSeenAt = now;
      }
      return { session, user };
    },

    async revoke(sessionId) {
      await storage.sessions.delete(sessionId);
      onEnded([sessionId]);
    },
    async revokeAll(userId, exceptId) {
      const ended = await storage.sessions.deleteForUser(userId, exceptId);
      if (ended.length > 0) onEnded(ended);
      return ended;
    },
  };
}
