import * as zm from 'zod/mini';
import { APP_ROLES, VISIBILITIES } from './app-access';
import { appIconSchema, appIdSchema } from './app-basics';
import { avatarSchema } from './profile-parts';
import { lazySchema } from './lazy-schema';

/*
 * A published app and the cards that list apps: zod/mini only, in a module of their own.
 * The installed app (`/apps/{id}/pwa`) reads these, and classic zod's schema functions do not
 * tree-shake — one classic schema in a module that page loads brings all of classic zod (its
 * JavaScript is budgeted: docs/performance.md). Classic schemas take these as parts, and `z.infer` reads them.
 */

/** The person an app page or a card credits. */
export const appAuthorSchema = lazySchema(() =>
  zm.object({
    username: zm.string(),
    displayName: zm.string(),
    avatar: zm.nullable(avatarSchema),
  }),
);
export type AppAuthor = zm.infer<typeof appAuthorSchema>;

/**
 * One problem that keeps an app from being published. `path` is dotted into the definition JSON as
 * exported (`screens.0.components.2.props.url`; `meta.title`; `collections.1.fields.0.name`), with
 * the indexes of the document as the server read it: ordered entities, orphans (children of a
 * deleted parent) left out, nothing repaired or dropped. Indexes can differ from what the editor
 * shows (its reader drops unreadable steps, another device may have moved things), so `entity`
 * names the innermost entity the problem is in, by table (`screens`, `components`, `collections`,
 * `fields`, `records`, `actions`, `steps`, `aiActions`, `reminders`) and id; null for `meta`, `theme` and the
 * app as a whole (path '').
 */
export const publishProblemSchema = lazySchema(() =>
  zm.object({
    path: zm.string(),
    message: zm.string(),
    entity: zm.nullable(zm.object({ table: zm.string(), id: zm.string() })),
  }),
);
export type PublishProblem = zm.infer<typeof publishProblemSchema>;

/** Where a remix came from, when its source is still visible to the reader. */
export const appLineageSchema = lazySchema(() =>
  zm.object({
    appId: appIdSchema,
    version: zm.int().check(zm.gte(1)),
    title: zm.string(),
    author: appAuthorSchema,
  }),
);
export type AppLineage = zm.infer<typeof appLineageSchema>;

/** An app as cards show it: explore, profiles, the landing page, suggestions. */
export const appCardSchema = lazySchema(() =>
  zm.object({
    id: appIdSchema,
    title: zm.string(),
    description: zm.string(),
    icon: zm.nullable(appIconSchema),
    tags: zm.array(zm.string()),
    author: appAuthorSchema,
    version: zm.int().check(zm.gte(1)),
    publishedAt: zm.number(),
    opens: zm.int().check(zm.nonnegative()),
    installs: zm.int().check(zm.nonnegative()),
  }),
);
export type AppCard = zm.infer<typeof appCardSchema>;

/**
 * `GET /api/published/{id}`: the app page and the runtime's source. Anyone gets a public or unlisted
 * published app (archived ones too: installs keep working until the app is deleted); owner and
 * collaborators also get private, unpublished and draft apps (`version` and `definition` null for a
 * draft). Everyone else: `not_found`. `definition` is the version's JSON (parse it tolerantly).
 */
export const publishedAppSchema = lazySchema(() =>
  zm.extend(appCardSchema, {
    version: zm.nullable(zm.int().check(zm.gte(1))),
    publishedAt: zm.nullable(zm.number()),
    visibility: zm.enum(VISIBILITIES),
    published: zm.boolean(),
    archived: zm.boolean(),
    /** The reader's role on the app; null for visitors. */
    role: zm.nullable(zm.enum(APP_ROLES)),
    remixedFrom: zm.nullable(appLineageSchema),
    /**
     * Remixes anyone may discover: public, published and not archived (an unlisted remix is shared by
     * link only, so it is not listed here).
     */
    remixes: zm.array(zm.pick(appCardSchema, { id: true, title: true, author: true })),
    /** How many such remixes there are (the list shows the newest 50). Absent in older answers. */
    remixCount: zm.optional(zm.number()),
    definition: zm.unknown(),
  }),
);
export type PublishedApp = zm.infer<typeof publishedAppSchema>;
