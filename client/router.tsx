import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { routeTree } from './route-tree.gen';
import { Loading } from './ui/loading';

/**
 * Pipit's router. The browser's uses the page's address; the build's pre-rendering
 * (client/prerender/entry.tsx) gives one in memory.
 */
export function createPipitRouter(history?: RouterHistory) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    // An unknown path renders the root's 404 page, never a parent layout
    // (docs/library-notes.md#tanstack-router).
    notFoundMode: 'root',
    defaultPreload: 'intent',
    defaultPendingMs: 300,
    defaultPendingComponent: () => <Loading />,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createPipitRouter>;
  }
}
