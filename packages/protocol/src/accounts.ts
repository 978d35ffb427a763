import { z } from 'zod';
import * as zm from 'zod/mini';
import { avatarSchema, profileLinkSchema } from './profile-parts';
import { ID_PATTERN } from './ids';
import { usernameSchema } from './usernames';
import { RETURN_PATH_MAX_LENGTH, returnPath } from './return-path';

/**
 * Where an emailed link brings the person back to (the invitation they signed up from): a path on
 * this site, or nothing — a path that is not one is dropped, not refused (the account matters more).
 */
const nextPathSchema = z
  .string()
  .max(RETURN_PATH_MAX_LENGTH)
  .optional()
  .catch(undefined)
  .transform((value) => returnPath(value));

/** docs/product/validation.md: RFC-valid, at most 254 characters. Stored and compared lowercase. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Use an email address of at most 254 characters.')
  .pipe(z.email('Enter a valid email address, like ada@example.org.'));

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * docs/product/validation.md's length rule. "Not common" and "not the username or email" are
 * checked by the server, which holds the list and knows the account.
 */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);

export const displayNameSchema = z.string().trim().max(60, 'Keep your name to 60 characters.');
export const bioSchema = z.string().trim().max(280, 'Keep your bio to 280 characters.');
export const profileLinksSchema = z.array(profileLinkSchema).max(5, 'Add at most 5 links.');

/** `POST /api/auth/signup` */
export const signupRequestSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  next: nextPathSchema,
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

/** `POST /api/auth/login`: by username or email. */
export const loginRequestSchema = z.object({
  login: z.string().trim().min(1, 'Enter your username or email.').max(254),
  password: z.string().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** `POST /api/auth/forgot-password` */
export const forgotPasswordRequestSchema = z.object({ email: emailSchema, next: nextPathSchema });

/** A token from an emailed link: 32 random bytes, base64url. */
export const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not complete.');

/** `POST /api/auth/reset-password` */
export const resetPasswordRequestSchema = z.object({
  token: tokenSchema,
  password: passwordSchema,
});

/** `POST /api/auth/verify-email`, `POST /api/auth/confirm-email-change` */
export const tokenRequestSchema = z.object({ token: tokenSchema });

/** `POST /api/account/email` */
export const changeEmailRequestSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH),
});

/** `POST /api/account/password` */
export const changePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password.').max(PASSWORD_MAX_LENGTH),
  newPassword: passwordSchema,
});

/** `DELETE /api/account` */
export const deleteAccountRequestSchema = z.object({
  password: z.string().min(1, 'Enter your password to confirm.').max(PASSWORD_MAX_LENGTH),
});

/**
 * `GET /api/account/deletion`: what deleting the account would end for others, said before the
 * person confirms: the apps they own, the shared spaces that end for everyone in them
 * (their own, and other people's in their apps) and how many other people are in those, and the
 * spaces they would leave.
 */
export const accountDeletionPreviewSchema = z.object({
  apps: z.number().int().nonnegative(),
  endingSpaces: z.array(
    z.object({ id: z.string(), name: z.string(), people: z.number().int().nonnegative() }),
  ),
  /** Other people in the spaces that end, each counted once. */
  people: z.number().int().nonnegative(),
  /** Spaces of others the person is in, which they would leave. */
  leaving: z.number().int().nonnegative(),
});
export type AccountDeletionPreview = z.infer<typeof accountDeletionPreviewSchema>;

/** `PATCH /api/account/profile`: any subset. An image avatar is set by uploading one. */
/** How many apps a profile can pin above the others. */
export const MAX_PINNED_APPS = 6;

export const updateProfileRequestSchema = z
  .object({
    username: usernameSchema,
    displayName: displayNameSchema,
    bio: bioSchema,
    links: profileLinksSchema,
    avatar: avatarSchema.check(zm.refine((a) => a.kind === 'emoji', 'Upload an image to use one.')),
    pinnedAppIds: z
      .array(z.string().regex(ID_PATTERN, 'Not an app id.'))
      .max(MAX_PINNED_APPS, `Pin at most ${MAX_PINNED_APPS} apps.`),
  })
  .partial();
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;
/** The fields `PATCH /api/account/profile` changes; a body with none of them changes nothing. */
export const PROFILE_FIELDS = Object.keys(
  updateProfileRequestSchema.shape,
) as (keyof UpdateProfileRequest)[];

/** `GET /api/usernames/{username}` */
export const usernameAvailabilitySchema = z.object({
  username: z.string(),
  available: z.boolean(),
  /** Why not, in words a person understands. */
  reason: z.string().optional(),
});
export type UsernameAvailability = z.infer<typeof usernameAvailabilitySchema>;

/** `GET /api/account/sessions` */
export const sessionInfoSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
});
export const sessionListSchema = z.object({ sessions: z.array(sessionInfoSchema) });
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** `POST /api/messages` (contact and feedback, docs/product/routes.md). */
export const messageRequestSchema = z.object({
  kind: z.enum(['contact', 'feedback']),
  email: z.union([emailSchema, z.literal('')]).optional(),
  body: z
    .string()
    .trim()
    .min(1, 'Write your message first.')
    .max(5000, 'Keep it to 5,000 characters.'),
  page: z.string().max(2048).optional(),
});
export type MessageRequest = z.infer<typeof messageRequestSchema>;

/**
 * Avatar uploads: raster images only, re-encoded by the server (docs/library-notes.md#security).
 */
export const AVATAR_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const AVATAR_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
