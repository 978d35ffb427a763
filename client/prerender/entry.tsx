import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { setAccount } from '../platform/session/session';
export { PRERENDERED_ROUTES, prerenderedFile } from '@pipit/protocol';
import { createPipitRouter } from '../router';

/**
 * Renders a public page whose content is known when the client is built (the landing page, docs,
 * pricing, legal) to HTML, as a signed-out visitor sees it, with the components the browser then
 * hydrates (main.tsx). The build writes each next to the shell (scripts/prerender.mjs); the server
 * sends it to visitors without a session (docs/performance.md).
 */
export async function prerender(pathname: string) {
  // Nobody is signed in at build time: the session is not asked for.
  setAccount(null);
  const router = createPipitRouter(createMemoryHistory({ initialEntries: [pathname] }));
  await router.load();
  const html = renderToString(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  const meta = router.state.matches.flatMap((match) => match.meta ?? []);
  const title = meta.findLast((entry) => entry?.title)?.title;
  const description = meta.findLast((entry) => entry?.name === 'description')?.content;
  // A redirect (a page for someone signed in) leaves no match; an error, a match that failed.
  const { matches } = router.state;
  const shown = matches.length > 0 && matches.every((match) => match.status === 'success');
  // The routes drawn, by id: the build links the style sheets of their code (scripts/prerender.mjs).
  const routeIds = matches.map((match) => match.routeId);
  return { html, title, description, rendered: shown, routeIds };
}
