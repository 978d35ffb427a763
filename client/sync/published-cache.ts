import type { PublishedApp } from '@pipit/protocol';
import { localDb } from './local-db';

/**
 * The published apps this device has run (`/apps/{id}/pwa`), so an installed app opens at once and
 * offline: its definition, listing and version as last fetched.
 */

/** Who is asking: an account id, or `anonymous`. */
export type Viewer = string;

/**
 * The copy of an app last fetched on this device, if this viewer may see it: a private app's copy
 * (shared with collaborators only) shows only to the account that fetched it.
 */
export async function cachedPublishedApp(
  appId: string,
  viewer: Viewer,
): Promise<PublishedApp | null> {
  try {
    const row = await localDb().published.get(appId);
    if (!row) return null;
    if (row.app.visibility === 'private' && row.viewer !== viewer) return null;
    return row.app;
  } catch (error) {
    // Storage unavailable (private mode, quota): the app still loads from the network.
    console.warn('Could not read the copy of this app kept on this device:', error);
    return null;
  }
}

/** Keeps the newest copy fetched; an older version never replaces a newer one. */
export async function storePublishedApp(app: PublishedApp, viewer: Viewer): Promise<void> {
  try {
    const db = localDb();
    await db.transaction('rw', db.published, async () => {
      const known = await db.published.get(app.id);
      if (known && (known.app.version ?? 0) > (app.version ?? 0)) return;
      await db.published.put({ appId: app.id, viewer, app, fetchedAt: Date.now() });
    });
  } catch (error) {
    console.warn('Could not keep a copy of this app on this device:', error);
  }
}

/** The app is gone (deleted, unpublished or made private): its copy goes too. */
export async function forgetPublishedApp(appId: string): Promise<void> {
  try {
    await localDb().published.delete(appId);
  } catch {
    // Nothing to forget, or storage unavailable: either way nothing is shown from it.
  }
}
