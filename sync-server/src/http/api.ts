import { Hono } from 'hono';
import { AVATAR_UPLOAD_MAX_BYTES, isProtectedEndpoint } from '@pipit/protocol';
import { clientIp } from '../accounts/client-info';
import { clearSessionCookie, isSecureRequest, readSessionCookie } from '../accounts/session-cookie';
import { createDigest } from '../digest';
import { currentRequest } from '../request-context';
import { ServiceError } from '../service-error';
import { registerAccount } from './account';
import type { ApiDependencies } from './api-dependencies';
import { registerAiBuilder } from './ai-builder';
import { registerApps } from './apps';
import { ApiError, errorBody, errorStatus } from './api-error';
import { registerAuth } from './auth';
import { API_BODY_LIMIT_BYTES, assertDeclaredSize } from './body';
import type { ApiEnv } from './context';
import { registerAdmin } from './admin';
import { registerAi } from './ai';
import { registerClientConfig } from './client-config';
import { registerExplore } from './explore';
import { registerHealth } from './health';
import { CHECKPOINT_BODY_LIMIT_BYTES, isCheckpointPost, registerHistory } from './history';
import { isSuggestionPost, registerSuggestions, SUGGESTION_BODY_LIMIT_BYTES } from './suggestions';
import { DRAFT_BODY_LIMIT_BYTES, isDraftWrite, registerDrafts } from './drafts';
import { registerHumanCheck } from './human-check';
import { matchedRoute } from './matched-route';
import { registerMessages } from './messages';
import { isSameOriginRequest } from '../origin';
import { registerProfiles } from './profiles';
import { registerPublished } from './published';
import { registerPublishing } from './publishing';
import { registerPush } from './push';
import { registerReminders } from './reminders';
import { registerSpaceActivity } from './space-activity';
import { registerCreatorNotifications } from './creator-notifications';
import { isUnsubscribePost } from './unsubscribe';
import { registerSpaces } from './spaces';
import { registerUploads } from './uploads';
import { RECORD_FILE_RAW_BODY, registerRecordFiles } from './record-files';
import { PORTABLE_RAW_BODIES, registerPortable } from './portable';

export type { ApiEnv } from './context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Bodies that are not JSON, by endpoint: the avatar upload sends the image itself. Everything else
 * that changes state sends JSON (a CSRF defence on top of the Origin check).
 */
