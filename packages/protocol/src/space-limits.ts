/*
 * A space's roles and the free plan's limits for spaces, apart from the spaces API's schemas
 * (spaces.ts): the installed app (`/apps/{id}/pwa`) reads these on its first screen, and those
 * schemas are classic zod, whose schema functions do not tree-shake — importing one constant of
 * spaces.ts brought all of classic zod into the app's first visit (docs/performance.md,
 * docs/decisions/0003-zod-mini-on-the-installed-app.md).
 */

/** `owner` manages the space; `member` reads and writes; `reader` reads only (read-only). */
export const SPACE_ROLES = ['owner', 'member', 'reader'] as const;
export type SpaceRole = (typeof SPACE_ROLES)[number];
/** The roles an invitation or a role change can give (there is one owner). */
export const SPACE_GRANTABLE_ROLES = ['member', 'reader'] as const;
export type SpaceGrantableRole = (typeof SPACE_GRANTABLE_ROLES)[number];

/** The free plan's limits for spaces (docs/product/quotas.md). */
export const SPACE_LIMITS = {
  /** People in one space, the owner included. */
  membersPerSpace: 20,
  /** Spaces one person belongs to, over all apps (owned or joined). */
  spacesPerPerson: 50,
  /** Records in one space, all shared collections together. */
  recordsPerSpace: 5_000,
  /** Open invitation links per space. */
  invitesPerSpace: 20,
  /** How long an invitation link works unless the owner says otherwise. */
  inviteDays: 7,
  maxInviteDays: 30,
} as const;
