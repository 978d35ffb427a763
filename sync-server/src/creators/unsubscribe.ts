import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../accounts/random';
import { readOnce } from '../read-once';
import type { Storage } from '../storage/types';

/** The path of the one-click unsubscribe link every digest carries (docs/product/routes.md). */
export const UNSUBSCRIBE_PATH = '/api/email/unsubscribe';

/**
 * Signed unsubscribe links: `?u={userId}&t={HMAC-SHA256(key, "digest:" + userId)}`, so a link
 * turns off one person's digest without their signing in, and nobody can make one for someone
 * else. The key is a server secret shared by every instance on the database (`server_secrets`,
 * `email-unsubscribe-key`), made by the first one. A link works until the key changes.
 */
export interface UnsubscribeLinks {
  link(userId: string): Promise<string>;
  /** The person the link's parameters name, when the signature holds; null otherwise. */
  verify(userId: string | undefined, token: string | undefined): Promise<string | null>;
}

export function createUnsubscribeLinks(storage: Storage, linkBase: () => string): UnsubscribeLinks {
  const key = readOnce(() => storage.secrets.getOrCreate('email-unsubscribe-key', randomToken));
  const sign = async (userId: string) =>
    createHmac('sha256', await key())
      .update(`digest:${userId}`)
      .digest('base64url');
  return {
    async link(userId) {
      const params = new URLSearchParams({ u: userId, t: await sign(userId) });
      return `${linkBase()}${UNSUBSCRIBE_PATH}?${params.toString()}`;
    },
    async verify(userId, token) {
      if (!userId || !token || userId.length > 64 || token.length > 64) return null;
      const expected = Buffer.from(await sign(userId));
      const given = Buffer.from(token);
      return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
    },
  };
}
