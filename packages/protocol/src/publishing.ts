import { z } from 'zod';
import { VISIBILITIES } from './app-access';
import { lazySchema } from './lazy-schema';

/**
 * Publishing, the app page, explore and popularity (docs/product/routes.md, records.md, states.md,
 * roles.md). A published version is an immutable, validated snapshot of the definition; visitors
 * are only ever served one of those.
 */

/** One published version, as the version list shows it (the definition is not repeated here). */
export const appVersionSchema = lazySchema(() =>
  z.object({
    number: z.number().int().min(1),
    publishedAt: z.number(),
    publisher: z.object({ username: z.string(), displayName: z.string() }),
  }),
);
export type AppVersion = z.infer<typeof appVersionSchema>;

/**
 * `POST /api/apps/{id}/versions` (owner, verified email; at most PLAN_LIMITS.publishedApps apps
 * published at once): validates the live document as the server holds it, every acknowledged edit
 * included, and stores it as the next version (201 with the publication). The visibility given here
 * is set in the same step (default: the app's current one, or `public` for a first publication).
 * Problems answer `publish_invalid` (422) with `fields`: the path of each problem
 * (`screens.0.components.2.props.url`) → its message, and `problems`: the same list with the entity
 * each one belongs to (see publishProblemSchema).
 */
export const publishRequestSchema = lazySchema(() =>
  z.object({
    visibility: z.enum(VISIBILITIES).optional(),
  }),
);
export type PublishRequest = z.infer<typeof publishRequestSchema>;

/** The publishing state of an app, for its owner and collaborators (the editor's Publish panel). */
export const publicationSchema = lazySchema(() =>
  z.object({
    visibility: z.enum(VISIBILITIES),
    /** True while a version is published (false for drafts and unpublished apps). */
    published: z.boolean(),
    /** The newest version, published or not (null for a draft). */
    latestVersion: z.number().int().nullable(),
    versions: z.array(appVersionSchema),
  }),
);
export type Publication = z.infer<typeof publicationSchema>;

/**
 * `GET /api/apps/{id}/publication` (owner and collaborators). `PUT /api/apps/{id}/visibility`
 * (owner) and `DELETE /api/apps/{id}/publication` (owner: unpublish; versions are kept, and the
 * next publication gets the next number) answer it too.
 */
export const visibilityRequestSchema = lazySchema(() =>
  z.object({ visibility: z.enum(VISIBILITIES) }),
);

export const EXPLORE_PAGE_SIZE = 24;

/**
 * `POST /api/apps/{id}/events`: a visitor opened or installed a published app (popularity). Counted
 * once per visitor (a signed-in person, or else an address: an IPv6 address by its /64) per kind,
 * for 30 days; answers 204 (also for an app that is not published, which counts nothing). An app
 * the reader may not see is `not_found`; more than 60 events an hour from one address is
 * `rate_limited`.
 */
export const APP_EVENT_KINDS = ['open', 'install'] as const;
export const appEventRequestSchema = lazySchema(() => z.object({ kind: z.enum(APP_EVENT_KINDS) }));

/**
 * The per-app web app manifest and icons (docs/product/routes.md /apps/{id}/pwa), served by the
 * server. Defined beside the shell rewrite, in a module without zod, so the service worker stays
 * small.
 */
export { appPwaPaths } from './app-shell';
