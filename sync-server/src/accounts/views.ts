import type { Account, AppRole, Collaborator, PublicProfile } from '@pipit/protocol';
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
    pinnedAppIds: user.pinnedAppIds,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/** What anyone may see of a person (their apps are added by the profile endpoint). */
export function toPublicProfile(user: UserRecord): Omit<PublicProfile, 'apps'> {
  return {
    username: user.username,
    displayName: user.displayName,
    bio: user.bio,
    avatar: user.avatar,
    links: user.links,
    joinedAt: new Date(user.createdAt).toISOString(),
  };
}

/** How a person is named to others: their display name, or their username without one. */
export const nameOf = (user: UserRecord): string => user.displayName || user.username;

/** A person with access to an app, as its Share list shows them. */
export function toPerson(user: UserRecord, role: AppRole, addedAt: number): Collaborator {
  return { userId: user.id, username: user.username, displayName: nameOf(user), role, addedAt };
}
