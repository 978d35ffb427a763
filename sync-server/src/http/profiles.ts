import type { Hono } from 'hono';
import { type PublicProfile, usernameSchema } from '@pipit/protocol';
import { ApiError } from './api-error';
import type { ApiDependencies, ApiEnv } from './api';

const notFound = () =>
  new ApiError('not_found', 'No one goes by that name here. Check the spelling of the address.');

/** `GET /api/profiles/{username}`: what anyone may see of a person (SPEC §3 /{username}). */
export function registerProfiles(app: Hono<ApiEnv>, { storage }: ApiDependencies): void {
  app.get('/profiles/:username', async (c) => {
    const username = usernameSchema.safeParse(c.req.param('username'));
    if (!username.success) throw notFound();
    const user = await storage.users.findByUsername(username.data);
    if (!user) throw notFound();
    const profile: PublicProfile = {
      username: user.username,
      displayName: user.displayName,
      bio: user.bio,
      avatar: user.avatar,
      links: user.links,
      joinedAt: new Date(user.createdAt).toISOString(),
    };
    return c.json(profile);
  });
}
