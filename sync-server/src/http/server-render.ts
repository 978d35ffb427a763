import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SentAnswers } from '@pipit/protocol';
import { isSecureRequest } from '../accounts/session-cookie';
import type { Logger } from '../logger';
import { headerOf } from './security-headers';

/**
 * Public pages whose content lives in the database — explore, a profile, an app's page — rendered
 * per request for a visitor without a session (docs/performance.md), by the renderer the client
 * build makes for Node (`client/prerender/entry.tsx`, built into `dist/prerender/`): the same
 * router and components the browser hydrates, their API calls answered by this server's own API.
 * A page that cannot be rendered (no renderer built, an API failure, too slow) is no page: the
 * caller serves the shell, which renders in the browser as before.
 */

/** What the renderer module exports (client/prerender/entry.tsx); only what is used here. */
interface RendererModule {
  renderRequest(
    url: string,
    fetchApi: (path: string, init: RequestInit) => Promise<Response>,
    origin: string,
  ): Promise<{
    html: string;
    outcome: 'rendered' | 'not-found' | 'redirected' | 'failed';
    problem?: string;
    routeIds: string[];
    answers: SentAnswers;
  }>;
  createPageComposer(
    shell: string,
    manifest: unknown,
  ): (page: { html: string; routeIds: string[] }, answers?: SentAnswers) => string;
}

interface Renderer {
  module: RendererModule;
  compose: ReturnType<RendererModule['createPageComposer']>;
}

export interface ServerRenderedPage {
  status: 200 | 404;
  html: string;
}

export interface ServerRenderer {
  /** The page for `url` (path and query) as this signed-out request sees it, or null: serve the shell. */
  render(req: IncomingMessage, url: string): Promise<ServerRenderedPage | null>;
}

export interface ServerRendererOptions {
  /** The client build (its shell and Vite's manifest). */
  clientDir: string;
  /** The built renderer module. */
  rendererFile: string;
  /** A GET to the server's own API on behalf of `req` (its address, its user agent). */
  fetchApi(apiPath: string, req: IncomingMessage): Promise<Response>;
  /** The origin the visitor's browser is on (absolute links on the page, such as a share link). */
  originOf(req: IncomingMessage): string;
  logger: Logger;
  /** A render that takes longer is abandoned for the shell. */
  timeoutMs?: number;
  /** Renders started per second at most (a second's worth may come at once); past it, the shell. */
  rendersPerSecond?: number;
}

/** The renderer module that `vite build --ssr` writes beside a client build in `dist/client`. */
export const rendererFileFor = (clientDir: string): string =>
  path.join(clientDir, '..', 'prerender', 'entry.js');

const DEFAULT_TIMEOUT_MS = 3_000;
/**
 * A render costs ~5–15 ms of this process's CPU (explore renders twice), an API answer ~1 ms: the
 * budget keeps a flood of page requests (anyone can send them) from taking the event loop. Past
 * it, visitors get the shell, which renders in their browser, as before there were server renders.
 */
const DEFAULT_RENDERS_PER_SECOND = 50;

/** A token bucket: true while a render may start now. */
export function createRenderBudget(perSecond: number, now: () => number = Date.now): () => boolean {
  let tokens = perSecond;
  let at = now();
  return () => {
    const time = now();
    tokens = Math.min(perSecond, tokens + ((time - at) / 1000) * perSecond);
    at = time;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/**
 * The origin a request's browser is on: the configured public origin, else the Host it asked for
 * (https when a trusted proxy says so).
 */
export function requestOrigin(
  req: IncomingMessage,
  publicOrigin: string | undefined,
  trustProxy: boolean,
): string {
  if (publicOrigin) return publicOrigin;
  const header = headerOf(req);
  const scheme = isSecureRequest(header, undefined, trustProxy) ? 'https' : 'http';
  return `${scheme}://${header('host') ?? 'localhost'}`;
}

export function createServerRenderer(options: ServerRendererOptions): ServerRenderer {
  const { clientDir, rendererFile, fetchApi, originOf, logger } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const mayRender = createRenderBudget(options.rendersPerSecond ?? DEFAULT_RENDERS_PER_SECOND);
  let loading: Promise<Renderer | null> | null = null;
  let retryAt = 0;

  async function load(): Promise<Renderer | null> {
    try {
      const [module, shell, manifest] = await Promise.all([
        import(pathToFileURL(rendererFile).href) as Promise<RendererModule>,
        readFile(path.join(clientDir, 'index.html'), 'utf8'),
        readFile(path.join(clientDir, '.vite', 'manifest.json'), 'utf8'),
      ]);
      return { module, compose: module.createPageComposer(shell, JSON.parse(manifest)) };
    } catch (error) {
      // A build without the renderer (`vite build` alone) serves shells; look again in a minute.
      logger.warn(
        { err: error, rendererFile },
        'public pages are not rendered on the server: the renderer could not be loaded',
      );
      retryAt = Date.now() + 60_000;
      return null;
    }
  }

  function renderer(): Promise<Renderer | null> {
    if (!loading || (retryAt > 0 && Date.now() >= retryAt)) {
      retryAt = 0;
      loading = load();
    }
    return loading;
  }

  return {
    async render(req, url) {
      const loaded = await renderer();
      if (!loaded || !mayRender()) return null;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), timeoutMs);
      });
      try {
        const page = await Promise.race([
          loaded.module.renderRequest(url, (apiPath) => fetchApi(apiPath, req), originOf(req)),
          timedOut,
        ]);
        if (!page) {
          logger.warn({ url, timeoutMs }, 'a public page took too long to render; sent the shell');
          return null;
        }
        // A redirect is the page's answer (the browser's router follows it); a failure is news.
        // Either way the browser renders it, as for anyone.
        if (page.outcome === 'failed') {
          logger.warn(
            { url, problem: page.problem },
            'a public page did not render; sent the shell',
          );
        }
        if (page.outcome !== 'rendered' && page.outcome !== 'not-found') return null;
        return {
          status: page.outcome === 'not-found' ? 404 : 200,
          html: loaded.compose(page, page.answers),
        };
      } catch (error) {
        logger.warn({ err: error, url }, 'a public page could not be rendered; sent the shell');
        return null;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
