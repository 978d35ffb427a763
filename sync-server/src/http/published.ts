import type { Hono } from 'hono';
import {
  ANONYMOUS_VIEWER,
  type AppLineage,
  appEventRequestSchema,
  PUBLISHED_VIEWER_HEADER,
  type PublishedApp,
} from '@pipit/protocol';
import type { RequestMeta } from '../accounts/account-service';
import { randomToken, sha256Hex } from '../accounts/random';
import { toAppCard, toAuthor } from '../publishing/cards';
import { findVisibleApp, type VisibleApp } from '../publishing/visibility';
import type { Storage } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api';
import { readJsonBody } from './body';
import type { ApiContext, ApiEnv } from './context';

const notFound = () =>
  new ApiError(
    'not_found',
    'There is no app at this address. It may be private, unpublished or deleted; check the link with the person who shared it.',
  );

/** The app in the path, if the reader may see it (publishing/visibility.ts); else not_found. */
async function visibleApp(c: ApiContext, storage: Storage): Promise<VisibleApp> {
  const visible = await findVisibleApp(
    storage,
    c.req.param('id') ?? '',
    c.get('auth')?.user.id ?? null,
  );
  if (!visible) throw notFound();
  return visible;
}

/** Where a remix came from, when the reader may see that app. */
async function lineageOf(
  storage: Storage,
  { app }: VisibleApp,
  readerId: string | null,
): Promise<AppLineage | null> {
  if (!app.forkedFrom || app.forkedFromVersion === null) return null;
  const source = await findVisibleApp(storage, app.forkedFrom, readerId);
  if (!source) return null;
  const version = await storage.publishing.version(source.app.id, app.forkedFromVersion);
  return {
    appId: source.app.id,
    version: app.forkedFromVersion,
    title: version?.title ?? source.app.title,
    author: toAuthor(source.owner),
  };
}

/**
 * An anonymous visitor, for counting them once: a keyed hash of their address and browser. The key
 * is a server secret, so the stored value cannot be reversed to an address by trying them all.
 */
async function anonymousVisitor(storage: Storage, meta: RequestMeta): Promise<string> {
  const key = await storage.secrets.getOrCreate('visitor-key', randomToken);
  return `anonymous:${sha256Hex(`${key}\n${meta.ip ?? ''}\n${meta.userAgent ?? ''}`)}`;
}

/**
 * The app page and the runtime's source (`GET /api/published/{id}`), and popularity events. Both
 * follow the one visibility rule; visitors only ever get a published version, never the document.
 */
export function registerPublished(app: Hono<ApiEnv>, { storage, clock }: ApiDependencies): void {
  app.get('/published/:id', async (c) => {
    const visible = await visibleApp(c, storage);
    const { app: found, role, owner } = visible;
    const readerId = c.get('auth')?.user.id ?? null;
    // Visitors get the published version; the owner and collaborators also see the latest one of
    // an unpublished app (null for a draft).
    const number =
      found.publishedVersion ??
      (role ? ((await storage.publishing.versions(found.id))[0]?.number ?? null) : null);
    const version = number === null ? null : await storage.publishing.version(found.id, number);
    const listing = version ?? found;
    const remixes = await storage.publishing.remixes(found.id);
    const body: PublishedApp = {
      id: found.id,
      title: listing.title,
      description: listing.description,
      icon: listing.icon,
      tags: listing.tags,
      author: toAuthor(owner),
      version: version?.number ?? null,
      publishedAt: version?.publishedAt ?? null,
      opens: found.opens,
      installs: found.installs,
      visibility: found.visibility,
      published: found.publishedAt !== null,
      archived: found.archivedAt !== null,
      role,
      remixedFrom: await lineageOf(storage, visible, readerId),
      remixes: remixes.map(toAppCard).map(({ id, title, author }) => ({ id, title, author })),
      definition: version ? (JSON.parse(version.definitionJson) as unknown) : null,
    };
    c.header(PUBLISHED_VIEWER_HEADER, readerId ?? ANONYMOUS_VIEWER);
    return c.json(body);
  });

  app.post('/apps/:id/events', async (c) => {
    const { app: found } = await visibleApp(c, storage);
    const { kind } = await readJsonBody(c.req.raw, appEventRequestSchema);
    // Popularity is about published apps; a collaborator previewing a draft counts for nothing.
    if (found.publishedAt !== null) {
      const auth = c.get('auth');
      const visitor = auth
        ? `user:${auth.user.id}`
        : await anonymousVisitor(storage, c.get('meta'));
      await storage.publishing.recordEvent(found.id, kind, visitor, clock.now());
    }
    return c.body(null, 204);
  });
}
