import * as zm from 'zod/mini';
import { avatarSchema, profileLinkSchema } from './profile-parts';
import { lazySchema } from './lazy-schema';

/*
 * Who is signed in: zod/mini only, in a module of their own.
 * The installed app (`/apps/{id}/pwa`) reads these, and classic zod's schema functions do not
 * tree-shake — one classic schema in a module that page loads brings all of classic zod (its
 * JavaScript is budgeted: docs/performance.md). Classic schemas take these as parts, and `z.infer` reads them.
 */

/** What a signed-in person knows about their own account. */
export const accountSchema = lazySchema(() =>
  zm.object({
    id: zm.string(),
    username: zm.string(),
    email: zm.string(),
    emailVerified: zm.boolean(),
    pendingEmail: zm.nullable(zm.string()),
    displayName: zm.string(),
    bio: zm.string(),
    avatar: avatarSchema,
    links: zm.array(profileLinkSchema),
    /** Apps shown first on the profile, in this order (only the person's public published ones show). */
    pinnedAppIds: zm._default(zm.array(zm.string()), []),
    createdAt: zm.iso.datetime(),
  }),
);
export type Account = zm.infer<typeof accountSchema>;

/** `GET /api/auth/session` */
export const sessionResponseSchema = lazySchema(() =>
  zm.object({ account: zm.nullable(accountSchema) }),
);
export type SessionResponse = zm.infer<typeof sessionResponseSchema>;
