import * as zm from 'zod/mini';
import { appIdSchema } from './app-basics';
import { ID_PATTERN } from './ids';
import { SPACE_GRANTABLE_ROLES, SPACE_LIMITS, SPACE_ROLES } from './space-limits';
import { lazySchema } from './lazy-schema';

/*
 * Shared spaces (docs/product/spaces.md): a visitor of a published app makes a space ("Our flat")
 * and invites people; the app's collections marked "shared in a space" keep their records in the
 * space's document `space/{spaceId}` instead of each visitor's private `data/{appId}/{userId}`.
 * Members and roles are server state (rows), never a field of the shared document.
 */

export const spaceIdSchema = lazySchema(() =>
  zm.string().check(zm.regex(ID_PATTERN, 'Not a space id.')),
);
export const spaceNameSchema = lazySchema(() =>
  zm
    .string()
    .check(
      zm.trim(),
      zm.minLength(1, 'Name the space.'),
      zm.maxLength(60, 'Use at most 60 characters for the name.'),
    ),
);

export const spacePersonSchema = lazySchema(() =>
  zm.object({
    userId: zm.string(),
    username: zm.string(),
    displayName: zm.string(),
  }),
);

/** A space as its members see it in lists and the switcher. */
export const spaceSummarySchema = lazySchema(() =>
  zm.object({
    id: spaceIdSchema,
    appId: appIdSchema,
    name: zm.string(),
    /** The asker's role. */
    role: zm.enum(SPACE_ROLES),
    owner: spacePersonSchema,
    memberCount: zm.int(),
    createdAt: zm.number(),
  }),
);
export type SpaceSummary = zm.infer<typeof spaceSummarySchema>;

export const spaceMemberSchema = lazySchema(() =>
  zm.extend(spacePersonSchema, { role: zm.enum(SPACE_ROLES), joinedAt: zm.number() }),
);
export type SpaceMember = zm.infer<typeof spaceMemberSchema>;

/** An invitation link as its space's owner sees it (the token is shown once, when made). */
export const spaceInviteSchema = lazySchema(() =>
  zm.object({
    id: zm.string(),
    role: zm.enum(SPACE_GRANTABLE_ROLES),
    createdAt: zm.number(),
    expiresAt: zm.number(),
  }),
);
export type SpaceInvite = zm.infer<typeof spaceInviteSchema>;

/**
 * Why a space a person was in ended for them: its owner deleted it (`deleted`), its owner deleted
 * their account (`owner_left`), the app it belonged to was deleted (`app_deleted`), or its owner
 * took them out (`removed`; if the space is deleted later, they are told that instead).
 */
export const SPACE_ENDING_REASONS = ['deleted', 'owner_left', 'app_deleted', 'removed'] as const;
export type SpaceEndingReason = (typeof SPACE_ENDING_REASONS)[number];
/** How long the people of a deleted space are told it ended, unless they dismiss it first. */
export const SPACE_ENDING_DAYS = 30;

/**
 * A space the asker was in that was deleted by someone else, or that its owner took them out of,
 * so the app can tell them why it is gone. Someone who left a space is not told (they know): it is
 * simply no longer listed.
 */
export const spaceEndingSchema = lazySchema(() =>
  zm.object({
    id: spaceIdSchema,
    name: zm.string(),
    endedAt: zm.number(),
    why: zm.enum(SPACE_ENDING_REASONS),
  }),
);
export type SpaceEnding = zm.infer<typeof spaceEndingSchema>;

/**
 * `GET /api/apps/{appId}/spaces`: the asker's spaces in one app, and the ones of it they were in
 * that ended in the last SPACE_ENDING_DAYS days and they have not dismissed (`DELETE
 * /api/apps/{appId}/spaces/ended/{spaceId}`). `ended` is empty when a server does not say.
 */
export const spaceListResponseSchema = lazySchema(() =>
  zm.object({
    spaces: zm.array(spaceSummarySchema),
    ended: zm._default(zm.array(spaceEndingSchema), []),
  }),
);

