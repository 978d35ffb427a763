// zod/mini, in a module of its own: the edit route's loader reads an app with these, every page
// loads the route tree, and a module's classic zod schemas would all come along (zod's builders
// are not known to be pure, so a bundler keeps every one of them).
import * as zm from 'zod/mini';
import { APP_ROLES } from './app-access';
import { appIconSchema, appIdSchema } from './app-basics';
import { lazySchema } from './lazy-schema';

/**
 * An app as lists show it (docs/product/records.md); the server keeps the listing fields from the
 * document.
 */
export const appSummarySchema = lazySchema(() =>
  zm.object({
    id: appIdSchema,
    owner: zm.object({ id: zm.string(), username: zm.string(), displayName: zm.string() }),
    role: zm.enum(APP_ROLES),
    title: zm.string(),
    description: zm.string(),
    icon: zm.nullable(appIconSchema),
    visibility: zm.enum(['private', 'unlisted', 'public']),
    archived: zm.boolean(),
    publishedVersion: zm.nullable(zm.int()),
    createdAt: zm.number(),
    updatedAt: zm.number(),
  }),
);
export type AppSummary = zm.infer<typeof appSummarySchema>;

export const appResponseSchema = lazySchema(() => zm.object({ app: appSummarySchema }));
