import type { Hono } from 'hono';
import {
  type AppRole,
  type AppSummary,
  appIdSchema,
  collaboratorUsernameSchema,
  createAppRequestSchema,
  inviteRequestSchema,
  PLAN_LIMITS,
  setArchivedRequestSchema,
} from '@pipit/protocol';
import { nameOf, toPerson } from '../accounts/views';
import { isPublicVersion, mayReadVersion } from '../history/remix';
import { findVisibleApp } from '../publishing/visibility';
import type { AppRecord, Storage, UserRecord } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { appDeleted } from './published';
import { readJsonBody } from './body';
import { type ApiContext, type ApiEnv, requireAuth } from './context';

const notFound = () =>
  new ApiError('not_found', 'That app does not exist, or it is not shared with you.');

/** An app as lists show it; `owner` is read by the caller (one query for a whole list). */
function summarize(app: AppRecord, role: AppRole, owner: UserRecord | undefined): AppSummary {
  return {
    id: app.id,
    owner: {
      id: app.ownerId,
      username: owner?.username ?? '',
      displayName: owner ? nameOf(owner) : '',
    },
    role,
    title: app.title,
    description: app.description,
    icon: app.icon,
    visibility: app.visibility,
    archived: app.archivedAt !== null,
    publishedVersion: app.publishedVersion,
    createdAt: app.createdAt,
    updatedAt: app.updatedAt,
  };
}

/** The app in the path and the caller's role on it; not found for anyone without a role. */
export async function appFor(c: ApiContext, storage: Storage) {
  const auth = requireAuth(c);
  const id = appIdSchema.safeParse(c.req.param('id'));
  if (!id.success) throw notFound();
  const found = await storage.apps.getWithRole(id.data, auth.user.id);
  if (!found?.role) throw notFound();
  return { auth, app: found.app, role: found.role };
}

export function requireOwner(role: AppRole, what: string) {
  if (role !== 'owner') throw new ApiError('forbidden', `Only the app’s owner can ${what}.`);
}

/**
 * Apps: registration of an app made on a device (idempotent, so an app made
 * offline registers itself when back online), my list, archive and restore, delete forever,
 * collaborators. Archiving is the owner's alone, so it is server state set here — never an edit of
 * the shared document, which an editor may write; the device sends it when next online.
 */
export function registerApps(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  registerMyApps(app, deps);
  registerOneApp(app, deps);
  registerCollaborators(app, deps);
}

/** My apps: the list, and registering an app made on a device. */
function registerMyApps(app: Hono<ApiEnv>, { storage, clock }: ApiDependencies): void {
  app.get('/apps', async (c) => {
    const auth = requireAuth(c);
    const apps = await storage.apps.listForUser(auth.user.id);
    const owners = await storage.users.findByIds(apps.map((a) => a.ownerId));
    return c.json({ apps: apps.map((a) => summarize(a, a.role, owners.get(a.ownerId))) });
  });

  app.post('/apps', async (c) => {
    const auth = requireAuth(c);
    const input = await readJsonBody(c.req.raw, createAppRequestSchema);
    const existing = await storage.apps.get(input.id);
    if (existing) {
      // The same device asking again (a retry after a lost answer) gets the same app.
      if (existing.ownerId !== auth.user.id) {
        throw new ApiError('forbidden', 'That app id belongs to someone else.');
      }
      return c.json({ app: summarize(existing, 'owner', auth.user) }, 200);
    }
    const planFull = () =>
      new ApiError(
        'limit_reached',
        `You have ${PLAN_LIMITS.apps} apps, the most the free plan allows. Delete an archived app to make room.`,
      );
    // Refused early when clearly full; the say is the insert's, counted under the owner's lock.
    if ((await storage.apps.countOwned(auth.user.id)) >= PLAN_LIMITS.apps) throw planFull();
    // A remix names the version it copied: one the creator may read now — the version the
    // original publishes, or any of its versions for its owner and collaborators
    // (docs/product/history.md). Any other is answered as an app that is not there, so
    // nobody learns which versions a private past holds.
    let forkedFromPublic = false;
    if (input.forkedFrom) {
      const { appId, version: number } = input.forkedFrom;
      const source = await findVisibleApp(storage, appId, auth.user.id);
      const version =
        source && mayReadVersion(source, number)
          ? await storage.publishing.version(source.app.id, number)
          : null;
      if (!source || !version) {
        throw new ApiError(
          'not_found',
          'The app you are remixing is not available any more, or no longer shares the version you copied, so nothing was made. Open its page again and remix what it shares now.',
        );
      }
      forkedFromPublic = isPublicVersion(source, number);
    }
    const registered = await storage.apps.insert(
      {
        id: input.id,
        ownerId: auth.user.id,
        title: input.title,
        description: input.description,
        icon: input.icon,
        createdAt: clock.now(),
        forkedFrom: input.forkedFrom ?? null,
        forkedFromPublic,
      },
      { maxOwned: PLAN_LIMITS.apps },
    );
    // A device that still holds a deleted app learns so here, instead of bringing it back.
    if ('deleted' in registered) throw appDeleted();
    if ('full' in registered) throw planFull();
    const { app: created, created: isNew } = registered;
    if (created.ownerId !== auth.user.id) {
      throw new ApiError('forbidden', 'That app id belongs to someone else.');
    }
    return c.json({ app: summarize(created, 'owner', auth.user) }, isNew ? 201 : 200);
  });
}

