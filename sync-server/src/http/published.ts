import type { Hono } from 'hono';
import {
  appIdSchema,
  ANONYMOUS_VIEWER,
  type AppLineage,
  appEventRequestSchema,
  PUBLISHED_VIEWER_HEADER,
  type PublishedApp,
} from '@pipit/protocol';
import { toAppCard, toAuthor } from '../publishing/cards';
import { createPopularity } from '../publishing/popularity';
import { mayReadVersion, readableBase } from '../history/remix';
import { findVisibleApp, type VisibleApp } from '../publishing/visibility';
import type { Storage } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import type { ApiContext, ApiEnv } from './context';

const notFound = () =>
  new ApiError(
    'not_found',
    'There is no app at this address. It may be private, unpublished or deleted; check the link with the person who shared it.',
  );

export const appDeleted = () =>
  new ApiError('app_deleted', 'Its creator deleted this app, so it no longer opens anywhere.');

/** The app in the path, if the reader may see it (publishing/visibility.ts); else not_found. */
async function visibleApp(c: ApiContext, storage: Storage): Promise<VisibleApp> {
  // Not an app id (PostgreSQL refuses a NUL byte in text): no such app, not a 500 (fuzz-api).
  const parsed = appIdSchema.safeParse(c.req.param('id'));
  if (!parsed.success) throw notFound();
  const id = parsed.data;
  const visible = await findVisibleApp(storage, id, c.get('auth')?.user.id ?? null);
  if (visible) return visible;
  // An installed copy learns its app is gone for good (and stops asking), not just hidden.
  if (await storage.apps.wasDeleted(id)) throw appDeleted();
  throw notFound();
}

/**
 * Where a remix came from, when the reader may see that app. The version it was made from is
 * named, with that version's title, only when the reader may read it now (history/remix.ts, the
 * rule of `GET /api/apps/{id}/upstream`): the original's people every version, anyone else the
 * version it publishes now, or the one it published for everyone when the remix recorded it. A
 * version only its people could read (published while the app was private) is named to
 * nobody else, nor is the live document's title: they get the version the original publishes now,
 * with its title, as the original's own page shows it
 * (docs/product/history.md#remixes-that-pull-their-originals-updates).
 */
async function lineageOf(
  storage: Storage,
  { app }: VisibleApp,
  readerId: string | null,
): Promise<AppLineage | null> {
  if (!app.forkedFrom || app.forkedFromVersion === null) return null;
  const source = await findVisibleApp(storage, app.forkedFrom, readerId);
  if (!source) return null;
  const base = app.forkedFromVersion;
  const author = toAuthor(source.owner);
  if (mayReadVersion(source, base) || readableBase(app, source) === base) {
    const version = await storage.publishing.version(source.app.id, base);
    // The live document's title is the original's people's to read only.
    if (version || source.role !== null) {
      return {
        appId: source.app.id,
        version: base,
        title: version?.title ?? source.app.title,
        author,
      };
    }
  }
  const published = source.app.publishedVersion;
  const current =
    published === null ? null : await storage.publishing.version(source.app.id, published);
  if (!current) return null;
  return { appId: source.app.id, version: current.number, title: current.title, author };
}

/**
 * The app page and the runtime's source (`GET /api/published/{id}`), and popularity events. Both
 * follow the one visibility rule; visitors only ever get a published version, never the document.
 */
export function registerPublished(
  app: Hono<ApiEnv>,
  { storage, clock, logger, rateLimiter, creators }: ApiDependencies,
): void {
  const popularity = createPopularity({ storage, clock, logger });

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
    const [remixes, remixCount] = await Promise.all([
      storage.publishing.remixes(found.id),
      storage.publishing.countRemixes(found.id),
    ]);
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
      remixCount,
      definition: version ? (JSON.parse(version.definitionJson) as unknown) : null,
    };
    c.header(PUBLISHED_VIEWER_HEADER, readerId ?? ANONYMOUS_VIEWER);
    return c.json(body);
  });

  app.post('/apps/:id/events', async (c) => {
    const { ip } = c.get('meta');
    // Counted before the app is even read: a refused request costs the counter's one write.
    await rateLimiter.enforce('appEventsPerIp', ip ?? 'unknown');
    const { app: found, role } = await visibleApp(c, storage);
    const { kind } = await readJsonBody(c.req.raw, appEventRequestSchema);
    // Popularity is about published apps; a collaborator previewing a draft counts for nothing.
    if (found.publishedAt !== null) {
      const visitor = await popularity.visitorOf(c.get('auth')?.user.id ?? null, ip);
      await popularity.record(found.id, kind, visitor);
      // The owner's and collaborators' own opens are not visitors. Told without holding up the
      // answer; each instance writes at most once per app and day.
      if (kind === 'open' && role === null) void creators.visited(found.id);
    }
    return c.body(null, 204);
  });
}
