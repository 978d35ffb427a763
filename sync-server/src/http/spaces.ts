import type { Hono } from 'hono';
import {
  appIdSchema,
  collaboratorUsernameSchema,
  createId,
  createSpaceInviteRequestSchema,
  createSpaceRequestSchema,
  isId,
  renameSpaceRequestSchema,
  setSpaceMemberRequestSchema,
  SPACE_ENDING_DAYS,
  SPACE_LIMITS,
  type SpaceEnding,
  type SpaceInvite,
  type SpaceMember,
  type SpaceRole,
  type SpaceSummary,
  spaceIdSchema,
  spaceInvitePath,
  spaceInviteTokenSchema,
} from '@pipit/protocol';
import { randomToken, sha256Hex } from '../accounts/random';
import { rateLimited } from '../accounts/rate-limits';
import { nameOf } from '../accounts/views';
import { findVisibleApp } from '../publishing/visibility';
import type { SpaceInviteRecord, SpaceRecord, Storage, UserRecord } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import { type ApiContext, type ApiEnv, requireAuth } from './context';

const DAY_MS = 24 * 60 * 60 * 1000;
/** An invitation token is 24 random bytes: 32 url-safe characters (spaceInviteTokenSchema). */
const INVITE_TOKEN_BYTES = 24;

/** Whether the space does not exist or the asker is not in it, the answer is the same. */
const notFound = () =>
  new ApiError('not_found', 'That space does not exist, or you are not in it.');

const appNotFound = () =>
  new ApiError('not_found', 'That app does not exist, or it is not shared with you.');

/** A withdrawn link, one never made, or one whose space is gone: nothing tells them apart. */
const inviteNotFound = () =>
  new ApiError(
    'not_found',
    'This invitation link does not work: it may be incomplete (copied only in part), withdrawn, or for a space that was deleted. If you still want to join, ask the person who sent it for a new one.',
  );

const person = (user: UserRecord) => ({
  userId: user.id,
  username: user.username,
  displayName: nameOf(user),
});

function summarize(
  space: SpaceRecord,
  role: SpaceRole,
  owner: UserRecord | undefined,
  memberCount: number,
): SpaceSummary {
  return {
    id: space.id,
    appId: space.appId,
    name: space.name,
    role,
    owner: owner ? person(owner) : { userId: space.ownerId, username: '', displayName: '' },
    memberCount,
    createdAt: space.createdAt,
  };
}

const toInvite = (invite: SpaceInviteRecord): SpaceInvite => ({
  id: invite.id,
  role: invite.role,
  createdAt: invite.createdAt,
  expiresAt: invite.expiresAt,
});

/** The space in the path and the asker's role in it; not found for anyone who is not in it. */
export async function spaceFor(c: ApiContext, storage: Storage) {
  const auth = requireAuth(c);
  const id = spaceIdSchema.safeParse(c.req.param('spaceId'));
  if (!id.success) throw notFound();
  const found = await storage.spaces.getWithRole(id.data, auth.user.id);
  if (!found?.role) throw notFound();
  return { auth, space: found.space, role: found.role };
}

function requireSpaceOwner(role: SpaceRole, what: string) {
  if (role !== 'owner') throw new ApiError('forbidden', `Only the space’s owner can ${what}.`);
}

/** The person a path names by username; not found when no live account goes by it. */
async function personFor(c: ApiContext, storage: Storage): Promise<UserRecord | null> {
  const username = collaboratorUsernameSchema.safeParse(c.req.param('username'));
  return username.success ? storage.users.findByUsername(username.data) : null;
}

/** A summary for the asker, reading the owner and the count. */
async function summaryOf(
  storage: Storage,
  space: SpaceRecord,
  role: SpaceRole,
): Promise<SpaceSummary> {
  const [owner, count] = await Promise.all([
    storage.users.findById(space.ownerId),
    storage.spaces.memberCount(space.id),
  ]);
  return summarize(space, role, owner ?? undefined, count);
}

