import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import sirv from 'sirv';
import {
  type AppShellTarget,
  appShellHtml,
  appShellTarget,
  matchRoute,
  pageDataBlock,
  withDataBlock,
  PRERENDERED_ROUTES,
  sentAnswerOf,
  prerenderedFile,
  type RouteMatch,
  SERVER_RENDERED_ROUTES,
  type ShellDocument,
  shellDocument,
} from '@pipit/protocol';
import { readSessionCookie } from '../accounts/session-cookie';
import type { Logger } from '../logger';
import type { ServerErrorReport } from '../monitoring/server-error';
import { createDigest } from '../digest';
import { Lru } from '../lru';
import { keepUnlessFailed } from '../read-once';
import { ERROR_PAGE_CSP, renderServerErrorPage } from './error-page';
import {
  contentSecurityPolicy,
  preferredEncoding,
  styleAttributeSources,
  styleElementSources,
} from './security-headers';
import type { ServerRenderer } from './server-render';

export type ClientHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Vite fingerprints everything under /assets/: those files never change, so browsers keep them. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (HTML, the service worker, manifests, icons) is revalidated on every use. */
export const REVALIDATE_CACHE = 'no-cache';

/** A built page's policy: the shell's, allowing the page's own <style> elements. */
function builtPagePolicy(html: string): string {
  return contentSecurityPolicy(styleElementSources(html));
}

/**
 * The policies of a build's HTML files, read once when the server starts, by the path sirv serves
 * each at (`/app.html`). Any other answer keeps the policy every response starts with, the shell's.
 */
function htmlPolicies(dir: string): Map<string, string> {
  const policies = new Map<string, string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.html')) continue;
    const served = `/${file.split(path.sep).join('/')}`;
    policies.set(served, builtPagePolicy(readFileSync(path.join(dir, file), 'utf8')));
  }
  return policies;
}

/**
 * Shells rewritten for one app each (docs/product/routes.md `/apps/{id}/pwa`, and `/demo1`), kept
 * for the apps opened lately.
 */
const APP_SHELLS_CACHED = 200;

interface Shell {
  etag: string;
  /** Its Content-Security-Policy (builtPagePolicy). */
  policy: string;
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

/**
 * A shell and its compressed variants, compressed on libuv's threads (never on the event loop: a
 * brotli pass over the shell takes milliseconds), once per shell: callers cache the promise.
 */
async function shellOf(
  identity: Buffer,
  policy = builtPagePolicy(identity.toString('utf8')),
): Promise<Shell> {
  const [gzip, brotli] = await Promise.all([
    promisify(zlib.gzip)(identity),
    promisify(zlib.brotliCompress)(identity),
  ]);
  return {
    // Each variant's own bytes make its ETag: an app's shell never revalidates as Pipit's.
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
    policy,
    identity,
    gzip,
    brotli,
  };
}

/** A shell as built, or a page the build pre-rendered into one (`/prerendered/…`). */
type BuiltDocument = ShellDocument | `/prerendered/${string}`;

const PRERENDERED = new Map<string, BuiltDocument>(
  PRERENDERED_ROUTES.map((route) => [route, prerenderedFile(route) as BuiltDocument]),
);

const SERVER_RENDERED: ReadonlySet<RouteMatch['route']> = new Set(SERVER_RENDERED_ROUTES);

/**
 * Whether a request carries a session cookie (either name: a stale one too). Pages rendered
 * ahead are as a signed-out visitor sees them; someone signed in gets the shell, which renders
 * their own view, with no moment of the other.
 */
function hasSessionCookie(req: IncomingMessage): boolean {
  const cookie = req.headers.cookie;
  return Boolean(readSessionCookie(cookie, true) || readSessionCookie(cookie, false));
}

/** Answers that are the same for everyone, but for their encoding. */
const VARY_ENCODING = 'Accept-Encoding';
/** Answers that depend on who asks (a page rendered ahead, or the shell): caches key on the cookie. */
const VARY_COOKIE = 'Accept-Encoding, Cookie';

/** Compressed on libuv's threads; brotli at a quality that costs about what gzip does. */
const compressPage = {
  br: (html: Buffer) =>
    promisify(zlib.brotliCompress)(html, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    }),
  gzip: (html: Buffer) => promisify(zlib.gzip)(html),
};

async function loadShell(dir: string, document: BuiltDocument): Promise<Shell> {
  return shellOf(await readFile(path.join(dir, document)));
}

function pathnameOf(req: IncomingMessage): string {
  try {
    return new URL(req.url ?? '/', 'http://x').pathname;
  } catch {
    return '/';
  }
}

