/// <reference lib="webworker" />
import {
  appPwaPaths,
  appShellHtml,
  appShellTarget,
  EMOJI_IMAGE_PATH,
  readPushMessage,
  shellDocument,
  withDataBlock,
} from '@pipit/protocol';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core';
import { CACHED_COPY_HEADER } from './platform/api/cached-copy';
import { PUBLISHED_CACHE } from './sync/device/published-cache';
import { readDeviceStartElement } from './sync/device/device-start';
import { notificationTarget } from './platform/push/notification-target';

declare const self: ServiceWorkerGlobalScope;

/**
 * Pipit's service worker (one, at scope /). The build's files are precached, so after one visit
 * every route reloads offline from here: navigations get the precached shell, and the client
 * renders the page.
 */
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const DAY_SECONDS = 24 * 60 * 60;
const sameOriginGet = (url: URL, request: Request) =>
  request.method === 'GET' && url.origin === self.location.origin;

/** Drops a cached copy once the server says it is gone (410: deleted; 404: private, or unknown). */
function forgetWhenGone(cacheName: string): WorkboxPlugin {
  return {
    fetchDidSucceed: async ({ request, response }) => {
      if (response.status === 404 || response.status === 410) {
        await (await caches.open(cacheName)).delete(request);
      }
      return response;
    },
  };
}

/**
 * Every installed app's manifest and icons (docs/product/routes.md `/apps/{id}/pwa`): the copy at
 * hand at once, refreshed in the background, so the app keeps its name and icon offline. Bounded:
 * five files an app, the apps opened lately.
 */
const APP_ASSETS_CACHE = 'pipit-app-assets';
const APP_ASSET_PATH = /^\/apps\/[a-z2-7]{26}\/(?:manifest\.webmanifest|icons\/[a-z0-9-]+\.png)$/;
const appAssets = new StaleWhileRevalidate({
  cacheName: APP_ASSETS_CACHE,
  plugins: [
    // No age limit: installs keep working until the app is deleted (docs/product/states.md),
    // however rarely used.
    new ExpirationPlugin({ maxEntries: 250, purgeOnQuotaError: true }),
    forgetWhenGone(APP_ASSETS_CACHE),
  ],
});
registerRoute(
  ({ url, request }) => sameOriginGet(url, request) && APP_ASSET_PATH.test(url.pathname),
  appAssets,
);

/**
 * The first controlled open of an app's page also keeps its manifest and icons, even those the
 * browser has not asked for yet (it fetches icons only when it needs them), so the app installs and
 * keeps its icon offline.
 */
async function keepAppAssets(appId: string, event: ExtendableEvent): Promise<void> {
  const paths = appPwaPaths(appId);
  const cache = await caches.open(APP_ASSETS_CACHE);
  const wanted = [
    paths.manifest,
    paths.icon192,
    paths.icon512,
    paths.maskable512,
    paths.appleTouch180,
  ];
  await Promise.all(
    wanted.map(async (path) => {
      const request = new Request(path, { credentials: 'include' });
      if (await cache.match(request)) return;
      await appAssets.handle({ request, event }).catch(() => undefined);
    }),
  );
}

/**
 * `/apps/{id}/pwa`, `/apps/{id}/install` and `/demo1`: the precached shell (the installed app's own
 * entry for `/pwa`, the site's for the others) rewritten by the same function the server uses, so
 * offline the page still links the app's own manifest (docs/library-notes.md#pwa). The showcase's
 * manifest and icons are files of the build, precached with it. The installed app's page also
 * gets what its start reads from this device, read here meanwhile (sync/device-start.ts).
 */
async function appShell({ url, request, event }: RouteHandlerCallbackOptions): Promise<Response> {
  const target = appShellTarget(url.pathname);
  const [shell, deviceStart] = await Promise.all([
    matchPrecache(shellDocument(target)),
    target?.kind === 'app' && target.page === 'pwa' ? readDeviceStartElement(target.appId) : '',
  ]);
  if (!target || !shell) return fetch(request);
  if (target.kind === 'app' && event instanceof ExtendableEvent) {
    event.waitUntil(keepAppAssets(target.appId, event));
  }
  const headers = new Headers(shell.headers);
  // The body is rewritten: the stored length and validator describe the old one.
  for (const name of ['content-length', 'content-encoding', 'etag', 'last-modified']) {
    headers.delete(name);
  }
  const html = withDataBlock(appShellHtml(await shell.text(), target), deviceStart);
  return new Response(html, {
    status: 200,
    statusText: 'OK',
    headers,
  });
}
registerRoute(
  ({ url, request }) =>
    request.mode === 'navigate' &&
    url.origin === self.location.origin &&
    appShellTarget(url.pathname) !== null,
  appShell,
);

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/monitoring(\/|$)/],
  }),
);

/** Marks a response answered from the cache, so the page can say it is the copy last seen. */
const markCachedCopy: WorkboxPlugin = {
  cachedResponseWillBeUsed: ({ cachedResponse }) => {
    if (!cachedResponse) return Promise.resolve(null);
    const headers = new Headers(cachedResponse.headers);
    headers.set(CACHED_COPY_HEADER, '1');
    return Promise.resolve(
      new Response(cachedResponse.body, {
        status: cachedResponse.status,
        statusText: cachedResponse.statusText,
        headers,
      }),
    );
  },
};