/** A person in SPACE_LIMITS.spacesPerPerson spaces already, told to the asker. */
const personFull = (user: UserRecord, asker: boolean) =>
  new ApiError(
    'limit_reached',
    asker
      ? `You are in ${SPACE_LIMITS.spacesPerPerson} spaces, the most the free plan allows. Leave a space you no longer use, or delete one you own, to make room.`
      : `${nameOf(user)} is in ${SPACE_LIMITS.spacesPerPerson} spaces already, the most the free plan allows. They need to leave one before they can join this one.`,
  );

/** A space with SPACE_LIMITS.membersPerSpace people in it. */
const spaceFull = () =>
  new ApiError(
    'limit_reached',
    `This space has ${SPACE_LIMITS.membersPerSpace} people, the most the free plan allows. Someone has to leave, or be removed by the owner, first.`,
  );

/** The open invitation a token names, with its space; expired and withdrawn links refused. */
/**
 * The invitation a link's token names. Only links that do not work are counted against the
 * address (a script guesses; a household opens the links it was sent), and past the limit every
 * link is refused from there, a working one too — or guessing would still find them.
 */
async function inviteFor(
  c: ApiContext,
  { storage, clock, rateLimiter }: Pick<ApiDependencies, 'storage' | 'clock' | 'rateLimiter'>,
) {
  const address = c.get('meta').ip ?? 'unknown';
  const misses = await rateLimiter.peek('spaceInviteMissesPerIp', address);
  if (misses.count >= misses.limit) {
    throw rateLimited(misses.retryAfter, {
      what: 'Too many invitation links that don’t work were opened from your network in the last hour, so none can be opened from it for now. Your link may well be fine.',
    });
  }
  const miss = async (error: ApiError) => {
    await rateLimiter.record('spaceInviteMissesPerIp', address);
    return error;
  };
  const token = spaceInviteTokenSchema.safeParse(c.req.param('token'));
  const invite = token.success
    ? await storage.spaces.inviteByTokenHash(sha256Hex(token.data))
    : null;
  const space =
    invite && invite.revokedAt === null ? await storage.spaces.get(invite.spaceId) : null;
  if (!invite || !space) throw await miss(inviteNotFound());
  if (invite.expiresAt <= clock.now()) {
    throw await miss(
      new ApiError(
        'token_expired',
        'This invitation link has expired. Ask the space’s owner for a new one.',
      ),
    );
  }
  return { invite, space };
}

/**
 * Shared spaces (docs/product/spaces.md): a visitor of an app they may see makes a space, adds
 * people by username or with invitation links, and gives each a role. Membership is the only way
 * in: the app's creator has no access to a space they are not in. Every answer about a space the
 * asker is not in is `not_found`, so nobody learns that it exists.
 */
export function registerSpaces(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  registerAppSpaces(app, deps);
  registerSpace(app, deps);
  registerSpaceMembers(app, deps);
  registerSpaceInvites(app, deps);
  registerInvitationLinks(app, deps);
}

