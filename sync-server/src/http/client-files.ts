import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import sirv from 'sirv';
import {
  type AppShellTarget,
  appShellHtml,
  appShellTarget,
  matchRoute,
  type ShellDocument,
  shellDocument,
} from '@pipit/protocol';
import type { Logger } from '../logger';
import type { ServerErrorReport } from '../monitoring/server-error';
import { createDigest } from '../digest';
import { Lru } from '../pwa/lru';
import { ERROR_PAGE_CSP, renderServerErrorPage } from './error-page';
import { contentSecurityPolicy, preferredEncoding } from './security-headers';

export type ClientHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Vite fingerprints everything under /assets/: those files never change, so browsers keep them. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (HTML, the service worker, manifests, icons) is revalidated on every use. */
export const REVALIDATE_CACHE = 'no-cache';
const SHELL_CSP = contentSecurityPolicy();
/**
 * Shells rewritten for one app each (SPEC §3 `/apps/{id}/pwa`, and `/demo1`), kept for the apps
 * opened lately.
 */
const APP_SHELLS_CACHED = 200;

interface Shell {
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

function shellOf(identity: Buffer): Shell {
  return {
    // Each variant's own bytes make its ETag: an app's shell never revalidates as Pipit's.
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
    identity,
    gzip: gzipSync(identity),
    brotli: brotliCompressSync(identity),
  };
}

async function loadShell(dir: string, document: ShellDocument): Promise<Shell> {
  return shellOf(await readFile(path.join(dir, document)));
}

function pathnameOf(req: IncomingMessage): string {
  try {
    return new URL(req.url ?? '/', 'http://x').pathname;
  } catch {
    return '/';
  }
}

/**
 * Serves the built client: files as they are (precompressed variants when the browser accepts them),
 * and the HTML shell for every route of SPEC §3 — with status 404 for paths no route matches, so the
 * client shows its 404 page and crawlers see the truth. If the shell cannot be read (the client was
 * never built), document requests get the generic error page with a digest that is in the log.
 */
export function createClientFiles(
  dir: string,
  logger: Logger,
  /** Keeps the failure with its digest for the operator's inbox (never throws). */
  reportServerError?: (report: ServerErrorReport) => void,
): ClientHandler {
  /** The build's shells as built: the site's and the installed app's (SPEC §3 `/apps/{id}/pwa`). */
  const shells = new Map<ShellDocument, Promise<Shell>>();
  const appShells = new Lru<string, Shell>(APP_SHELLS_CACHED);
  const built = existsSync(dir);
  if (!built) {
    logger.error(
      { clientDir: dir },
      'the client is not built; run `npm run build` (`npm start` does)',
    );
  }
  const files: ReturnType<typeof sirv> = !built
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
          // The service worker precaches /index.html with its headers: the policy travels with it.
          if (pathname.endsWith('.html')) res.setHeader('Content-Security-Policy', SHELL_CSP);
        },
      });

  /**
   * The shell for a page: Pipit's, or for `/apps/{id}/pwa`, `/apps/{id}/install` and `/demo1` the
   * app's own (its manifest link and icons, the same rewrite the service worker applies offline).
   */
  function shellFor(base: Shell, target: AppShellTarget | null): Shell {
    if (!target) return base;
    // An app id is 26 base32 characters: it never reads `demo1`.
    const key = target.kind === 'app' ? `${target.appId}/${target.page}` : 'demo1';
    let variant = appShells.get(key);
    if (!variant) {
      variant = shellOf(Buffer.from(appShellHtml(base.identity.toString('utf8'), target)));
      appShells.set(key, variant);
    }
    return variant;
  }

  function sendShell(
    req: IncomingMessage,
    res: ServerResponse,
    status: 200 | 404,
    target: AppShellTarget | null = null,
  ): void {
    const document = shellDocument(target);
    let shell = shells.get(document);
    if (!shell) {
      shell = loadShell(dir, document);
      shells.set(document, shell);
    }
    shell.then(
      (base) => {
        const s = shellFor(base, target);
        res.setHeader('Cache-Control', REVALIDATE_CACHE);
        res.setHeader('Vary', 'Accept-Encoding');
        res.setHeader('ETag', s.etag);
        res.setHeader('Content-Security-Policy', SHELL_CSP);
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
      (error: unknown) => {
        shells.delete(document); // try again next time: the build may appear
        const digest = createDigest();
        logger.error(
          { err: error, digest, path: pathnameOf(req), clientDir: dir },
          'cannot serve the client shell; run `npm run build` (or `npm start`, which builds it)',
        );
        reportServerError?.({ error, digest, method: req.method, path: pathnameOf(req) });
        const html = renderServerErrorPage(req.headers.host ?? 'this server', digest);
        res.writeHead(500, {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-store',
          'Content-Security-Policy': ERROR_PAGE_CSP,
        });
        res.end(html);
      },
    );
  }

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed');
      return;
    }
    const pathname = pathnameOf(req);
    if (matchRoute(pathname)) {
      sendShell(req, res, 200, appShellTarget(pathname));
      return;
    }
    files(req, res, () => {
      if (String(req.headers.accept ?? '').includes('text/html')) {
        sendShell(req, res, 404);
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
