import { appListResponseSchema, appResponseSchema, createAppRequestSchema } from '@pipit/protocol';
import { z } from 'zod';
import type { AppDefinition } from '@pipit/app-definition';
import {
  createLocalApp,
  forgetLocalCopy,
  type LocalApp,
  localApps,
  dropRefusedChange,
  markArchiveSent,
  markRegistered,
  markRegistrationRefused,
  mergeServerApps,
  setAppArchived,
  syncInBackground,
} from '../sync/app-document/local-apps';
import { historyCache } from '../sync/app-document/history-cache';
import { apiGet, apiSend, ApiRequestError, OfflineError } from './api/request';
import { sendWaitingDrafts } from './drafts';
import { sendPendingCheckpoints } from './history';

/**
 * Keeps this device's apps and the server in step for the signed-in account: apps made here
 * (offline too) register themselves, apps made or shared elsewhere appear, archiving and deletions
 * made offline reach the server, and apps with unsent changes sync in the background without being
 * opened.
 */

/** Registers one app made on this device (idempotent on the server). */
async function registerApp(accountId: string, app: LocalApp): Promise<void> {
  const request = createAppRequestSchema.parse({
    id: app.id,
    title: app.title.trim() || 'Untitled app',
    description: app.description.slice(0, 500),
    icon: app.icon,
    ...(app.forkedFrom ? { forkedFrom: app.forkedFrom } : {}),
  });
  try {
    await apiSend('POST', '/api/apps', request, appResponseSchema);
  } catch (error) {
    // Deleted forever (from another device, after a registration whose answer was lost): the id
    // is never used again, so this device lets the app go instead of bringing it back.
    if (error instanceof ApiRequestError && error.code === 'app_deleted') {
      await forgetLocalCopy(accountId, app.id);
      return;
    }
    // The app a remix copied was unpublished or deleted before the copy reached the server: the
    // copy is still mine, so it registers without its lineage instead of never syncing.
    if (!(request.forkedFrom && error instanceof ApiRequestError && error.code === 'not_found')) {
      throw error;
    }
    const { forkedFrom: _lost, ...withoutLineage } = request;
    await apiSend('POST', '/api/apps', withoutLineage, appResponseSchema);
  }
  await markRegistered(accountId, app.id);
}

/** Tells the server this device's archive choice for an app (the owner's alone to make). */
async function sendArchived(accountId: string, app: LocalApp): Promise<void> {
  try {
    await apiSend(
      'PUT',
      `/api/apps/${app.id}/archived`,
      { archived: app.archived },
      appResponseSchema,
    );
  } catch (error) {
    // Gone (deleted from another device): the list below takes it off this device.
    if (!(error instanceof ApiRequestError && error.code === 'not_found')) throw error;
  }
  await markArchiveSent(accountId, app.id, app.archived);
}

async function deleteOnServer(accountId: string, appId: string): Promise<void> {
  try {
    await apiSend('DELETE', `/api/apps/${appId}`, undefined, z.object({ deleted: z.boolean() }));
  } catch (error) {
    // Already gone (deleted from another device) is the outcome we wanted.
    if (!(error instanceof ApiRequestError && error.code === 'not_found')) throw error;
  }
  await forgetLocalCopy(accountId, appId);
}

let running: Promise<boolean> | undefined;
let queued: Promise<boolean> | undefined;
const ONLINE_SETTLE_MS = 1_500;

/**
 * Runs one app's step of a reconciliation. A refusal from the server (not a lost connection) is
 * that app's alone: `refused` settles it, and the round goes on for the others — one app the
 * server will not take must not keep every other one from syncing.
 */
async function step(work: () => Promise<void>, refused: (error: ApiRequestError) => Promise<void>) {
  try {
    await work();
  } catch (error) {
    // A lost connection, a server failure, a pause asked for or an ended session stops the round.
    const passing =
      !(error instanceof ApiRequestError) ||
      error.status >= 500 ||
      error.code === 'rate_limited' ||
      error.code === 'unauthenticated';
    if (passing) throw error;
    await refused(error);
  }
}

