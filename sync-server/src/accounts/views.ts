import type { Account, PublicProfile } from '@pipit/protocol';
import type { UserRecord } from '../storage/types';

/** What a signed-in person sees of their own account. */
export function toAccount(user: UserRecord): Account {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    emailVerified: user.emailVerifiedAt !== null,
    pendingEmail: user.pendingEmail,
    displayName: user.displayName,
    bio: user.bio,
    avatar: user.avatar,
    links: user.links,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/** What anyone may see of a person. */
export function toPublicProfile(user: UserRecord): PublicProfile {
  return {
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    avatar: user.avatar,
    links: user.links,
    joinedAt: new Date(user.createdAt).toISOString(),
  };
}
