import type { Hono } from 'hono';
import {
  spaceActivityChoiceSchema,
  type SpaceActivityList,
  type SpaceActivitySettings,
} from '@pipit/protocol';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import { type ApiEnv, requireAuth } from './context';
import { spaceFor } from './spaces';

/**
 * Each person's choice to be told what others add and complete in a space
 * (docs/product/reminders.md#space-activity). Anyone in the space may choose, readers included:
 * they read its records already. Someone not in it gets `not_found`, as from every space route.
 */
export function registerSpaceActivity(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock, spaceActivity } = deps;

  async function settingsOf(
    spaceId: string,
    appId: string,
    userId: string,
  ): Promise<SpaceActivitySettings> {
    const [chosen, devices] = await Promise.all([
      storage.spaceActivity.getPreference(spaceId, userId),
      storage.pushSubscriptions.listForUser(userId, appId),
    ]);
    return {
      spaceId,
      // Off until the person turns it on; names shown unless they say otherwise.
      enabled: chosen?.enabled ?? false,
      showNames: chosen?.showNames ?? true,
      devices: devices.filter((d) => d.disabledAt === null).length,
    };
  }

  app.get('/spaces/:spaceId/notifications', async (c) => {
    const { auth, space } = await spaceFor(c, storage);
    return c.json(await settingsOf(space.id, space.appId, auth.user.id));
  });

  app.put('/spaces/:spaceId/notifications', async (c) => {
    const { auth, space } = await spaceFor(c, storage);
    const choice = await readJsonBody(c.req.raw, spaceActivityChoiceSchema);
    const stored = await storage.spaceActivity.putPreference({
      spaceId: space.id,
      userId: auth.user.id,
      enabled: choice.enabled,
      showNames: choice.showNames,
      updatedAt: clock.now(),
    });
    // Left the space between the two reads: as if they had never been in it.
    if (!stored) await spaceFor(c, storage);
    // This instance's loaded copy of the space follows the choice before the answer.
    await spaceActivity.watches.forget(space.id);
    return c.json(await settingsOf(space.id, space.appId, auth.user.id));
  });

  /** The spaces whose activity the person turned on, for account settings' Notifications. */
  app.get('/account/space-notifications', async (c) => {
    const auth = requireAuth(c);
    const chosen = (await storage.spaceActivity.listForUser(auth.user.id)).filter((p) => p.enabled);
    const spaces: SpaceActivityList['spaces'] = [];
    for (const preference of chosen) {
      const space = await storage.spaces.get(preference.spaceId);
      if (!space) continue;
      const found = await storage.apps.get(space.appId);
      spaces.push({
        spaceId: space.id,
        spaceName: space.name,
        appId: space.appId,
        appTitle: found?.title ?? '',
        showNames: preference.showNames,
      });
    }
    return c.json({ spaces });
  });
}