/** An app's spaces for the asker: listing them (and those that ended), making one. */
function registerAppSpaces(
  app: Hono<ApiEnv>,
  { storage, clock, logger, rateLimiter }: ApiDependencies,
): void {
  app.get('/apps/:id/spaces', async (c) => {
    const auth = requireAuth(c);
    const appId = appIdSchema.safeParse(c.req.param('id'));
    if (!appId.success) throw appNotFound();
    const spaces = await storage.spaces.listForUser(auth.user.id, appId.data);
    const owners = await storage.users.findByIds(spaces.map((s) => s.ownerId));
    // Spaces deleted by someone else are told for SPACE_ENDING_DAYS days, then forgotten: older
    // ones are never listed, and are cleared out now and then.
    const since = clock.now() - SPACE_ENDING_DAYS * DAY_MS;
    const endings = await storage.spaces.endingsFor(auth.user.id, appId.data, since);
    if (Math.random() < 0.01) {
      storage.spaces
        .pruneEndings(since)
        .catch((error: unknown) => logger.warn({ err: error }, 'pruning ended spaces failed'));
    }
    const ended: SpaceEnding[] = endings.map((e) => ({
      id: e.spaceId,
      name: e.name,
      endedAt: e.endedAt,
      why: e.why,
    }));
    return c.json({
      spaces: spaces.map((s) => summarize(s, s.role, owners.get(s.ownerId), s.memberCount)),
      ended,
    });
  });

  // The person has seen that a space they were in ended: it is not listed again.
  app.delete('/apps/:id/spaces/ended/:spaceId', async (c) => {
    const auth = requireAuth(c);
    const appId = appIdSchema.safeParse(c.req.param('id'));
    const spaceId = spaceIdSchema.safeParse(c.req.param('spaceId'));
    const dismissed =
      appId.success &&
      spaceId.success &&
      (await storage.spaces.dismissEnding(auth.user.id, appId.data, spaceId.data));
    if (!dismissed) {
      throw new ApiError('not_found', 'There is no ended space of yours to dismiss by that id.');
    }
    return c.json({ dismissed: true });
  });

  app.post('/apps/:id/spaces', async (c) => {
    const auth = requireAuth(c);
    const appId = c.req.param('id');
    // Only for an app they may see, as its visitors' data (publishing/visibility.ts).
    const visible = await findVisibleApp(storage, appId, auth.user.id);
    if (!visible) throw appNotFound();
    const input = await readJsonBody(c.req.raw, createSpaceRequestSchema);
    const id = input.id ?? createId();

    /** A space made with this id before: the same device asking again gets the same space. */
    const sameAgain = async (existing: SpaceRecord | null) => {
      if (!existing) {
        throw new ApiError('not_found', 'That space was deleted. Make a new one to start again.');
      }
      if (existing.ownerId !== auth.user.id || existing.appId !== visible.app.id) {
        throw new ApiError('forbidden', 'That space id belongs to someone else.');
      }
      return c.json({ space: await summaryOf(storage, existing, 'owner') }, 200);
    };

    if (input.id !== undefined) {
      const known = await storage.spaces.get(id);
      if (known || (await storage.spaces.wasDeleted(id))) return sameAgain(known);
    }
    // Each space made keeps a row for good, deleted or not: making them is bounded.
    await rateLimiter.enforce('spacesCreatedPerAccount', auth.user.id);
    const space: SpaceRecord = {
      id,
      appId: visible.app.id,
      ownerId: auth.user.id,
      name: input.name,
      createdAt: clock.now(),
    };
    // Counted and made in one transaction: requests racing each other cannot pass the limit.
    const inserted = await storage.spaces.insert(space, SPACE_LIMITS);
    if ('full' in inserted) throw personFull(auth.user, true);
    // Made at the same moment by another request with the same id.
    if (!inserted.created) return sameAgain(inserted.existing);
    return c.json({ space: summarize(space, 'owner', auth.user, 1) }, 201);
  });
}

/** One space: reading it, renaming it, deleting it. */
function registerSpace(app: Hono<ApiEnv>, { storage, clock, dataRemoval }: ApiDependencies): void {
  app.get('/spaces/:spaceId', async (c) => {
    const { space, role } = await spaceFor(c, storage);
    const members = await storage.spaces.members(space.id);
    const users = await storage.users.findByIds(members.map((m) => m.userId));
    const people: SpaceMember[] = members.flatMap((m) => {
      const user = users.get(m.userId);
      return user ? [{ ...person(user), role: m.role, joinedAt: m.joinedAt }] : [];
    });
    // Invitation links are the owner's to share or withdraw: the others never see them.
    const invites =
      role === 'owner'
        ? (await storage.spaces.openInvites(space.id, clock.now())).map(toInvite)
        : [];
    return c.json({
      space: summarize(space, role, users.get(space.ownerId), members.length),
      members: people,
      invites,
    });
  });

  app.patch('/spaces/:spaceId', async (c) => {
    const { space, role } = await spaceFor(c, storage);
    requireSpaceOwner(role, 'rename it');
    const { name } = await readJsonBody(c.req.raw, renameSpaceRequestSchema);
    const renamed = await storage.spaces.rename(space.id, name);
    if (!renamed) throw notFound();
    return c.json({ space: await summaryOf(storage, renamed, role) });
  });

  app.delete('/spaces/:spaceId', async (c) => {
    const { space, role } = await spaceFor(c, storage);
    requireSpaceOwner(role, 'delete it');
    // Its members' connections close on every instance before its document is deleted; each of
    // them is told it ended.
    await dataRemoval.space(space.id, { why: 'deleted', by: space.ownerId });
    return c.json({ deleted: true });
  });
}

