import { createRouter } from '@tanstack/react-router';
import { routeTree } from './route-tree.gen';
import { Loading } from './ui/loading';

export const router = createRouter({
  routeTree,
  // An unknown path renders the root's 404 page, never a parent layout
  // (docs/library-notes.md#tanstack-router).
  notFoundMode: 'root',
  defaultPreload: 'intent',
  defaultPendingMs: 300,
  defaultPendingComponent: () => <Loading />,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
