import { z } from 'zod';
import { APP_ROLES, COLLABORATOR_ROLES } from './app-access';
import { appIconSchema, appIdSchema } from './app-basics';
import { appSummarySchema } from './app-summary';
import { usernameSchema } from './usernames';
import { lazySchema } from './lazy-schema';

/**
 * `POST /api/apps`: registers an app made on a device (offline too). Idempotent: registering the
 * same id again answers the same app. The title is a first listing until the document is stored.
 */
export const createAppRequestSchema = lazySchema(() =>
  z.object({
    id: appIdSchema,
    title: z.string().trim().min(1).max(60),
    description: z.string().max(500).default(''),
    icon: z.nullable(appIconSchema).default(null),
    /** A remix: the published version it copies (the creator must be able to see it). */
    forkedFrom: z.object({ appId: appIdSchema, version: z.number().int().min(1) }).optional(),
  }),
);
export type CreateAppRequest = z.input<typeof createAppRequestSchema>;

/**
 * `PUT /api/apps/{id}/archived`: archives or restores an app (owner only). Server state, not part
 * of the shared definition: a collaborator's edit of the document can never archive an app.
 */
export const setArchivedRequestSchema = lazySchema(() => z.object({ archived: z.boolean() }));
export const appListResponseSchema = lazySchema(() =>
  z.object({ apps: z.array(appSummarySchema) }),
);

export const collaboratorSchema = lazySchema(() =>
  z.object({
    userId: z.string(),
    username: z.string(),
    displayName: z.string(),
    role: z.enum(APP_ROLES),
    addedAt: z.number(),
  }),
);
export type Collaborator = z.infer<typeof collaboratorSchema>;
export const collaboratorListSchema = lazySchema(() =>
  z.object({ people: z.array(collaboratorSchema) }),
);

/** `PUT /api/apps/{id}/collaborators/{username}`: invite, or change a role (owner only). */
export const inviteRequestSchema = lazySchema(() => z.object({ role: z.enum(COLLABORATOR_ROLES) }));
export const collaboratorUsernameSchema = usernameSchema;

/** The free plan's limits (docs/product/quotas.md). */
export const PLAN_LIMITS = {
  apps: 25,
  publishedApps: 10,
  collaboratorsPerApp: 5,
} as const;
