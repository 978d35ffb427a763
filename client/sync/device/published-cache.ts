import { PUBLISHED_VIEWER_HEADER, type PublishedApp, readPublishedApp } from '@pipit/protocol';

/**
 * The published apps this device has run (`/apps/{id}/pwa`), so an installed app opens at once and
 * offline: the answer of `GET /api/published/{id}` as last fetched. It is the service worker's
 * cache of that request (one copy on the device, not two): the worker refreshes it whenever the
 * site asks online, and the installed app reads it directly — and fills it itself on a first
 * visit, before the worker controls the page.
 */

/** The service worker's cache of `GET /api/published/{id}` (client/sw.ts uses it by this name). */
export const PUBLISHED_CACHE = 'pipit-published';

/** Who is asking: an account id, or `anonymous`. */
export type Viewer = string;

const publishedPath = (appId: string) => `/api/published/${appId}`;

async function openCache(): Promise<Cache | null> {
  // No Cache Storage (an insecure origin, some private modes): the app loads from the network.
  if (typeof caches === 'undefined') return null;
  return caches.open(PUBLISHED_CACHE);
}

/**
 * A private app (shared with its collaborators only) kept on this device shows only to the account
 * the server answered it for; a public or unlisted one to anyone on the device, as a link would.
 */
export function copyIsFor(app: PublishedApp, keptFor: Viewer | null, viewer: Viewer): boolean {
  return app.visibility !== 'private' || keptFor === viewer;
}

/** Who a kept copy was fetched for (`copyIsFor`), as its response's headers say. */
export const keptFor = (response: { headers: Headers }): Viewer | null =>
  response.headers.get(PUBLISHED_VIEWER_HEADER);

/** The response kept for the app on this device, as stored (in the page or the service worker). */
export async function keptResponse(appId: string): Promise<Response | undefined> {
  return (await openCache())?.match(publishedPath(appId));
}

/** The copy of an app last fetched on this device, if this viewer may see it (`copyIsFor`). */
export async function cachedPublishedApp(
  appId: string,
  viewer: Viewer,
): Promise<PublishedApp | null> {
  try {
    const response = await keptResponse(appId);
    if (!response?.ok) return null;
    const app = readPublishedApp(await response.json());
    if (!app) return null;
    return copyIsFor(app, keptFor(response), viewer) ? app : null;
  } catch (error) {
    // Storage unavailable (private mode, quota): the app still loads from the network.
    console.warn('Could not read the copy of this app kept on this device:', error);
    return null;
  }
}

/** Keeps the newest copy fetched; an older version never replaces a newer one. */
export async function storePublishedApp(app: PublishedApp, viewer: Viewer): Promise<void> {
  try {
    const cache = await openCache();
    if (!cache) return;
    const known = await cachedPublishedApp(app.id, viewer);
    if (known && (known.version ?? 0) > (app.version ?? 0)) return;
    const headers = {
      'Content-Type': 'application/json',
      [PUBLISHED_VIEWER_HEADER]: viewer,
      Date: new Date().toUTCString(),
    };
    await cache.put(publishedPath(app.id), new Response(JSON.stringify(app), { headers }));
  } catch (error) {
    console.warn('Could not keep a copy of this app on this device:', error);
  }
}

/** The app is gone (deleted, unpublished or made private): its copy goes too. */
export async function forgetPublishedApp(appId: string): Promise<void> {
  try {
    await (await openCache())?.delete(publishedPath(appId));
  } catch {
    // Nothing to forget, or storage unavailable: either way nothing is shown from it.
  }
}

/**
 * An account signed out on this device (or another signed in): the private apps fetched for it
 * leave the device, so nobody else can open them offline. Public and unlisted copies stay.
 */
export async function forgetPrivateCopies(viewer: Viewer): Promise<void> {
  try {
    const cache = await openCache();
    if (!cache) return;
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      if (response?.headers.get(PUBLISHED_VIEWER_HEADER) !== viewer) continue;
      const app = readPublishedApp(await response.json().catch(() => null));
      // A copy that cannot be read cannot say it is public: it goes too.
      if (!app || app.visibility === 'private') await cache.delete(request);
    }
  } catch (error) {
    console.warn('Could not remove the private apps kept on this device:', error);
  }
}
