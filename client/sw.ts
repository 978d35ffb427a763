/// <reference lib="webworker" />
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import type { WorkboxPlugin } from 'workbox-core';
import { CACHED_COPY_HEADER } from './features/api/cached-copy';

declare const self: ServiceWorkerGlobalScope;

/**
 * Pipit's service worker (one, at scope /). The build's files are precached, so after one visit
 * every route reloads offline from here: navigations get the precached shell, and the client
 * renders the page.
 */
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

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
 * /{username} works offline (SPEC §3: "last seen copy").
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

/** The page asks for this when the person accepts "a new version is available". */
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
