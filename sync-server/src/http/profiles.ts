import type { Hono } from 'hono';
import { usernameSchema } from '@pipit/protocol';
import { toPublicProfile } from '../accounts/views';
import { toAppCard } from '../publishing/cards';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import type { ApiEnv } from './context';

const notFound = () =>
  new ApiError('not_found', 'No one goes by that name here. Check the spelling of the address.');

/**
 * `GET /api/profiles/{username}`: what anyone may see of a person and their listed apps, pinned
 * first (docs/product/routes.md /{username}).
 */
export function registerProfiles(app: Hono<ApiEnv>, { storage }: ApiDependencies): void {
  app.get('/profiles/:username', async (c) => {
    const username = usernameSchema.safeParse(c.req.param('username'));
    if (!username.success) throw notFound();
    const user = await storage.users.findByUsername(username.data);
    if (!user) throw notFound();
    const apps = await storage.publishing.listPublicForOwner(user.id);
    return c.json({ ...toPublicProfile(user), apps: apps.map(toAppCard) });
  });
}