/** The people in a space: adding someone or changing their role, removing someone or leaving. */
function registerSpaceMembers(
  app: Hono<ApiEnv>,
  { storage, clock, accessChanges, reminders }: ApiDependencies,
): void {
  app.put('/spaces/:spaceId/members/:username', async (c) => {
    const { space, role } = await spaceFor(c, storage);
    requireSpaceOwner(role, 'add people or change their roles');
    const input = await readJsonBody(c.req.raw, setSpaceMemberRequestSchema);
    const invitee = await personFor(c, storage);
    if (!invitee) {
      throw new ApiError('not_found', 'No one goes by that username. Check the spelling.');
    }
    if (invitee.id === space.ownerId) {
      throw new ApiError(
        'validation_failed',
        'That is the space’s owner; they are in it already, and their role stays owner.',
        { fields: { username: 'The owner is in the space already.' } },
      );
    }
    const findMember = async () =>
      (await storage.spaces.members(space.id)).find((m) => m.userId === invitee.id);
    let already = await findMember();
    if (!already) {
      // Only someone who may see the app: a space is its visitors' data (publishing/visibility.ts).
      if (!(await findVisibleApp(storage, space.appId, invitee.id))) {
        throw new ApiError(
          'forbidden',
          `${nameOf(invitee)} cannot open this app, so they cannot join its space. Its creator has to share the app with them first.`,
        );
      }
      const joinedAt = clock.now();
      const outcome = await storage.spaces.join(
        { spaceId: space.id, userId: invitee.id, role: input.role, joinedAt },
        SPACE_LIMITS,
        { viaLink: false },
      );
      if (outcome === 'space_full') throw spaceFull();
      if (outcome === 'person_full') throw personFull(invitee, false);
      if (outcome === 'gone') throw notFound();
      if (outcome === 'joined') {
        await reminders.joinedSpace(invitee.id, space.appId);
        return c.json({ member: { ...person(invitee), role: input.role, joinedAt } }, 201);
      }
      // Added at the same moment by another request: a change of role from here.
      already = await findMember();
      if (!already) throw notFound();
    }
    if (already.role !== input.role) {
      await storage.spaces.setRole(space.id, invitee.id, input.role);
      await accessChanges.spaceRoleChanged(space.id, invitee.id);
    }
    const member: SpaceMember = {
      ...person(invitee),
      role: input.role,
      joinedAt: already.joinedAt,
    };
    return c.json({ member }, 200);
  });

  app.delete('/spaces/:spaceId/members/:username', async (c) => {
    const { auth, space, role } = await spaceFor(c, storage);
    const leaving = await personFor(c, storage);
    // The owner removes anyone; a member or a reader may leave.
    if (role !== 'owner' && leaving?.id !== auth.user.id) requireSpaceOwner(role, 'remove people');
    if (leaving && leaving.id === space.ownerId) {
      throw new ApiError(
        'forbidden',
        'The owner cannot leave their own space. Delete the space instead; its records go with it.',
      );
    }
    // Removed by the owner, they cannot come back with an invitation link; leaving, they can.
    const barredAt = leaving?.id === auth.user.id ? undefined : clock.now();
    if (!leaving || !(await storage.spaces.removeMember(space.id, leaving.id, barredAt))) {
      throw new ApiError('not_found', 'That person is not in this space.');
    }
    await accessChanges.spaceRevoked(space.id, leaving.id);
    return c.json({ removed: true });
  });
}

