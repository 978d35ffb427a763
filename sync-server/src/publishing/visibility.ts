import { type AppRole, isId } from '@pipit/protocol';
import type { AppRecord, Storage, UserRecord } from '../storage/types';

/**
 * Who may see an app as a visitor (docs/product/routes.md `/apps/{id}`, states.md, roles.md): the
 * one rule behind the app page (`GET /api/published/{id}`), popularity events, remixing, the
 * per-app manifest and icons, and the visitor's data document on the socket.
 *
 * - The owner and collaborators (any `role`) see it in every state: draft, private, unpublished.
 * - Everyone else sees it while a version is published and it is public or unlisted. Archived apps
 *   stay visible (installs keep working until the app is deleted); a deleted app has no row.
 *
 * `role` is the reader's role on the app, null for a visitor or someone signed out.
 */
export function canSeePublished(
  app: Pick<AppRecord, 'visibility' | 'publishedAt'>,
  role: AppRole | null,
): boolean {
  if (role !== null) return true;
  return app.publishedAt !== null && app.visibility !== 'private';
}

/** An app the reader may see, with their role on it and its (live) owner. */
export interface VisibleApp {
  app: AppRecord;
  role: AppRole | null;
  owner: UserRecord;
}

/**
 * Loads an app for a reader (`userId` null when signed out) and applies canSeePublished; an app
 * whose owner deleted their account is gone too. Null means `not_found`, whatever the reason, so
 * nobody learns that a private app exists.
 */
export async function findVisibleApp(
  storage: Storage,
  appId: string,
  userId: string | null,
): Promise<VisibleApp | null> {
  if (!isId(appId)) return null;
  const found = userId
    ? await storage.apps.getWithRole(appId, userId)
    : await storage.apps.get(appId).then((app) => (app ? { app, role: null } : null));
  if (!found || !canSeePublished(found.app, found.role)) return null;
  const owner = await storage.users.findById(found.app.ownerId);
  return owner ? { app: found.app, role: found.role, owner } : null;
}