/**
 * `POST /api/apps/{appId}/spaces` (signed in, an app they may see): makes a space with the asker as
 * its owner. Idempotent by `id` when given (a device's retry answers the same space).
 */
export const createSpaceRequestSchema = lazySchema(() =>
  zm.object({
    id: zm.optional(spaceIdSchema),
    name: spaceNameSchema,
  }),
);
export const spaceResponseSchema = lazySchema(() => zm.object({ space: spaceSummarySchema }));

/** `PATCH /api/spaces/{spaceId}` (owner): renames. */
export const renameSpaceRequestSchema = lazySchema(() => zm.object({ name: spaceNameSchema }));

/**
 * `GET /api/spaces/{spaceId}` (members): the space, its members, and — for its owner only — its
 * open invitation links.
 */
export const spaceDetailResponseSchema = lazySchema(() =>
  zm.object({
    space: spaceSummarySchema,
    members: zm.array(spaceMemberSchema),
    invites: zm.array(spaceInviteSchema),
  }),
);
export type SpaceDetail = zm.infer<typeof spaceDetailResponseSchema>;

/**
 * `PUT /api/spaces/{spaceId}/members/{username}` (owner): adds a person by username, or changes a
 * member's role. `DELETE` of the same path: the owner removes a member, or a member leaves (their
 * own username). The owner cannot leave: they delete the space.
 */
export const setSpaceMemberRequestSchema = lazySchema(() =>
  zm.object({ role: zm.enum(SPACE_GRANTABLE_ROLES) }),
);
export const spaceMemberResponseSchema = lazySchema(() => zm.object({ member: spaceMemberSchema }));

/** `POST /api/spaces/{spaceId}/invites` (owner): a new invitation link. */
export const createSpaceInviteRequestSchema = lazySchema(() =>
  zm.object({
    role: zm._default(zm.enum(SPACE_GRANTABLE_ROLES), 'member'),
    days: zm._default(
      zm.int().check(zm.minimum(1), zm.maximum(SPACE_LIMITS.maxInviteDays)),
      SPACE_LIMITS.inviteDays,
    ),
  }),
);
/** The token is only ever in this answer and in the link; the server keeps its hash. */
export const createSpaceInviteResponseSchema = lazySchema(() =>
  zm.object({
    invite: spaceInviteSchema,
    token: zm.string(),
    /** The link to share: `/join/{token}` on this site. */
    url: zm.string(),
  }),
);

/** An invitation token: 32 url-safe characters (routes.ts matches `/join/{token}` the same way). */
export const spaceInviteTokenSchema = lazySchema(() =>
  zm.string().check(zm.regex(/^[A-Za-z0-9_-]{32}$/u, 'Not an invitation.')),
);

/**
 * `GET /api/space-invites/{token}` (anyone holding the link): what joining means, so the page can
 * ask the person to sign in first. Expired or revoked: `token_expired` / `not_found`.
 */
export const spaceInvitePreviewSchema = lazySchema(() =>
  zm.object({
    /**
     * Where the signed-in asker stands: in the space already, taken out by its owner (the link no
     * longer lets them in), or neither (null, and always for someone signed out).
     */
    standing: zm._default(zm.nullable(zm.enum(['member', 'removed'])), null),
    invite: zm.object({
      space: zm.object({ id: spaceIdSchema, name: zm.string(), memberCount: zm.int() }),
      app: zm.object({ id: appIdSchema, title: zm.string() }),
      invitedBy: spacePersonSchema,
      role: zm.enum(SPACE_GRANTABLE_ROLES),
      expiresAt: zm.number(),
    }),
  }),
);
export type SpaceInvitePreview = zm.infer<typeof spaceInvitePreviewSchema>['invite'];
export type SpaceInviteStanding = zm.infer<typeof spaceInvitePreviewSchema>['standing'];

/** `POST /api/space-invites/{token}/accept` (signed in): joins; answers the space (200 if already in). */
export const acceptSpaceInviteResponseSchema = spaceResponseSchema;

/** The site path an invitation link opens. */
export function spaceInvitePath(token: string): string {
  return `/join/${token}`;
}
