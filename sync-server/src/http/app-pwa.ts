import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { isSecureRequest, readSessionCookie } from '../accounts/session-cookie';
import type { SessionService } from '../accounts/sessions';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import { appManifest } from '../pwa/app-manifest';
import { type AppIcons, createAppIcons } from '../pwa/app-icons';
import { type AppPwaSources, createAppPwaSources } from '../pwa/app-pwa-source';
import { findVisibleApp } from '../publishing/visibility';
import { isAppIconVariant } from '../pwa/render-icon';
import type { Storage } from '../storage/types';
import { REVALIDATE_CACHE } from './client-files';

/** `/apps/{anything}/manifest.webmanifest` and `/apps/{anything}/icons/{anything}`: ours to answer. */
export interface AppPwaDependencies {
  storage: Storage;
  sessions: SessionService;
  logger: Logger;
  publicOrigin: string | undefined;
  trustProxy: boolean;
  /** Bounded cache of drawn icons (tests make it small). */
  maxCachedIcons?: number;
}

const etagOf = (body: string | Buffer) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

/** If-None-Match holds this ETag (a list, or `*`, as RFC 9110 allows). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * Every published app's own manifest and icons (docs/product/routes.md `/apps/{id}/pwa`), outside
 * /api because the browser fetches them for the page, not the client's code. They are visible
 * exactly when the app page is: anyone for a public or unlisted published app (archived too), the
 * owner and collaborators for the rest — the shell's manifest link is
 * `crossorigin="use-credentials"` so the session cookie comes along. Everyone else gets 404,
 * whatever the reason. The same rule decides whether the app's own shell is served (canSeeApp, for
 * client-files.ts).
 */
export function createAppPwaRoutes(deps: AppPwaDependencies) {
  const sources: AppPwaSources = createAppPwaSources(deps.storage);
  const icons: AppIcons = createAppIcons({
    uploads: deps.storage.uploads,
    logger: deps.logger,
    ...(deps.maxCachedIcons !== undefined ? { maxEntries: deps.maxCachedIcons } : {}),
  });
  const app = new Hono();

  async function readerId(header: (name: string) => string | undefined): Promise<string | null> {
    const secure = isSecureRequest(header, deps.publicOrigin, deps.trustProxy);
    const cookie = readSessionCookie(header('cookie'), secure);
    const auth = cookie ? await deps.sessions.authenticate(cookie) : null;
    return auth?.user.id ?? null;
  }

  const notFound = () =>
    new Response('Not found', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': REVALIDATE_CACHE },
    });

  app.get('/apps/:id/manifest.webmanifest', async (c) => {
    const source = await sources.load(c.req.param('id'), await readerId((n) => c.req.header(n)));
    if (!source) return notFound();
    const body = JSON.stringify(appManifest(source));
    const etag = etagOf(body);
    const headers = { ETag: etag, 'Cache-Control': REVALIDATE_CACHE };
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.body(body, 200, {
      ...headers,
      'Content-Type': 'application/manifest+json; charset=utf-8',
    });
  });

  app.get('/apps/:id/icons/:file', async (c) => {
    const variant = /^(.+)\.png$/.exec(c.req.param('file'))?.[1];
    if (!variant || !isAppIconVariant(variant)) return notFound();
    const source = await sources.load(c.req.param('id'), await readerId((n) => c.req.header(n)));
    if (!source) return notFound();
    const iconSource = {
      icon: source.icon,
      title: source.title,
      background: source.backgroundColor,
    };
    const etag = icons.etag(iconSource, variant);
    const headers = { ETag: etag, 'Cache-Control': REVALIDATE_CACHE };
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    const png = await icons.png(iconSource, variant);
    return c.body(new Uint8Array(png), 200, {
      ...headers,
      'Content-Type': 'image/png',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
  });

  app.notFound(() => notFound());
  app.onError((error, c) => {
    const digest = createDigest();
    deps.logger.error({ err: error, digest, path: c.req.path }, 'app manifest or icon failed');
    return c.text(`Something went wrong on the server (digest ${digest}).`, 500, {
      'Cache-Control': 'no-store',
    });
  });

  const listener = getRequestListener(app.fetch, { overrideGlobalObjects: false });
  return {
    fetch: app.fetch,
    handle: (req: IncomingMessage, res: ServerResponse) => void listener(req, res),
    /** Whether the request's reader may see the app: the same rule as its manifest and icons. */
    async canSeeApp(appId: string, req: IncomingMessage): Promise<boolean> {
      const header = (name: string) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      };
      return (await findVisibleApp(deps.storage, appId, await readerId(header))) !== null;
    },
    /**
     * Whether the request's reader is the app's owner or a collaborator: who the editor
     * (`/apps/{id}/edit`) is for (docs/product/routes.md). An app whose owner is gone is gone.
     */
    async canOpenEditor(appId: string, req: IncomingMessage): Promise<boolean> {
      const header = (name: string) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      };
      const userId = await readerId(header);
      if (userId === null) return false;
      const visible = await findVisibleApp(deps.storage, appId, userId);
      return visible !== null && visible.role !== null;
    },
  };
}
