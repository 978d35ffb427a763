import { AsyncLocalStorage } from 'node:async_hooks';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { setAccount } from '../platform/session/session';
import { type SentAnswers, sentAnswerOf } from '@pipit/protocol';
import { responseOf, setPageDataSource } from '../platform/api/page-data';
import { createPipitRouter } from '../router';
export { PRERENDERED_ROUTES, prerenderedFile } from '@pipit/protocol';
export { createPageComposer, type ViteManifest } from './compose';

/**
 * Renders public pages to HTML as a signed-out visitor sees them, with the components the browser
 * then hydrates (main.tsx; docs/performance.md). Built for Node by `vite build --ssr`:
 * - at build time, the pages whose content is known then (the landing page, docs, pricing, legal;
 *   scripts/prerender.mjs writes each next to the shell);
 * - per request, by the server, the pages whose content lives in the database (explore, profiles,
 *   app pages): their API calls go to the server's own API, and the answers travel with the HTML.
 */

/** Asks the server's own API, as a signed-out visitor's browser would (same path, GET). */
export type ApiFetcher = (path: string, init: RequestInit) => Promise<Response>;

interface RenderRequest {
  fetchApi: ApiFetcher | null;
  /** The origin the visitor's browser is on (the server's public origin). */
  origin: string;
  answers: SentAnswers;
  /** Paths a render looked for synchronously and found no answer to. */
  missed: Set<string>;
}

const requests = new AsyncLocalStorage<RenderRequest>();

async function ask(request: RenderRequest, path: string, init: RequestInit): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  if (!request.fetchApi || method !== 'GET') {
    // At build time there is no API; a render never writes.
    throw new TypeError(`a render cannot ${method} ${path}`);
  }
  const answer = await sentAnswerOf(await request.fetchApi(path, init));
  request.answers[path] = answer;
  // The render reads the answer as the browser will when it hydrates (page-data.ts).
  return responseOf(answer);
}

// Every render reads and records its own request's answers, however renders interleave.
setPageDataSource({
  answer: (path) => {
    const answers = requests.getStore()?.answers;
    return answers && Object.hasOwn(answers, path) ? answers[path] : undefined;
  },
  missed: (path) => requests.getStore()?.missed.add(path),
  fetch: (path, init) => {
    const request = requests.getStore();
    if (!request) return Promise.reject(new TypeError('no page is being rendered'));
    return ask(request, path, init);
  },
  used: () => {},
  forget: () => {},
  origin: () => requests.getStore()?.origin ?? '',
});

/**
 * How a render ended: the page (`rendered`), its route's not-found page (`not-found`, status 404),
 * a redirect the browser follows (`redirected`: a page for someone signed in, say), or a failure
 * (`failed`: a loader's error, or a component that threw on the server), with `problem` saying why.
 */
export type RenderOutcome = 'rendered' | 'not-found' | 'redirected' | 'failed';

export interface RenderedPage {
  html: string;
  outcome: RenderOutcome;
  problem?: string;
  /** The routes drawn, by id: their code's style sheets are linked (compose.ts). */
  routeIds: string[];
  /** The API answers the page was drawn from, to send with it. */
  answers: SentAnswers;
}

/**
 * The server's router redirects an address to its canonical form (the search as the route
 * validates it: `/explore` is `/explore?q=&sort=new&page=1`). The browser's router reads the same
 * search from either, so the canonical one is rendered; a redirect elsewhere is left for the
 * browser to follow (a page for someone signed in, say).
 */
async function loadRouter(url: string) {
  let router = createPipitRouter(createMemoryHistory({ initialEntries: [url] }));
  await router.load();
  const redirect = (router as unknown as { _serverResult?: ServerResult })._serverResult;
  const href = redirect?.type === 'redirect' ? redirect.redirect?.options?.href : undefined;
  const pathOf = (address: string) => new URL(address, 'http://x').pathname.toLowerCase();
  // Static segments match whatever their case (packages/protocol matchRoute): the same page.
  if (href && pathOf(href) === pathOf(url)) {
    router = createPipitRouter(createMemoryHistory({ initialEntries: [href] }));
    await router.load();
  }
  return router;
}

/** What router-core keeps of a server load (load-server.ts); not in its public types. */
interface ServerResult {
  type: string;
  redirect?: { options?: { href?: string } };
}

/** Renders passes until no component looks for an answer the page does not have (at most this). */
const MAX_PASSES = 3;

async function render(
  url: string,
  fetchApi: ApiFetcher | null,
  origin: string,
): Promise<RenderedPage> {
  const request: RenderRequest = { fetchApi, origin, answers: {}, missed: new Set() };
  return requests.run(request, async () => {
    // Nobody is signed in: the session is not asked for (per request, the server says so too).
    setAccount(null);
    if (fetchApi) await ask(request, '/api/auth/session', {});
    const router = await loadRouter(url);
    const draw = () =>
      renderToString(
        <StrictMode>
          <RouterProvider router={router} />
        </StrictMode>,
      );
    let html = draw();
    // Components that read an answer while rendering (useApiGet) said what they missed: ask, and
    // draw again with the answers, as the browser's first render will have them.
    for (let pass = 1; pass < MAX_PASSES && fetchApi && request.missed.size > 0; pass++) {
      const missed = [...request.missed].filter((path) => !Object.hasOwn(request.answers, path));
      request.missed.clear();
      if (missed.length === 0) break;
      await Promise.all(missed.map((path) => ask(request, path, {})));
      html = draw();
    }
    const { matches } = router.state;
    return {
      html,
      ...outcomeOf(html, matches),
      routeIds: matches.map((m) => m.routeId),
      answers: request.answers,
    };
  });
}

type Matches = ReturnType<typeof createPipitRouter>['state']['matches'];

function outcomeOf(html: string, matches: Matches): { outcome: RenderOutcome; problem?: string } {
  // A component that cannot render on the server (it throws) leaves its boundary for the
  // browser to render: React marks it `<!--$!-->`, with the error in a template. Not a page.
  const clientRendered = /<!--\$!-->(?:<template[^>]*data-msg="([^"]*)")?/.exec(html);
  if (clientRendered) {
    return {
      outcome: 'failed',
      problem: `a component failed on the server: ${clientRendered[1] ?? 'no message'}`,
    };
  }
  // A redirect leaves no match.
  if (matches.length === 0) return { outcome: 'redirected' };
  const notFound = matches.some(
    (match) =>
      match.status === 'notFound' ||
      match._notFound ||
      // The app page's loader answers a missing app with its own page (apps/$id/index.tsx).
      (match.loaderData as { found?: unknown } | undefined)?.found === false,
  );
  if (notFound) return { outcome: 'not-found' };
  const failed = matches.filter((match) => match.status !== 'success');
  if (failed.length === 0) return { outcome: 'rendered' };
  return {
    outcome: 'failed',
    problem: failed
      .map((match) => `${match.routeId}: ${match.status} ${String(match.error ?? '')}`)
      .join('; '),
  };
}

/** A page whose content is known at build time (scripts/prerender.mjs). */
export function prerender(pathname: string): Promise<RenderedPage> {
  return render(pathname, null, '');
}

/**
 * A public page rendered for one request (the server's server-render.ts), its data from
 * `fetchApi`, at `origin` (what the visitor's browser has as `location.origin`).
 */
export function renderRequest(
  url: string,
  fetchApi: ApiFetcher,
  origin: string,
): Promise<RenderedPage> {
  return render(url, fetchApi, origin);
}