export interface ClientFilesOptions {
  /** The `vite build` output. */
  dir: string;
  logger: Logger;
  /** Keeps a failure with its digest for the operator's inbox (never throws). */
  reportServerError?: (report: ServerErrorReport) => void;
  /**
   * Whether the person making the request may see the app (the app page's visibility rule, with
   * their session): an app's own shell is served only then.
   */
  canSeeApp(appId: string, req: IncomingMessage): Promise<boolean>;
  /**
   * Whether the person making the request is the app's owner or a collaborator (the editor's
   * readers): `/apps/{id}/edit` answers 404 to anyone else. None: the editor's shell for everyone.
   */
  canOpenEditor?(appId: string, req: IncomingMessage): Promise<boolean>;
  /** Renders SERVER_RENDERED_ROUTES for visitors without a session (none: they get the shell). */
  serverRender?: ServerRenderer;
  /**
   * A GET to the server's own API on behalf of `req` (server/requests.ts): the installed app's page
   * carries the published app to a visitor without a session (none: the bare shell).
   */
  fetchApi?(apiPath: string, req: IncomingMessage): Promise<Response>;
}

/**
 * Serves the built client: files as they are (precompressed variants when the browser accepts
 * them), and the HTML shell for every route of docs/product/routes.md — with status 404 for paths
 * no route matches, so the client shows its 404 page and crawlers see the truth. An app's own pages
 * (`/apps/{id}/pwa`, `/apps/{id}/install`) get its shell only while the reader may see the app;
 * otherwise their page's shell as built, with 404, whatever the reason (unknown, private, deleted),
 * so no id costs a rewrite or reveals that an app exists. `/apps/{id}` and `/apps/{id}/edit` are
 * the site's shell either way, with 404 when the reader may not see the app (the editor: is not
 * its owner or a collaborator), for the same reasons. The client renders from
 * the shell whatever its status: an app made offline that the server does not know yet still
 * opens in its creator's editor, and the service worker answers navigations with its own copy. If the shell cannot be read (the client
 * was never built), document requests get the generic error page with a digest that is in the log.
 */
export function createClientFiles(options: ClientFilesOptions): ClientHandler {
  const { dir, logger, serverRender } = options;
  const built = existsSync(dir);
  if (!built) {
    logger.error(
      { clientDir: dir },
      'the client is not built; run `npm run build` (`npm start` does)',
    );
  }
  const files = builtFiles(dir, built);
  const shells = createShells(dir);
  const { baseShell } = shells;
  const answers = createShellAnswers(options, shells);
  const { sendShell } = answers;
  const { sendAppShell } = createAppShellAnswers(options, shells, answers);
  const { sendAppPageShell, sendRendered } = createPageAnswers(options, answers);

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return;
    }
    const pathname = pathnameOf(req);
    const match = matchRoute(pathname);
    if (match) {
      // A page rendered ahead goes to visitors without a session; anyone with one gets the shell.
      const serverRendered = SERVER_RENDERED.has(match.route);
      const rendersAhead = serverRendered || PRERENDERED.has(pathname);
      const signedOut = rendersAhead && !hasSessionCookie(req);
      if (serverRender && serverRendered && signedOut && req.method === 'GET') {
        sendRendered(req, res, serverRender, match);
        return;
      }
      const prerendered = signedOut ? PRERENDERED.get(pathname) : undefined;
      if (prerendered) {
        // A build without the page (`vite build` alone) serves the shell.
        baseShell(prerendered).then(
          () => sendShell(req, res, 200, prerendered, null, VARY_COOKIE),
          () => sendShell(req, res, 200, '/index.html', null, VARY_COOKIE),
        );
        return;
      }
      const target = appShellTarget(pathname);
      if (target?.kind === 'app') sendAppShell(req, res, target);
      else if (match.route === '/apps/$id' || match.route === '/apps/$id/edit') {
        sendAppPageShell(req, res, match.route === '/apps/$id' ? 'app' : 'editor', match.params.id);
      } else {
        const vary = rendersAhead ? VARY_COOKIE : VARY_ENCODING;
        sendShell(req, res, 200, shellDocument(target), target, vary);
      }
      return;
    }
    files(req, res, () => {
      if (String(req.headers.accept ?? '').includes('text/html')) {
        sendShell(req, res, 404, '/index.html');
        return;
      }
      res.writeHead(404, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-cache',
      });
      res.end('Not found');
    });
  };
}