/**
 * Public profiles: the network when it answers within a few seconds, else the copy last seen, so
 * /{username} works offline (docs/product/routes.md: the last copy seen).
 */
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    url.pathname.startsWith('/api/profiles/'),
  new NetworkFirst({
    cacheName: 'pipit-profiles',
    networkTimeoutSeconds: 4,
    plugins: [
      new ExpirationPlugin({ maxEntries: 100, maxAgeSeconds: 30 * 24 * 60 * 60 }),
      markCachedCopy,
    ],
  }),
);

/**
 * A published app (`GET /api/published/{id}`: its definition and page): fresh when the network
 * answers quickly, else the copy last seen, so an installed app opens offline. The installed app
 * also reads and fills this cache itself (client/sync/device/published-cache.ts).
 */
registerRoute(
  ({ url, request }) => sameOriginGet(url, request) && url.pathname.startsWith('/api/published/'),
  new NetworkFirst({
    cacheName: PUBLISHED_CACHE,
    networkTimeoutSeconds: 3,
    plugins: [
      new ExpirationPlugin({ maxEntries: 200, purgeOnQuotaError: true }),
      forgetWhenGone(PUBLISHED_CACHE),
      markCachedCopy,
    ],
  }),
);

/**
 * Explore (docs/product/routes.md: each search's last answer, with a banner): each search's last
 * answer, for offline.
 */
registerRoute(
  ({ url, request }) => sameOriginGet(url, request) && url.pathname === '/api/explore',
  new NetworkFirst({
    cacheName: 'pipit-explore',
    networkTimeoutSeconds: 4,
    plugins: [
      new ExpirationPlugin({
        maxEntries: 50,
        maxAgeSeconds: 30 * DAY_SECONDS,
        purgeOnQuotaError: true,
      }),
      markCachedCopy,
    ],
  }),
);

/** Uploaded images never change (random ids): kept once seen, for apps and profiles offline. */
registerRoute(
  ({ url, request }) => sameOriginGet(url, request) && url.pathname.startsWith('/api/uploads/'),
  new CacheFirst({
    cacheName: 'pipit-uploads',
    plugins: [new ExpirationPlugin({ maxEntries: 200, purgeOnQuotaError: true })],
  }),
);

/**
 * Thumbnails of the photos on records (docs/product/records.md#photos-and-files-on-records): an
 * address never serves other bytes (content-addressed), so a thumbnail is kept once seen and shown
 * offline, galleries included; only a found one (200) is kept. Originals are not kept here: the
 * device that took a photo has it in IndexedDB, others fetch it when it is opened.
 */
const RECORD_THUMBNAIL_PATH =
  /^\/api\/(?:apps|spaces)\/[a-z2-7]{26}\/files\/[0-9a-f]{64}\/thumbnail$/;
registerRoute(
  ({ url, request }) => sameOriginGet(url, request) && RECORD_THUMBNAIL_PATH.test(url.pathname),
  new CacheFirst({
    cacheName: 'pipit-record-thumbnails',
    plugins: [
      new ExpirationPlugin({ maxEntries: 1000, purgeOnQuotaError: true }),
      { cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) },
    ],
  }),
);

/**
 * Apps' emoji icons as pictures (`/emoji/…`, client/ui/app-icon.tsx): kept once seen, so lists,
 * pages and the installed app show them offline; the copy at hand at once, refreshed in the
 * background (the server's Twemoji may draw one anew). The default icon's and the templates' are
 * precached (OFFLINE_EMOJI, vite.config.ts) and answered by the precache above.
 */
registerRoute(
  ({ url, request }) => sameOriginGet(url, request) && EMOJI_IMAGE_PATH.test(url.pathname),
  new StaleWhileRevalidate({
    cacheName: 'pipit-emoji',
    plugins: [new ExpirationPlugin({ maxEntries: 500, purgeOnQuotaError: true })],
  }),
);

/** The page asks for this when the person accepts "a new version is available". */
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

const PIPIT_ICON = '/icons/pipit-192.png';

/** The message a push carries, or null when it is not one of ours (or is not JSON at all). */
function pushMessageOf(event: PushEvent) {
  try {
    return readPushMessage(event.data?.json());
  } catch {
    return null;
  }
}

/**
 * A reminder or a note from the server (sync-server/src/push/). Every push must show a
 * notification (the subscription promised `userVisibleOnly`), so one that cannot be read still
 * shows, plainly, and opens Pipit's home. The tag makes a second copy of the same message replace
 * the first: delivery is at least once.
 */
self.addEventListener('push', (event) => {
  const message = pushMessageOf(event);
  const icon = message?.appId ? appPwaPaths(message.appId).icon192 : PIPIT_ICON;
  event.waitUntil(
    self.registration.showNotification(message?.title ?? 'Pipit', {
      body: message ? message.body : 'Something new is waiting for you.',
      tag: message?.tag ?? 'pipit',
      icon,
      badge: PIPIT_ICON,
      data: { path: message?.path ?? '/' },
    }),
  );
});

/** Opens where the notification points: a window already there is focused, else a new one. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = notificationTarget(event.notification.data, self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === target);
      if (open) {
        await open.focus();
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
