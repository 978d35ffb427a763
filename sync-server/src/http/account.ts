import type { Hono } from 'hono';
import { PIPIT_FILE_EXTENSION, PIPIT_FILE_TYPE } from '@pipit/app-definition';
import {
  AVATAR_UPLOAD_MAX_BYTES,
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  deleteAccountRequestSchema,
  PROFILE_FIELDS,
  updateProfileRequestSchema,
  usernameSchema,
} from '@pipit/protocol';
import { describeDevice } from '../accounts/client-info';
import { rateLimited } from '../accounts/rate-limits';
import { clearSessionCookie } from '../accounts/session-cookie';
import { toAccount } from '../accounts/views';
import { exportAccount } from '../portable/export';
import { ServiceError } from '../service-error';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readBodyBytes, readJsonBody } from './body';
import { type ApiEnv, requireAuth } from './context';
import { attachment, exportOrigin } from './portable';

/** The signed-in person's own account: profile, email, password, sessions, export, deletion. */
export function registerAccount(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  registerProfile(app, deps);
  registerSignIn(app, deps);
  registerAccountEnd(app, deps);
}

/** The account as it is (and what deleting it would end), its profile and its avatar. */
function registerProfile(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { profiles } = deps;
  app.get('/account', (c) => c.json({ account: toAccount(requireAuth(c).user) }));

  app.get('/account/deletion', async (c) => {
    const userId = requireAuth(c).user.id;
    const { storage } = deps;
    // What data-removal.ts's `account` would end: the apps they own with every space in them, the
    // spaces they own anywhere; the others they are in, they leave.
    const apps = (await storage.apps.listForUser(userId)).filter((a) => a.role === 'owner');
    const theirs = await storage.spaces.listForUser(userId);
    const ending = new Set(theirs.filter((s) => s.role === 'owner').map((s) => s.id));
    for (const app of apps)
      for (const id of await storage.spaces.idsOf({ appId: app.id })) ending.add(id);
    const people = new Set<string>();
    const endingSpaces = [];
    for (const id of ending) {
      const space = await storage.spaces.get(id);
      if (!space) continue;
      const others = (await storage.spaces.members(id)).filter((m) => m.userId !== userId);
      for (const member of others) people.add(member.userId);
      endingSpaces.push({ id, name: space.name, people: others.length });
    }
    return c.json({
      apps: apps.length,
      endingSpaces,
      people: people.size,
      leaving: theirs.filter((s) => s.role !== 'owner' && !ending.has(s.id)).length,
    });
  });

  app.patch('/account/profile', async (c) => {
    const auth = requireAuth(c);
    const patch = await readJsonBody(c.req.raw, updateProfileRequestSchema);
    if (!PROFILE_FIELDS.some((field) => patch[field] !== undefined)) {
      throw new ApiError(
        'validation_failed',
        `Nothing to change: send one or more of ${PROFILE_FIELDS.join(', ')}.`,
      );
    }
    return c.json({ account: toAccount(await profiles.updateProfile(auth, patch)) });
  });

  app.post('/account/avatar', async (c) => {
    const auth = requireAuth(c);
    // Counted before the body is read, whatever the outcome (docs/product/quotas.md#rate-limits).
    try {
      await deps.rateLimiter.enforce('avatarUploadsPerAccount', auth.user.id);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'rate_limited') {
        throw rateLimited(error.extra.retryAfter ?? 60, {
          what: 'You have uploaded as many avatars this hour as one person may.',
          orElse: ', or choose an emoji avatar',
        });
      }
      throw error;
    }
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const bytes = new Uint8Array(await readBodyBytes(c.req.raw, AVATAR_UPLOAD_MAX_BYTES));
    return c.json({ account: toAccount(await profiles.setAvatarImage(auth, type, bytes)) });
  });
}

/** How the person signs in: their email and password, and their sessions. */
function registerSignIn(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { accounts, sessions } = deps;
  app.post('/account/email', async (c) => {
    const auth = requireAuth(c);
    const input = await readJsonBody(c.req.raw, changeEmailRequestSchema);
    return c.json({ account: toAccount(await accounts.requestEmailChange(auth, input)) }, 202);
  });

  app.post('/account/password', async (c) => {
    const auth = requireAuth(c);
    await accounts.changePassword(auth, await readJsonBody(c.req.raw, changePasswordRequestSchema));
    return c.json({ changed: true });
  });

  app.get('/account/sessions', async (c) => {
    const auth = requireAuth(c);
    const list = await deps.storage.sessions.listForUser(auth.user.id);
    return c.json({
      sessions: list.map((s) => ({
        id: s.id,
        current: s.id === auth.session.id,
        device: describeDevice(s.userAgent),
        ip: s.ip,
        createdAt: new Date(s.createdAt).toISOString(),
        lastSeenAt: new Date(s.lastSeenAt).toISOString(),
      })),
    });
  });

  app.delete('/account/sessions/:id', async (c) => {
    const auth = requireAuth(c);
    const id = c.req.param('id');
    // A session id is 32 hex digits (accounts/sessions.ts); anything else (a NUL byte, which
    // PostgreSQL refuses in text) is no session.
    const target = /^[0-9a-f]{32}$/.test(id) ? await deps.storage.sessions.findById(id) : null;
    if (!target || target.userId !== auth.user.id) {
      throw new ApiError('not_found', 'That session has already ended.');
    }
    await sessions.revoke(id);
    if (id === auth.session.id) c.header('Set-Cookie', clearSessionCookie(c.get('secure')));
    return c.body(null, 204);
  });

  app.post('/account/sessions/revoke-others', async (c) => {
    const auth = requireAuth(c);
    const ended = await sessions.revokeAll(auth.user.id, auth.session.id);
    return c.json({ ended: ended.length });
  });
}

/** The account's export and its deletion, and whether a username is free. */
function registerAccountEnd(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { accounts, profiles } = deps;
  // The account's JSON and every app it owns, with the person's data in each, as one `.pipit`
  // file (docs/product/portable-file.md): the same format an app's export has, importable anywhere.
  app.get('/account/export', async (c) => {
    const auth = requireAuth(c);
    const data = await profiles.exportData(auth);
    const date = data.exportedAt.slice(0, 10);
    const bytes = await exportAccount(
      {
        storage: deps.storage,
        clock: deps.clock,
        logger: c.get('logger'),
        liveDocuments: deps.liveDocuments,
      },
      { origin: exportOrigin(c, deps.publicOrigin), userId: auth.user.id, account: data },
    );
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': PIPIT_FILE_TYPE,
      'Content-Disposition': attachment(
        `pipit-${auth.user.username}-${date}${PIPIT_FILE_EXTENSION}`,
      ),
    });
  });

  app.delete('/account', async (c) => {
    const auth = requireAuth(c);
    const { password } = await readJsonBody(c.req.raw, deleteAccountRequestSchema);
    await accounts.deleteAccount(auth, password);
    c.header('Set-Cookie', clearSessionCookie(c.get('secure')));
    return c.body(null, 204);
  });

  app.get('/usernames/:username', async (c) => {
    const parsed = usernameSchema.safeParse(c.req.param('username'));
    if (!parsed.success) {
      return c.json({
        username: c.req.param('username'),
        available: false,
        reason: parsed.error.issues[0]?.message ?? 'That username isn’t valid.',
      });
    }
    const availability = await accounts.usernameAvailability(parsed.data, c.get('auth')?.user.id);
    return c.json({ username: parsed.data, ...availability });
  });
}