/** The build's files as they are, through sirv; none before the client is built. */
function builtFiles(dir: string, built: boolean): ReturnType<typeof sirv> {
  /** The policy of each HTML file of the build, by its path as sirv serves it (`/app.html`). */
  const filePolicies = built ? htmlPolicies(dir) : new Map<string, string>();
  return !built
    ? (_req, _res, next) => void next?.()
    : sirv(dir, {
        etag: true,
        gzip: true,
        brotli: true,
        dotfiles: false,
        setHeaders(res, pathname) {
          res.setHeader(
            'Cache-Control',
            pathname.startsWith('/assets/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE,
          );
          // The service worker precaches /index.html and /app.html with their headers: the
          // policy travels with them. sirv gives the path asked for (`/app.html/` serves
          // /app.html), not the file's.
          const policy = filePolicies.get(pathname.replace(/\/+$/, ''));
          if (policy) res.setHeader('Content-Security-Policy', policy);
        },
      });
}

/** The build's shells, read, rewritten for an app and compressed once, then kept. */
function createShells(dir: string) {
  /**
   * The build's shells as built: the site's and the installed app's (docs/product/routes.md
   * `/apps/{id}/pwa`).
   */
  const shells = new Map<BuiltDocument, Promise<Shell>>();
  const appShells = new Lru<string, Promise<Shell>>(APP_SHELLS_CACHED);

  function baseShell(document: BuiltDocument): Promise<Shell> {
    // A failure is tried again next time: the build may appear.
    return keepUnlessFailed(shells, document, () => loadShell(dir, document));
  }

  /**
   * The shell for a page: Pipit's, or for `/apps/{id}/pwa`, `/apps/{id}/install` and `/demo1` the
   * app's own (its manifest link and icons, the same rewrite the service worker applies offline),
   * rewritten and compressed once, then kept for the apps opened lately.
   */
  function shellFor(document: BuiltDocument, target: AppShellTarget | null): Promise<Shell> {
    if (!target) return baseShell(document);
    // An app id is 26 base32 characters: it never reads `demo1`.
    const key = target.kind === 'app' ? `${target.appId}/${target.page}` : 'demo1';
    return keepUnlessFailed(appShells, key, () =>
      baseShell(document).then((base) =>
        // Its policy is the built shell's: the rewrite changes links and meta tags, no <style>.
        shellOf(Buffer.from(appShellHtml(base.identity.toString('utf8'), target)), base.policy),
      ),
    );
  }

  return { baseShell, shellFor };
}

type Shells = ReturnType<typeof createShells>;

/** Sending a shell, and the error page when it cannot be read. */
function createShellAnswers(
  { dir, logger, reportServerError }: ClientFilesOptions,
  { shellFor }: Shells,
) {
  function fail(
    req: IncomingMessage,
    res: ServerResponse,
    error: unknown,
    message = 'cannot serve the client shell; run `npm run build` (or `npm start`, which builds it)',
  ): void {
    const digest = createDigest();
    logger.error({ err: error, digest, path: pathnameOf(req), clientDir: dir }, message);
    reportServerError?.({ error, digest, method: req.method, path: pathnameOf(req) });
    if (res.headersSent) {
      res.end();
      return;
    }
    const html = renderServerErrorPage(req.headers.host ?? 'this server', digest);
    res.writeHead(500, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': ERROR_PAGE_CSP,
    });
    res.end(html);
  }

  function sendShell(
    req: IncomingMessage,
    res: ServerResponse,
    status: 200 | 404,
    document: BuiltDocument,
    target: AppShellTarget | null = null,
    vary = VARY_ENCODING,
  ): void {
    shellFor(document, target).then(
      (s) => {
        res.setHeader('Cache-Control', REVALIDATE_CACHE);
        res.setHeader('Vary', vary);
        res.setHeader('ETag', s.etag);
        res.setHeader('Content-Security-Policy', s.policy);
        if (status === 200 && req.headers['if-none-match'] === s.etag) {
          res.writeHead(304).end();
          return;
        }
        const encoding = preferredEncoding(req.headers['accept-encoding']);
        const body = encoding === 'br' ? s.brotli : encoding === 'gzip' ? s.gzip : s.identity;
        res.writeHead(status, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Length': body.length,
          ...(encoding ? { 'Content-Encoding': encoding } : {}),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => fail(req, res, error),
    );
  }

  return { fail, sendShell };
}

type ShellAnswers = ReturnType<typeof createShellAnswers>;

/** An app's own pages (`/apps/{id}/pwa`, `/apps/{id}/install`): its shell, for whom may see it. */
function createAppShellAnswers(
  { logger, canSeeApp, fetchApi }: ClientFilesOptions,
  { shellFor }: Shells,
  { fail, sendShell }: ShellAnswers,
) {
  /**
   * An app's own page: its shell for a reader who may see the app, else the page's shell as built,
   * 404. The answer depends on the session cookie (a private app's owner), so caches key on it.
   */
  function sendAppShell(
    req: IncomingMessage,
    res: ServerResponse,
    target: AppShellTarget & { kind: 'app' },
  ): void {
    if (fetchApi && target.page === 'pwa' && req.method === 'GET' && !hasSessionCookie(req)) {
      sendAppWithItsData(req, res, target, fetchApi);
    } else void sendShellIfVisible(req, res, target);
  }

  function sendShellIfVisible(
    req: IncomingMessage,
    res: ServerResponse,
    target: AppShellTarget & { kind: 'app' },
  ): Promise<void> {
    const document = shellDocument(target);
    return canSeeApp(target.appId, req).then(
      (visible) =>
        visible
          ? sendShell(req, res, 200, document, target, VARY_COOKIE)
          : sendShell(req, res, 404, document, null, VARY_COOKIE),
      (error: unknown) => fail(req, res, error, 'cannot tell whether an app may be seen'),
    );
  }

  /**
   * `/apps/{id}/pwa` for a visitor without a session: the app's shell carrying the published app
   * (`GET /api/published/{id}` as their browser would ask; it answers 200 exactly when the app may
   * be seen), so the app's first render needs no second round trip on a slow network
   * (docs/performance.md). Any other answer, or a failure: the shell as for anyone.
   */
  function sendAppWithItsData(
    req: IncomingMessage,
    res: ServerResponse,
    target: AppShellTarget & { kind: 'app' },
    askApi: NonNullable<ClientFilesOptions['fetchApi']>,
  ): void {
    const apiPath = `/api/published/${target.appId}`;
    const shell = () => sendShellIfVisible(req, res, target);
    askApi(apiPath, req)
      .then(async (answer) => {
        if (answer.status !== 200) {
          await shell();
          return;
        }
        // Only now: no id that may not be seen costs a rewrite of the shell.
        const built = await shellFor(shellDocument(target), target);
        const block = pageDataBlock({ [apiPath]: await sentAnswerOf(answer) });
        // The policy is the shell's as built, before the app's data is in it.
        const page = withDataBlock(built.identity.toString('utf8'), block);
        await sendPage(req, res, 200, page, built.policy);
      })
      .catch((error: unknown) => {
        logger.warn({ err: error, appId: target.appId }, 'could not put the app into its page');
        if (!res.headersSent) void shell();
      });
  }

  return { sendAppShell };
}

/** The site's pages about one app (`/apps/{id}`, `/apps/{id}/edit`), and pages rendered per request. */
function createPageAnswers(
  { canSeeApp, canOpenEditor }: ClientFilesOptions,
  { fail, sendShell }: ShellAnswers,
) {
  /**
   * `/apps/{id}` and `/apps/{id}/edit`: the site's shell, 200 when the reader may see the app (the
   * editor: is its owner or a collaborator), else 404 — the same answer for an unknown app and for
   * one they may not see. The answer depends on the session cookie, so caches key on it.
   */
  function sendAppPageShell(
    req: IncomingMessage,
    res: ServerResponse,
    page: 'app' | 'editor',
    appId: string,
  ): void {
    const allowed = page === 'editor' ? canOpenEditor : canSeeApp;
    if (!allowed) {
      sendShell(req, res, 200, '/index.html', null, VARY_COOKIE);
      return;
    }
    allowed(appId, req).then(
      (yes) => sendShell(req, res, yes ? 200 : 404, '/index.html', null, VARY_COOKIE),
      (error: unknown) => fail(req, res, error, 'cannot tell whether an app may be seen'),
    );
  }

  /** A page rendered for this request (server-render.ts), or the shell when it could not be. */
  function sendRendered(
    req: IncomingMessage,
    res: ServerResponse,
    renderer: ServerRenderer,
    match: RouteMatch,
  ): void {
    renderer
      .render(req, req.url ?? '/')
      .then((page) =>
        page
          ? // The shell's policy, allowing the page's own style attributes (icons' sizes, say).
            sendPage(
              req,
              res,
              page.status,
              page.html,
              contentSecurityPolicy([], styleAttributeSources(page.html)),
            )
          : match.route === '/apps/$id'
            ? // Not rendered (too many renders this second, say): still 404 for an app not there.
              sendAppPageShell(req, res, 'app', match.params.id)
            : sendShell(req, res, 200, '/index.html', null, VARY_COOKIE),
      )
      .catch((error: unknown) => fail(req, res, error, 'cannot send a server-rendered page'));
  }

  return { sendAppPageShell, sendRendered };
}

/** A page made for this request: it holds data as of now, never stored, revalidated by nobody. */
async function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  page: string,
  policy: string,
): Promise<void> {
  const encoding = preferredEncoding(req.headers['accept-encoding']);
  const html = Buffer.from(page);
  const body = encoding ? await compressPage[encoding](html) : html;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    Vary: VARY_COOKIE,
    'Content-Security-Policy': policy,
    ...(encoding ? { 'Content-Encoding': encoding } : {}),
  });
  res.end(body);
}