/** One app: reading it, archiving or restoring it, deleting it forever. */
function registerOneApp(app: Hono<ApiEnv>, { storage, clock, dataRemoval }: ApiDependencies): void {
  app.get('/apps/:id', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    const owner = role === 'owner' ? auth.user : await storage.users.findById(found.ownerId);
    return c.json({ app: summarize(found, role, owner ?? undefined) });
  });

  app.put('/apps/:id/archived', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    requireOwner(role, 'archive or restore it');
    const input = await readJsonBody(c.req.raw, setArchivedRequestSchema);
    const changed = await storage.apps.setArchived(found.id, input.archived ? clock.now() : null);
    if (!changed) throw notFound();
    return c.json({ app: summarize(changed, 'owner', auth.user) });
  });

  app.delete('/apps/:id', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    requireOwner(role, 'delete it');
    if (found.archivedAt === null) {
      throw new ApiError('forbidden', 'Archive the app first; only archived apps can be deleted.');
    }
    // Installs keep working until the app is deleted (docs/product/states.md): now its visitors'
    // syncing ends, and their data for it goes with the app.
    await dataRemoval.app(found.id, auth.user.id);
    return c.json({ deleted: true });
  });
}

/** The people an app is shared with: listing, inviting or changing a role, removing or leaving. */
function registerCollaborators(
  app: Hono<ApiEnv>,
  { storage, clock, accessChanges, creators }: ApiDependencies,
): void {
  app.get('/apps/:id/collaborators', async (c) => {
    const { app: found } = await appFor(c, storage);
    const collaborators = await storage.apps.collaborators(found.id);
    const users = await storage.users.findByIds([
      found.ownerId,
      ...collaborators.map((p) => p.userId),
    ]);
    const owner = users.get(found.ownerId);
    const people = [
      ...(owner ? [toPerson(owner, 'owner', found.createdAt)] : []),
      ...collaborators.flatMap((p) => {
        const user = users.get(p.userId);
        return user ? [toPerson(user, p.role, p.addedAt)] : [];
      }),
    ];
    return c.json({ people });
  });

  app.put('/apps/:id/collaborators/:username', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    requireOwner(role, 'invite people');
    const input = await readJsonBody(c.req.raw, inviteRequestSchema);
    if (auth.user.emailVerifiedAt === null) {
      throw new ApiError(
        'email_not_verified',
        'Confirm your email address before inviting people. The link is in the email we sent you.',
      );
    }
    const username = collaboratorUsernameSchema.safeParse(c.req.param('username'));
    const invitee = username.success ? await storage.users.findByUsername(username.data) : null;
    if (!invitee) {
      throw new ApiError('not_found', 'No one goes by that username. Check the spelling.');
    }
    if (invitee.id === found.ownerId) {
      throw new ApiError('validation_failed', 'That is the app’s owner; they can already edit it.');
    }
    const current = await storage.apps.collaborators(found.id);
    const already = current.find((p) => p.userId === invitee.id);
    if (!already && current.length >= PLAN_LIMITS.collaboratorsPerApp) {
      throw new ApiError(
        'limit_reached',
        `An app can have ${PLAN_LIMITS.collaboratorsPerApp} collaborators on the free plan. Remove someone first.`,
      );
    }
    const addedAt = already?.addedAt ?? clock.now();
    await storage.apps.putCollaborator({
      appId: found.id,
      userId: invitee.id,
      role: input.role,
      invitedBy: auth.user.id,
      addedAt,
    });
    if (already && already.role !== input.role)
      await accessChanges.roleChanged(found.id, invitee.id);
    // Told without holding up the answer; a failure is logged there, never this request's.
    if (!already) {
      void creators.notify({
        kind: 'collaborator_added',
        appId: found.id,
        actorId: auth.user.id,
        userId: invitee.id,
      });
    }
    return c.json({ person: toPerson(invitee, input.role, addedAt) }, already ? 200 : 201);
  });

  app.delete('/apps/:id/collaborators/:username', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    const username = collaboratorUsernameSchema.safeParse(c.req.param('username'));
    const person = username.success ? await storage.users.findByUsername(username.data) : null;
    // The owner removes anyone; a collaborator may leave.
    if (role !== 'owner' && person?.id !== auth.user.id) requireOwner(role, 'remove people');
    if (!person || !(await storage.apps.removeCollaborator(found.id, person.id))) {
      throw new ApiError('not_found', 'That person is not a collaborator on this app.');
    }
    await accessChanges.revoked(found.id, person.id);
    return c.json({ removed: true });
  });
}
