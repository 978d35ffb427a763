import type { Hono } from 'hono';
import { isId } from '@pipit/protocol';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import type { ApiEnv } from './context';

/**
 * `GET /api/uploads/{id}`: uploaded images, re-encoded on upload. Ids are random and contents never
 * change, so browsers keep them; nosniff and a sandboxing policy keep them from being anything but
 * an image.
 */
export function registerUploads(app: Hono<ApiEnv>, { storage }: ApiDependencies): void {
  app.get('/uploads/:id', async (c) => {
    const id = c.req.param('id');
    const upload = isId(id) ? await storage.uploads.get(id) : null;
    if (!upload) throw new ApiError('not_found', 'That image does not exist any more.');
    return c.body(upload.bytes as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': upload.contentType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
  });
}