/** A space's invitation links, as its owner makes and withdraws them. */
function registerSpaceInvites(
  app: Hono<ApiEnv>,
  { storage, clock, publicOrigin }: ApiDependencies,
): void {
  app.post('/spaces/:spaceId/invites', async (c) => {
    const { auth, space, role } = await spaceFor(c, storage);
    requireSpaceOwner(role, 'invite people');
    const input = await readJsonBody(c.req.raw, createSpaceInviteRequestSchema);
    const now = clock.now();
    const token = randomToken(INVITE_TOKEN_BYTES);
    const invite = {
      id: createId(),
      spaceId: space.id,
      role: input.role,
      createdBy: auth.user.id,
      createdAt: now,
      expiresAt: now + input.days * DAY_MS,
    };
    // Only the hash is kept: the token is in this answer and the link, nowhere else. Counted and
    // added in one transaction.
    const added = await storage.spaces.insertInvite(
      { ...invite, tokenHash: sha256Hex(token) },
      { maxOpen: SPACE_LIMITS.invitesPerSpace, now },
    );
    if (!added) {
      throw new ApiError(
        'limit_reached',
        `This space has ${SPACE_LIMITS.invitesPerSpace} open invitation links, the most the free plan allows. Withdraw one you no longer need first.`,
      );
    }
    const origin = publicOrigin ?? new URL(c.req.url).origin;
    return c.json(
      {
        invite: toInvite({ ...invite, revokedAt: null }),
        token,
        url: `${origin}${spaceInvitePath(token)}`,
      },
      201,
    );
  });

  app.delete('/spaces/:spaceId/invites/:inviteId', async (c) => {
    const { space, role } = await spaceFor(c, storage);
    requireSpaceOwner(role, 'withdraw invitation links');
    const inviteId = c.req.param('inviteId');
    if (!isId(inviteId) || !(await storage.spaces.revokeInvite(space.id, inviteId, clock.now()))) {
      throw new ApiError('not_found', 'That invitation link was withdrawn already.');
    }
    return c.json({ revoked: true });
  });
}

/** An invitation link as the person who opens it sees it, and joining with it. */
function registerInvitationLinks(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock } = deps;
  app.get('/space-invites/:token', async (c) => {
    const { invite, space } = await inviteFor(c, deps);
    // The app must be one the reader may see, signed in or not; otherwise the link shows nothing.
    const visible = await findVisibleApp(storage, space.appId, c.get('auth')?.user.id ?? null);
    const inviter = await storage.users.findById(invite.createdBy);
    if (!visible || !inviter) throw inviteNotFound();
    // Where the signed-in asker stands, so the page offers what joining would do: in
    // it already (open the app), taken out by the owner (the link no longer lets them in), or not.
    const asker = c.get('auth')?.user.id ?? null;
    const standing = asker
      ? (await storage.spaces.getWithRole(space.id, asker))?.role
        ? 'member'
        : (await storage.spaces.isBarred(space.id, asker))
          ? 'removed'
          : null
      : null;
    return c.json({
      standing,
      invite: {
        space: {
          id: space.id,
          name: space.name,
          memberCount: await storage.spaces.memberCount(space.id),
        },
        app: { id: visible.app.id, title: visible.app.title },
        invitedBy: person(inviter),
        role: invite.role,
        expiresAt: invite.expiresAt,
      },
    });
  });

  app.post('/space-invites/:token/accept', async (c) => {
    const auth = requireAuth(c);
    const { invite, space } = await inviteFor(c, deps);
    if (!(await findVisibleApp(storage, space.appId, auth.user.id))) {
      throw new ApiError(
        'not_found',
        'The app this space belongs to is no longer shared with you, so you cannot join it.',
      );
    }
    const outcome = await storage.spaces.join(
      { spaceId: space.id, userId: auth.user.id, role: invite.role, joinedAt: clock.now() },
      SPACE_LIMITS,
      { viaLink: true },
    );
    if (outcome === 'space_full') throw spaceFull();
    if (outcome === 'person_full') throw personFull(auth.user, true);
    if (outcome === 'gone') throw inviteNotFound();
    if (outcome === 'barred') {
      throw new ApiError(
        'forbidden',
        'The owner removed you from this space, so this link no longer lets you in. Ask them to add you again.',
      );
    }
    if (outcome === 'already') {
      // In it already (the owner too): the role they have stays.
      const found = await storage.spaces.getWithRole(space.id, auth.user.id);
      if (found?.role) return c.json({ space: await summaryOf(storage, space, found.role) }, 200);
      throw inviteNotFound();
    }
    await deps.reminders.joinedSpace(auth.user.id, space.appId);
    return c.json({ space: await summaryOf(storage, space, invite.role) }, 201);
  });
}
