import { createHash } from 'node:crypto';
import { appPwaPaths, type PushMessage } from '@pipit/protocol';
import { nameOf } from '../accounts/views';
import type { PushOutcome, PushSender } from '../push/sender';
import { type Job, RetryLater } from '../scheduler';
import type { Storage } from '../storage/types';
import { activityText } from './message';

/** A batch a phone gets after this long offline is old news. */
const ACTIVITY_TTL_SECONDS = 12 * 60 * 60;

/**
 * The handler of `activity` jobs: one recipient's batch of a space's activity, claimed, told to
 * each of their devices for the space's app, and deleted (docs/product/reminders.md#space-activity).
 */
export function createBatchDelivery(deps: {
  storage: Storage;
  /** The push sender, once the server built it. */
  sender: () => PushSender | undefined;
}): (job: Job<'activity'>) => Promise<void> {
  const { storage } = deps;

  /** The author's name as the space's members know it; "Someone" for an account gone since. */
  async function peopleNames(authorIds: string[]) {
    const users = await storage.users.findByIds(authorIds);
    return (id: string) => {
      const user = users.get(id);
      return user && user.deletedAt === null ? nameOf(user) : 'Someone';
    };
  }

  async function sendToDevices(userId: string, appId: string, message: PushMessage) {
    const sender = deps.sender();
    if (!sender) throw new RetryLater(10_000, 'push is not ready yet');
    const devices = (await storage.pushSubscriptions.listForUser(userId, appId)).filter(
      (s) => s.disabledAt === null,
    );
    const outcomes: PushOutcome[] = [];
    for (const device of devices) {
      outcomes.push(
        await sender.sendPush(
          device,
          { ...message },
          { ttl: ACTIVITY_TTL_SECONDS, urgency: 'normal' },
        ),
      );
    }
    return outcomes;
  }

  async function deliver(job: Job<'activity'>) {
    const { spaceId, userId, windowEnd } = job.payload;
    const [found, preference] = await Promise.all([
      storage.spaces.getWithRole(spaceId, userId),
      storage.spaceActivity.getPreference(spaceId, userId),
    ]);
    // Left, taken out, the space deleted, or turned off since: nothing is told, nothing kept.
    if (!found?.role || !preference?.enabled) {
      await storage.spaceActivity.dropItems(spaceId, userId, windowEnd);
      return;
    }
    const items = await storage.spaceActivity.claimItems(spaceId, userId, windowEnd, job.id);
    // Never their own changes (none are stored for them; kept out here too).
    const told = items.filter((item) => item.authorId !== userId);
    if (told.length > 0) {
      const names = await peopleNames([...new Set(told.map((i) => i.authorId))]);
      const shown = preference.showNames ? told : told.map((i) => ({ ...i, name: null }));
      const message: PushMessage = {
        title: found.space.name,
        body: activityText(shown, found.space.name, names),
        path: appPwaPaths(found.space.appId).page,
        // The same job's retry replaces its first copy on the device.
        tag: `s-${createHash('sha256').update(`activity:${job.id}`).digest('base64url').slice(0, 22)}`,
        appId: found.space.appId,
      };
      const outcomes = await sendToDevices(userId, found.space.appId, message);
      if (!outcomes.some((o) => o.kind === 'sent')) {
        const delays = outcomes.flatMap((o) =>
          o.kind === 'retry_later'
            ? [o.delayMs]
            : o.kind === 'rate_limited'
              ? [o.retryAfterMs]
              : [],
        );
        if (delays.length > 0)
          throw new RetryLater(Math.max(...delays), 'no device took the batch');
      }
    }
    await storage.spaceActivity.finishItems(job.id);
  }

  return deliver;
}
