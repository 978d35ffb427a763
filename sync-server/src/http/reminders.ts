import type { Hono } from 'hono';
import { type Reminder, reminderPreferencesSchema } from '@pipit/app-definition';
import { findVisibleApp } from '../publishing/visibility';
import { offeredReminders } from '../reminders/record-data';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import { type ApiEnv, requireAuth } from './context';

/**
 * A person's choices for an app's reminders (docs/product/reminders.md): each reminder the
 * published app defines, with whether they turned it on, their time, zone and quiet hours.
 */
export function registerReminders(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock, logger, reminders } = deps;

  /** The app's reminders, for someone who may use it; 404 otherwise, as for its data. */
  async function remindersFor(appId: string, userId: string): Promise<Reminder[]> {
    await needVisible(appId, userId);
    return offeredReminders(await reminders.published(appId));
  }

  async function needVisible(appId: string, userId: string) {
    if (!(await findVisibleApp(storage, appId, userId))) {
      throw new ApiError('not_found', 'That app does not exist, or you cannot use it.');
    }
  }

  app.get('/apps/:id/reminders', async (c) => {
    const auth = requireAuth(c);
    const appId = c.req.param('id');
    await needVisible(appId, auth.user.id);
    const published = await reminders.published(appId);
    const { collections } = published;
    const defined = offeredReminders(published);
    const chosen = await storage.reminderPreferences.listForUser(auth.user.id, appId);
    // The names of the collections and fields the reminders are about, to say them in words.
    const names: Record<string, string> = {};
    for (const { schedule } of defined) {
      if (schedule.kind === 'weekly') continue;
      const collection = collections.find((col) => col.id === schedule.collectionId);
      if (collection) names[collection.id] = collection.name;
      const field =
        'fieldId' in schedule ? collection?.fields.find((f) => f.id === schedule.fieldId) : null;
      if (field) names[field.id] = field.name;
    }
    return c.json({
      reminders: defined.map((reminder) => ({
        ...reminder,
        preferences: chosen.find((p) => p.reminderId === reminder.id)?.preferences ?? null,
      })),
      names,
    });
  });

  app.put('/apps/:id/reminders/:reminderId', async (c) => {
    const auth = requireAuth(c);
    const appId = c.req.param('id');
    const reminderId = c.req.param('reminderId');
    const preferences = await readJsonBody(c.req.raw, reminderPreferencesSchema);
    const defined = await remindersFor(appId, auth.user.id);
    if (!defined.some((r) => r.id === reminderId)) {
      throw new ApiError(
        'not_found',
        'This app has no such reminder any more. Reload the app to see its reminders.',
      );
    }
    const record = { userId: auth.user.id, appId, reminderId, preferences, updatedAt: clock.now() };
    await storage.reminderPreferences.put(record);
    let next: number | null = null;
    try {
      next = await reminders.scheduleNext(auth.user.id, appId, reminderId);
    } catch (error) {
      // Stored all the same: the sweep queues it once the scheduler can be reached.
      logger.warn({ err: error, appId, reminderId }, 'queuing a reminder failed; the sweep will');
    }
    return c.json({ preferences, next });
  });

  /** Every app that may notify the person: reminders turned on, or a device subscribed. */
  app.get('/account/notifications', async (c) => {
    const auth = requireAuth(c);
    const [chosen, devices] = await Promise.all([
      storage.reminderPreferences.listForUser(auth.user.id),
      storage.pushSubscriptions.listForUser(auth.user.id),
    ]);
    const appIds = [
      ...new Set([
        ...chosen.filter((p) => p.preferences.enabled).map((p) => p.appId),
        ...devices.map((d) => d.appId),
      ]),
    ];
    const apps = [];
    for (const appId of appIds) {
      const found = await storage.apps.get(appId);
      if (!found) continue;
      const defined = (await reminders.published(appId)).reminders;
      apps.push({
        appId,
        title: found.title,
        reminders: defined
          .filter((r) => chosen.some((p) => p.appId === appId && p.reminderId === r.id))
          .map((r) => ({
            id: r.id,
            title: r.title,
            enabled:
              chosen.find((p) => p.appId === appId && p.reminderId === r.id)?.preferences.enabled ??
              false,
          })),
        devices: devices.filter((d) => d.appId === appId && d.disabledAt === null).length,
      });
    }
    return c.json({ apps });
  });

  /** Stops an app's notifications: its reminders off, and no device of the person subscribed. */
  app.delete('/account/notifications/:appId', async (c) => {
    const auth = requireAuth(c);
    const appId = c.req.param('appId');
    const chosen = await storage.reminderPreferences.listForUser(auth.user.id, appId);
    for (const record of chosen) {
      await storage.reminderPreferences.put({
        ...record,
        preferences: { ...record.preferences, enabled: false },
        updatedAt: clock.now(),
      });
    }
    const devices = await storage.pushSubscriptions.listForUser(auth.user.id, appId);
    for (const device of devices) {
      await storage.pushSubscriptions.deleteByEndpoint(device.endpoint, {
        userId: auth.user.id,
        appId,
      });
    }
    return c.body(null, 204);
  });

  app.delete('/apps/:id/reminders/:reminderId', async (c) => {
    const auth = requireAuth(c);
    const appId = c.req.param('id');
    await remindersFor(appId, auth.user.id);
    await storage.reminderPreferences.delete(auth.user.id, appId, c.req.param('reminderId'));
    return c.body(null, 204);
  });
}
