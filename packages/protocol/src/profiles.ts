import { z } from 'zod';
import { avatarSchema, profileLinkSchema } from './profile-parts';
import { appCardSchema } from './published-app';

/**
 * `GET /api/profiles/{username}`: what anyone may see of a person, with their public, published,
 * non-archived apps (pinned ones first, in the order they pinned them; then the newest). Kept apart
 * from api.ts because the app cards come from publishing.ts, which itself builds on api.ts.
 */
export const publicProfileSchema = z.object({
  username: z.string(),
  displayName: z.string(),
  bio: z.string(),
  avatar: avatarSchema,
  links: z.array(profileLinkSchema).max(5),
  joinedAt: z.iso.datetime(),
  apps: z.array(appCardSchema),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;
