import type { Hono } from 'hono';
import type { z } from 'zod';
import { PIPIT_FILE_EXTENSION, PIPIT_FILE_TYPE, PORTABLE_LIMITS } from '@pipit/app-definition';
import { APP_IMAGE_MAX_BYTES, exportQuerySchema, importQuerySchema } from '@pipit/protocol';
import { type RateLimitName, rateLimited } from '../accounts/rate-limits';
import { exportApp, type PortableDeps } from '../portable/export';
import { storeAppImage } from '../portable/images';
import { importFile } from '../portable/import';
import { ServiceError } from '../service-error';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { appFor } from './apps';
import { fieldsOf, readBodyBytes } from './body';
import { type ApiContext, type ApiEnv, requireAuth } from './context';

/** Raw bodies these endpoints take (api.ts lets them through its JSON-only rule). */
export const PORTABLE_RAW_BODIES = {
  images: {
    path: /^\/api\/apps\/[a-z2-7]{26}\/images$/,
    types: /^image\//,
    limitBytes: APP_IMAGE_MAX_BYTES,
    message: 'Upload an image file.',
  },
  import: {
    path: /^\/api\/apps\/import$/,
    types: /^application\/(zip|x-zip-compressed|octet-stream)\s*(;|$)/,
    limitBytes: PORTABLE_LIMITS.fileBytes,
    message: 'Send a .pipit file as application/zip.',
  },
} as const;

/** The origin a file says it came from: PUBLIC_ORIGIN, else the address this request used. */
export function exportOrigin(c: ApiContext, publicOrigin: string | undefined): string {
  return publicOrigin ?? new URL(c.req.url).origin;
}

/** `attachment` with a file name any browser takes: ASCII, and the full name for those that can. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A file name from an app's title: what file systems refuse becomes a dash. */
function fileNameOf(title: string): string {
  const base = Array.from(title, (ch) => (ch.charCodeAt(0) < 32 ? ' ' : ch))
    .join('')
    .replace(/[\\/:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 80);
  return `${base || 'app'}${PIPIT_FILE_EXTENSION}`;
}

function parseQuery<T extends typeof exportQuerySchema | typeof importQuerySchema>(
  c: ApiContext,
  schema: T,
): z.infer<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) {
    throw new ApiError('validation_failed', 'Some fields need another look.', {
      fields: fieldsOf(parsed.error),
    });
  }
  return parsed.data as z.infer<T>;
}

/**
 * Moving apps between servers (docs/product/portable-file.md): an app's images, its `.pipit`
 * export (the owner and editors, who edit it and see its history; the caller's own data only, and
 * only when asked), and importing a file as the caller's own apps.
 */
export function registerPortable(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock } = deps;
  const portable = (c: ApiContext): PortableDeps => ({
    storage,
    clock,
    logger: c.get('logger'),
    liveDocuments: deps.liveDocuments,
  });

  /**
   * Counts one upload or import of `userId` (docs/product/quotas.md#rate-limits) before its body is
   * read; past the limit, `rate_limited` in words that say which.
   */
  const limit = async (name: RateLimitName, userId: string, what: string) => {
    try {
      await deps.rateLimiter.enforce(name, userId);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'rate_limited') {
        throw rateLimited(error.extra.retryAfter ?? 60, { what });
      }
      throw error;
    }
  };

  app.post('/apps/import', async (c) => {
    const auth = requireAuth(c);
    const { copy } = parseQuery(c, importQuerySchema);
    await limit(
      'importsPerAccount',
      auth.user.id,
      'You have imported as many files this hour as one person may.',
    );
    const body = await readBodyBytes(c.req.raw, PORTABLE_LIMITS.fileBytes);
    if (body.byteLength === 0) {
      throw new ApiError('validation_failed', 'Send a .pipit file as the request body.');
    }
    const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    const result = await importFile(portable(c), auth.user, bytes, { copy: copy === '1' });
    return c.json(result, 201);
  });

  app.get('/apps/:id/export', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    if (role === 'viewer') {
      throw new ApiError('forbidden', 'Only the app’s owner and editors can export it.');
    }
    const { data } = parseQuery(c, exportQuerySchema);
    const { bytes, title } = await exportApp(portable(c), {
      origin: exportOrigin(c, deps.publicOrigin),
      app: found,
      dataOf: data === '1' ? auth.user.id : null,
    });
    // Named from the title the file's manifest holds, not the listing row (a store behind).
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': PIPIT_FILE_TYPE,
      'Content-Disposition': attachment(fileNameOf(title)),
    });
  });

  app.post('/apps/:id/images', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    if (role === 'viewer') {
      throw new ApiError('forbidden', 'Only the app’s owner and editors can add images to it.');
    }
    await limit(
      'appImagesPerAccount',
      auth.user.id,
      'You have added as many images this hour as one person may.',
    );
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const body = await readBodyBytes(c.req.raw, APP_IMAGE_MAX_BYTES);
    const image = await storeAppImage(
      { storage, clock },
      found,
      auth.user.id,
      type,
      new Uint8Array(body),
    );
    return c.json(image, 201);
  });
}