const RAW_BODY_ENDPOINTS: Record<string, { types: RegExp; limitBytes: number }> = {
  '/api/account/avatar': { types: /^image\//, limitBytes: AVATAR_UPLOAD_MAX_BYTES },
};

/** The raw body an endpoint takes, by its path (an app's images and the import have an id or none). */
function rawBodyOf(
  path: string,
): { types: RegExp; limitBytes: number; message?: string } | undefined {
  return (
    RAW_BODY_ENDPOINTS[path] ??
    [...Object.values(PORTABLE_RAW_BODIES), RECORD_FILE_RAW_BODY].find((endpoint) =>
      endpoint.path.test(path),
    )
  );
}

/**
 * The REST API under /api: JSON in and out, errors as `{ error: { code, message, … } }`
 * (docs/product/routes.md#the-rest-api). A failure that is not a product error is logged with a
 * digest, and the digest goes back to the client, which shows it under the generic error message.
 */
export function createApi(deps: ApiDependencies): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>().basePath('/api');

  app.use(async (c, next) => {
    // The server gives every request its id (X-Request-Id, request-context.ts), and the logger
    // writes it on each line of the request.
    c.set('logger', deps.logger);
    c.set(
      'secure',
      isSecureRequest((name) => c.req.header(name), deps.publicOrigin, deps.trustProxy),
    );
    c.set('meta', {
      userAgent: c.req.header('user-agent') ?? null,
      ip: clientIp(c.req.raw.headers, c.env?.incoming?.socket?.remoteAddress, deps.trustProxy),
    });
    await next();
    const request = currentRequest();
    if (request) request.route = matchedRoute(c);
    // Nothing of the API is cached unless its route says so (uploads and record files, which
    // never change under their address).
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  // Same-origin writes only, with a JSON body (or the one raw upload an endpoint takes).
  app.use(async (c, next) => {
    const raw = rawBodyOf(c.req.path);
    assertDeclaredSize(
      c.req.header('content-length'),
      raw?.limitBytes ??
        (isCheckpointPost(c.req.method, c.req.path)
          ? CHECKPOINT_BODY_LIMIT_BYTES
          : isSuggestionPost(c.req.method, c.req.path)
            ? SUGGESTION_BODY_LIMIT_BYTES
            : isDraftWrite(c.req.method, c.req.path)
              ? DRAFT_BODY_LIMIT_BYTES
              : API_BODY_LIMIT_BYTES),
    );
    if (SAFE_METHODS.has(c.req.method) || isUnsubscribePost(c.req.method, c.req.path)) {
      return next();
    }
    if (!isSameOriginRequest(c.req.raw.headers, deps.publicOrigin)) {
      throw new ApiError(
        'forbidden',
        'This request did not come from Pipit itself, so it was refused.',
      );
    }
    // A body, when there is one, is JSON (a bodyless DELETE needs no content type).
    const hasBody =
      Number(c.req.header('content-length') ?? 0) > 0 ||
      c.req.header('transfer-encoding') !== undefined;
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    const allowed = raw ? raw.types.test(type) : /^application\/json\s*(;|$)/.test(type);
    if (hasBody && !allowed) {
      throw new ApiError(
        'unsupported_media_type',
        raw
          ? (raw.message ?? 'Upload an image file.')
          : 'Send the request body as application/json.',
      );
    }
    return next();
  });

  // Who is asking: the session cookie, checked against the database on every request.
  app.use(async (c, next) => {
    const cookie = readSessionCookie(c.req.header('cookie'), c.get('secure'));
    const auth = cookie ? await deps.sessions.authenticate(cookie) : null;
    c.set('auth', auth);
    if (cookie && !auth)
      c.header('Set-Cookie', clearSessionCookie(c.get('secure')), { append: true });
    return next();
  });

  // The human check guards exactly the endpoints the protocol lists.
  app.use(async (c, next) => {
    if (isProtectedEndpoint(c.req.method, c.req.path)) {
      await deps.humanCheck.verify(c.req.raw.headers, c.req.path, c.req.method);
    }
    return next();
  });

  registerHealth(app, deps);
  registerHumanCheck(app, deps);
  registerAuth(app, deps);
  registerAccount(app, deps);
  registerProfiles(app, deps);
  registerUploads(app, deps);
  registerMessages(app, deps);
  registerApps(app, deps);
  registerPublishing(app, deps);
  registerPortable(app, deps);
  registerHistory(app, deps);
  registerSuggestions(app, deps);
  registerDrafts(app, deps);
  registerSpaces(app, deps);
  registerRecordFiles(app, deps);
  registerPublished(app, deps);
  registerExplore(app, deps);
  registerAiBuilder(app, deps);
  registerClientConfig(app, deps);
  registerAdmin(app, deps);
  registerAi(app, deps);
  registerPush(app, deps);
  registerReminders(app, deps);
  registerSpaceActivity(app, deps);
  registerCreatorNotifications(app, deps);

  app.notFound(() => {
    throw new ApiError('not_found', 'There is no such API endpoint.');
  });

  app.onError((error, c) => {
    if (error instanceof ServiceError) {
      if (error.extra.retryAfter !== undefined)
        c.header('Retry-After', String(error.extra.retryAfter));
      return c.json(errorBody(error), errorStatus(error) as 400);
    }
    const digest = createDigest();
    c.get('logger').error(
      { err: error, digest, method: c.req.method, path: c.req.path },
      'request failed',
    );
    deps.reportServerError?.({
      error,
      digest,
      method: c.req.method,
      path: c.req.path,
    });
    const body = errorBody(
      new ApiError('internal', 'Something went wrong on the server.', {
        digest,
      }),
    );
    return c.json(body, 500);
  });

  return app;
}
