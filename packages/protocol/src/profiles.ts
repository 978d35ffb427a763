// zod/mini: the profile route's loader reads it, and every page loads the route tree.
import * as zm from 'zod/mini';
import { avatarSchema, profileLinkSchema } from './profile-parts';
import { appCardSchema } from './published-app';
import { lazySchema } from './lazy-schema';

/**
 * `GET /api/profiles/{username}`: what anyone may see of a person, with their public, published,
 * non-archived apps (pinned ones first, in the order they pinned them; then the newest). Kept apart
 * from api.ts because the app cards come from publishing.ts, which itself builds on api.ts.
 */
export const publicProfileSchema = lazySchema(() =>
  zm.object({
    username: zm.string(),
    displayName: zm.string(),
    bio: zm.string(),
    avatar: avatarSchema,
    links: zm.array(profileLinkSchema).check(zm.maxLength(5)),
    joinedAt: zm.iso.datetime(),
    apps: zm.array(appCardSchema),
  }),
);
export type PublicProfile = zm.infer<typeof publicProfileSchema>;
