import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
// First: the browser's install prompt can fire before the app has rendered (see the module).
import './features/app-page/install-prompt';
import { rootErrorOptions, startErrorReporting } from './platform/monitoring/error-reporting';
import { createPipitRouter } from './router';
import { forgetSentAnswers } from './platform/api/page-data';
import { nextTask } from './platform/next-task';
import './ui/styles/tokens.css';
import './ui/styles/base.css';
// Last: the public pages' styles come after the shell's, as their own files did.
import './public-page-styles';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

startErrorReporting('when-idle');

// The start in tasks of its own, so that a phone's main thread is free in between to paint and take
// input (one task held it for the code's whole evaluation, the router's set-up, its
// first route match and the hydration's start, hundreds of milliseconds at a phone's speed:
// Lighthouse's Total Blocking Time). The modules (this one's imports) are evaluated in this task;
// the router is made in the next, loads the page in the one after, and React takes it over in a
// fourth.
void start(root);

async function start(root: HTMLElement) {
  await nextTask();
  const router = createPipitRouter();
  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );

  if (root.dataset.prerendered === undefined) {
    createRoot(root, rootErrorOptions).render(app);
    return;
  }
  // A page the build or the server rendered already (client/prerender/entry.tsx): it shows while
  // the router loads the route's code and data, then the same components take the markup over.
  // Where they would render something else (someone signed in, say), React renders afresh. Marked
  // as a server render's router, it lays out its tree as the server's did (no outer Suspense
  // boundary; the root route's own catches what suspends).
  router.ssr = { manifest: undefined };
  await nextTask();
  await router.load();
  await nextTask();
  // As a transition, hydration works in slices of a few milliseconds with the main thread free in
  // between (at the default priority it is one task, for the whole page).
  startTransition(() => {
    hydrateRoot(root, app, rootErrorOptions);
  });
  // The API answers a server-rendered page came with are for this page (the router may still
  // rewrite its search into canonical form): once the visitor goes elsewhere, they go.
  const unsubscribe = router.subscribe('onBeforeLoad', ({ pathChanged }) => {
    if (!pathChanged) return;
    unsubscribe();
    forgetSentAnswers();
  });
}
