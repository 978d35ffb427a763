import { z } from 'zod';
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

export const spaceIdSchema = lazySchema(() => z.string().regex(ID_PATTERN, 'Not a space id.'));
export const spaceNameSchema = lazySchema(() =>
  z.string().trim().min(1, 'Name the space.').max(60, 'Use at most 60 characters for the name.'),
);

export const spacePersonSchema = lazySchema(() =>
  z.object({
    userId: z.string(),
    username: z.string(),
    displayName: z.string(),
  }),
);

/** A space as its members see it in lists and the switcher. */
export const spaceSummarySchema = lazySchema(() =>
  z.object({
    id: spaceIdSchema,
    appId: appIdSchema,
    name: z.string(),
    /** The asker's role. */
    role: z.enum(SPACE_ROLES),
    owner: spacePersonSchema,
    memberCount: z.number().int(),
    createdAt: z.number(),
  }),
);
export type SpaceSummary = z.infer<typeof spaceSummarySchema>;

export const spaceMemberSchema = lazySchema(() =>
  spacePersonSchema.extend({ role: z.enum(SPACE_ROLES), joinedAt: z.number() }),
);
export type SpaceMember = z.infer<typeof spaceMemberSchema>;

/** An invitation link as its space's owner sees it (the token is shown once, when made). */
export const spaceInviteSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    role: z.enum(SPACE_GRANTABLE_ROLES),
    createdAt: z.number(),
    expiresAt: z.number(),
  }),
);
export type SpaceInvite = z.infer<typeof spaceInviteSchema>;

/**
 * Why a space a person was in ended: its owner deleted it (`deleted`), its owner deleted their
 * account (`owner_left`), or the app it belonged to was deleted (`app_deleted`).
 */
export const SPACE_ENDING_REASONS = ['deleted', 'owner_left', 'app_deleted'] as const;
export type SpaceEndingReason = (typeof SPACE_ENDING_REASONS)[number];
/** How long the people of a deleted space are told it ended, unless they dismiss it first. */
export const SPACE_ENDING_DAYS = 30;

/**
 * A space the asker was in that was deleted by someone else, so the app can tell them why it is
 * gone. Someone removed from a space, or who left it, is not told: it is simply no longer listed.
 */
export const spaceEndingSchema = lazySchema(() =>
  z.object({
    id: spaceIdSchema,
    name: z.string(),
    endedAt: z.number(),
    why: z.enum(SPACE_ENDING_REASONS),
  }),
);
export type SpaceEnding = z.infer<typeof spaceEndingSchema>;

/**
 * `GET /api/apps/{appId}/spaces`: the asker's spaces in one app, and the ones of it they were in
 * that ended in the last SPACE_ENDING_DAYS days and they have not dismissed (`DELETE
 * /api/apps/{appId}/spaces/ended/{spaceId}`). `ended` is empty when a server does not say.
 */
export const spaceListResponseSchema = lazySchema(() =>
  z.object({
    spaces: z.array(spaceSummarySchema),
    ended: z.array(spaceEndingSchema).default([]),
  }),
);

/**
 * `POST /api/apps/{appId}/spaces` (signed in, an app they may see): makes a space with the asker as
 * its owner. Idempotent by `id` when given (a device's retry answers the same space).
 */
export const createSpaceRequestSchema = lazySchema(() =>
  z.object({
    id: spaceIdSchema.optional(),
    name: spaceNameSchema,
  }),
);
export const spaceResponseSchema = lazySchema(() => z.object({ space: spaceSummarySchema }));

/** `PATCH /api/spaces/{spaceId}` (owner): renames. */
export const renameSpaceRequestSchema = lazySchema(() => z.object({ name: spaceNameSchema }));

/**
 * `GET /api/spaces/{spaceId}` (members): the space, its members, and — for its owner only — its
 * open invitation links.
 */
export const spaceDetailResponseSchema = lazySchema(() =>
  z.object({
    space: spaceSummarySchema,
    members: z.array(spaceMemberSchema),
    invites: z.array(spaceInviteSchema),
  }),
);
export type SpaceDetail = z.infer<typeof spaceDetailResponseSchema>;

/**
 * `PUT /api/spaces/{spaceId}/members/{username}` (owner): adds a person by username, or changes a
 * member's role. `DELETE` of the same path: the owner removes a member, or a member leaves (their
 * own username). The owner cannot leave: they delete the space.
 */
export const setSpaceMemberRequestSchema = lazySchema(() =>
  z.object({ role: z.enum(SPACE_GRANTABLE_ROLES) }),
);
export const spaceMemberResponseSchema = lazySchema(() => z.object({ member: spaceMemberSchema }));

/** `POST /api/spaces/{spaceId}/invites` (owner): a new invitation link. */
export const createSpaceInviteRequestSchema = lazySchema(() =>
  z.object({
    role: z.enum(SPACE_GRANTABLE_ROLES).default('member'),
    days: z.number().int().min(1).max(SPACE_LIMITS.maxInviteDays).default(SPACE_LIMITS.inviteDays),
  }),
);
/** The token is only ever in this answer and in the link; the server keeps its hash. */
export const createSpaceInviteResponseSchema = lazySchema(() =>
  z.object({
    invite: spaceInviteSchema,
    token: z.string(),
    /** The link to share: `/join/{token}` on this site. */
    url: z.string(),
  }),
);

/** An invitation token: 32 url-safe characters (routes.ts matches `/join/{token}` the same way). */
export const spaceInviteTokenSchema = lazySchema(() =>
  z.string().regex(/^[A-Za-z0-9_-]{32}$/u, 'Not an invitation.'),
);

/**
 * `GET /api/space-invites/{token}` (anyone holding the link): what joining means, so the page can
 * ask the person to sign in first. Expired or revoked: `token_expired` / `not_found`.
 */
export const spaceInvitePreviewSchema = lazySchema(() =>
  z.object({
    invite: z.object({
      space: z.object({ id: spaceIdSchema, name: z.string(), memberCount: z.number().int() }),
      app: z.object({ id: appIdSchema, title: z.string() }),
      invitedBy: spacePersonSchema,
      role: z.enum(SPACE_GRANTABLE_ROLES),
      expiresAt: z.number(),
    }),
  }),
);
export type SpaceInvitePreview = z.infer<typeof spaceInvitePreviewSchema>['invite'];

/** `POST /api/space-invites/{token}/accept` (signed in): joins; answers the space (200 if already in). */
export const acceptSpaceInviteResponseSchema = spaceResponseSchema;

/** The site path an invitation link opens. */
export function spaceInvitePath(token: string): string {
  return `/join/${token}`;
}