async function reconcileRound(accountId: string): Promise<boolean> {
  try {
    const before = await localApps(accountId);
    // Archived here while offline, then deleted: the server deletes only archived apps.
    for (const app of before.filter((a) => a.registered && a.archiveDue)) {
      // Refused: it is not mine to archive any more; the server's listing decides.
      await step(
        () => sendArchived(accountId, app),
        () => dropRefusedChange(accountId, app.id, 'archiveDue'),
      );
    }
    for (const app of before.filter((a) => a.deleting)) {
      // Refused: restored (or not archived) elsewhere meanwhile: it comes back here too.
      await step(
        () => deleteOnServer(accountId, app.id),
        () => dropRefusedChange(accountId, app.id, 'deleting'),
      );
    }
    for (const app of before.filter((a) => !a.registered && !a.deleting)) {
      await step(
        async () => {
          await registerApp(accountId, app);
          if (app.archiveDue) await sendArchived(accountId, app);
        },
        (error) =>
          markRegistrationRefused(
            accountId,
            app.id,
            error.code === 'limit_reached' ? 'limit_reached' : 'refused',
          ),
      );
    }
    const { apps } = await apiGet('/api/apps', appListResponseSchema);
    await mergeServerApps(accountId, apps);
    const after = await localApps(accountId);
    syncInBackground(
      accountId,
      after.filter((a) => a.registered && a.pending > 0 && !a.deleting).map((a) => a.id),
    );
    // Checkpoints saved here offline go too, like every other change made offline: not only when
    // History is opened again. Only for apps the server has: an app not registered yet
    // would refuse them.
    const registered = new Set(after.filter((a) => a.registered && !a.deleting).map((a) => a.id));
    const waiting = new Set((await historyCache.pending(accountId)).map((c) => c.appId));
    for (const appId of waiting) {
      if (registered.has(appId)) await sendPendingCheckpoints(accountId, appId);
    }
    // And drafts started here offline (docs/product/drafts.md).
    await sendWaitingDrafts(accountId, registered);
    return true;
  } catch (error) {
    if (!(error instanceof OfflineError)) console.warn('Could not sync the list of apps:', error);
    return false;
  }
}

/**
 * Makes a new app on this device (offline too) and, when online, registers it at once so it starts
 * syncing; offline, the next reconciliation after coming back registers it.
 */
export async function createApp(
  accountId: string,
  definition: AppDefinition,
  options: Parameters<typeof createLocalApp>[2] = {},
): Promise<string> {
  const id = await createLocalApp(accountId, definition, options);
  if (navigator.onLine) void reconcileApps(accountId);
  return id;
}

/**
 * Archives or restores one of my apps: on this device at once (offline too), on the server now
 * when online, else with the next reconciliation.
 */
export async function archiveApp(accountId: string, appId: string, archived: boolean) {
  await setAppArchived(accountId, appId, archived);
  if (navigator.onLine) void reconcileApps(accountId);
}

/**
 * Reconciles this device's apps with the server. Rounds never overlap; asking during a round
 * queues one more after it, so an app created (or adopted) meanwhile is not missed. Resolves
 * whether the round got through (offline, or with the server unreachable, it quietly stops).
 */
export function reconcileApps(accountId: string): Promise<boolean> {
  if (running) {
    // After the round however it ended: a failed round is never what a later ask gets.
    queued ??= running
      .catch(() => false)
      .then(() => {
        queued = undefined;
        return reconcileApps(accountId);
      });
    return queued;
  }
  running = reconcileRound(accountId).finally(() => {
    running = undefined;
  });
  return running;
}

/**
 * While this account is signed in: reconcile now, when back online, on focus, every minute.
 * Returns what stops it. The site loads this module only for someone signed in
 * (routes/_site.tsx): a visitor never downloads the studio's storage code.
 */
export function startAppReconciliation(accountId: string): () => void {
  // The network is often not usable for a moment after `online` fires, and a server may be
  // restarting: a round that did not get through is tried again, backing off to a minute.
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  const run = () => {
    clearTimeout(retry);
    if (!navigator.onLine) return;
    void reconcileApps(accountId).then((ok) => {
      failures = ok ? 0 : failures + 1;
      if (!ok) retry = setTimeout(run, Math.min(60_000, 1_000 * 2 ** failures));
    });
  };
  const runSoon = () => {
    clearTimeout(retry);
    retry = setTimeout(run, ONLINE_SETTLE_MS);
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') run();
  };
  run();
  window.addEventListener('online', runSoon);
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(run, 60_000);
  return () => {
    clearTimeout(retry);
    window.removeEventListener('online', runSoon);
    document.removeEventListener('visibilitychange', onVisible);
    clearInterval(timer);
  };
}
