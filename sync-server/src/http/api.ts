import { Hono } from 'hono';
import type { Logger } from '../logger';
import type { Storage } from '../storage/types';
import { ApiError } from './api-error';
import { assertDeclaredSize } from './body';
import { createDigest } from '../digest';
import { registerHealth } from './health';
import { isSameOriginRequest } from './origin';
import { registerProfiles } from './profiles';

export interface ApiEnv {
  Variables: { logger: Logger; requestId: string };
}

export interface ApiDependencies {
  storage: Storage;
  logger: Logger;
  publicOrigin: string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The REST API under /api: JSON in and out, errors as `{ error: { code, message, … } }` (SPEC §9).
 * A failure that is not a product error is logged with a digest, and the digest goes back to the
 * client, which shows it under the generic error message.
 */
export function createApi(deps: ApiDependencies): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>().basePath('/api');

  app.use(async (c, next) => {
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || createDigest();
    c.set('requestId', requestId);
    c.set('logger', deps.logger.child({ requestId }));
    await next();
    c.header('Cache-Control', 'no-store');
  });

  app.use(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
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
    if (hasBody && !/^application\/json\s*(;|$)/.test(type)) {
      throw new ApiError('unsupported_media_type', 'Send the request body as application/json.');
    }
    return next();
  });

  // Bodies are read with readJsonBody, which enforces the limit as they stream; a request that
  // declares a larger body is refused before anything is read.
  app.use(async (c, next) => {
    assertDeclaredSize(c.req.header('content-length'));
    await next();
  });

  registerHealth(app, deps);
  registerProfiles(app, deps);

  app.notFound(() => {
    throw new ApiError('not_found', 'There is no such API endpoint.');
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      return c.json(error.toBody(), error.status as 400);
    }
    const digest = createDigest();
    c.get('logger').error(
      { err: error, digest, method: c.req.method, path: c.req.path },
      'request failed',
    );
    const body = new ApiError('internal', 'Something went wrong on the server.', {
      digest,
    }).toBody();
    return c.json(body, 500);
  });

  return app;
}
