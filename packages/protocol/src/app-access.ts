/*
 * Who may see an app and what a person may do with it, without zod (the schemas that use these:
 * app-basics.ts, published-app.ts, apps.ts).
 * The installed app's first load is one chunk with every module its entry imports, and a zod
 * schema there that a lazily loaded part uses stays in it, with zod's core (docs/performance.md):
 * what the first screen needs of the protocol lives apart from the schemas.
 */

export const VISIBILITIES = ['private', 'unlisted', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const APP_ROLES = ['owner', 'editor', 'viewer'] as const;
export type AppRole = (typeof APP_ROLES)[number];
export const COLLABORATOR_ROLES = ['editor', 'viewer'] as const;
export type CollaboratorRole = (typeof COLLABORATOR_ROLES)[number];
