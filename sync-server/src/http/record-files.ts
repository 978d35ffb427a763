import type { Hono } from 'hono';
import {
  isId,
  RECORD_FILE_HASH_PATTERN,
  RECORD_FILE_LIMITS,
  recordFileDownloadQuerySchema,
  recordFileQuerySchema,
  type RecordFileScope,
} from '@pipit/protocol';
import { rateLimited } from '../accounts/rate-limits';
import { resolveScope, storeRecordFile } from '../collab/record-files';
import { ServiceError } from '../service-error';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { fieldsOf, readBodyBytes } from './body';
import { type ApiContext, type ApiEnv, requireAuth } from './context';
import { attachment } from './portable';

/**
 * The raw body `PUT …/files/{hash}` takes: the bytes themselves, of any type. Any id and hash
 * match here, so that one that is not an id or a SHA-256 is answered as such by the route
 * (`not_found`, `validation_failed`) rather than as a body that should have been JSON.
 */
export const RECORD_FILE_RAW_BODY = {
  path: /^\/api\/(apps|spaces)\/[^/]+\/files\/[^/]+$/,
  types: /^[a-z]+\/[a-z0-9.+-]+\s*(;|$)/,
  limitBytes: Math.max(RECORD_FILE_LIMITS.imageBytes, RECORD_FILE_LIMITS.fileBytes),
  message: 'Send the photo or file itself as the request body, with its type.',
} as const;

/**
 * Content-addressed and private: a browser may keep it for good (the bytes under a hash never
 * change), but no shared cache may. The service worker keeps thumbnails (client/sw.ts).
 */
const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';

function scopeOf(c: ApiContext): RecordFileScope {
  const appId = c.req.param('id');
  const spaceId = c.req.param('spaceId');
  if (appId !== undefined && isId(appId)) return { kind: 'data', appId };
  if (spaceId !== undefined && isId(spaceId)) return { kind: 'space', spaceId };
  throw new ApiError(
    'not_found',
    spaceId !== undefined
      ? 'That space does not exist, or you are not in it.'
      : 'That app does not exist, or you cannot use it.',
  );
}

function hashOf(c: ApiContext): string {
  const hash = c.req.param('hash') ?? '';
  if (!RECORD_FILE_HASH_PATTERN.test(hash)) {
    throw new ApiError(
      'validation_failed',
      'A photo or file is named by the SHA-256 of its bytes: 64 lowercase hex digits.',
      { fields: { hash: 'Not a SHA-256 in lowercase hex.' } },
    );
  }
  return hash;
}

/**
 * Photos and files on records (docs/product/records.md#photos-and-files-on-records), under a
 * visitor's own data in an app (`/api/apps/{id}/files/{hash}`) or a shared space
 * (`/api/spaces/{spaceId}/files/{hash}`): whoever may open the records' document may read them,
 * whoever may write it may add them (collab/record-files.ts).
 */
export function registerRecordFiles(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock } = deps;

  const put = async (c: ApiContext) => {
    const auth = requireAuth(c);
    const scope = scopeOf(c);
    const hash = hashOf(c);
    const query = recordFileQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new ApiError('validation_failed', 'Say whether this is an image or a file.', {
        fields: fieldsOf(query.error),
      });
    }
    const { kind } = query.data;
    const target = await resolveScope(storage, scope, auth.user.id);
    try {
      await deps.rateLimiter.enforce('recordFilesPerAccount', auth.user.id);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'rate_limited') {
        throw rateLimited(error.extra.retryAfter ?? 60, {
          what: 'You have added as many photos and files this hour as one person may.',
        });
      }
      throw error;
    }
    const limit = kind === 'image' ? RECORD_FILE_LIMITS.imageBytes : RECORD_FILE_LIMITS.fileBytes;
    let body: Buffer;
    try {
      body = await readBodyBytes(c.req.raw, limit);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'payload_too_large') {
        throw new ApiError(
          'payload_too_large',
          `That ${kind === 'image' ? 'photo' : 'file'} is larger than ${limit / 1024 / 1024} MB. Choose a smaller one.`,
        );
      }
      throw error;
    }
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const { file, created } = await storeRecordFile({ storage, clock }, target, {
      uploaderId: auth.user.id,
      hash,
      kind,
      contentType: type,
      bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    });
    return c.json(file, created ? 201 : 200);
  };

  const read = async (c: ApiContext, thumbnail: boolean) => {
    const auth = requireAuth(c);
    const scope = scopeOf(c);
    const hash = hashOf(c);
    const target = await resolveScope(storage, scope, auth.user.id);
    const file = await storage.recordFiles.get(target.document, hash);
    if (!file) {
      throw new ApiError(
        'not_found',
        'That photo or file is not on the server (yet): the device that added it may not have sent it. It shows once that device is back online.',
      );
    }
    const headers = {
      'Cache-Control': PRIVATE_IMMUTABLE,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
    if (thumbnail) {
      if (!file.thumbnail) throw new ApiError('not_found', 'Only a photo has a thumbnail.');
      return c.body(file.thumbnail as Uint8Array<ArrayBuffer>, 200, {
        ...headers,
        'Content-Type': 'image/webp',
      });
    }
    const download = recordFileDownloadQuerySchema.safeParse(c.req.query());
    const name = (download.success ? download.data.name : undefined) ?? `file-${hash.slice(0, 12)}`;
    return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': file.contentType,
      // A photo may show in a page (it was encoded again by us); any other file is downloaded.
      ...(file.kind === 'file' ? { 'Content-Disposition': attachment(name) } : {}),
    });
  };

  app.put('/apps/:id/files/:hash', put);
  app.put('/spaces/:spaceId/files/:hash', put);
  app.get('/apps/:id/files/:hash', (c) => read(c, false));
  app.get('/spaces/:spaceId/files/:hash', (c) => read(c, false));
  app.get('/apps/:id/files/:hash/thumbnail', (c) => read(c, true));
  app.get('/spaces/:spaceId/files/:hash/thumbnail', (c) => read(c, true));
}
