import { z } from 'zod';
import { ID_PATTERN } from './ids';
import { lazySchema } from './lazy-schema';

/*
 * Moving apps between servers (docs/product/portable-file.md): uploaded images of an app, the
 * `.pipit` export, and the answer of an import. The file's own format is @pipit/app-definition's
 * (pipit-file.ts).
 */

const idSchema = lazySchema(() => z.string().regex(ID_PATTERN, 'Not an id.'));

/** Where an uploaded image is served. */
export function uploadUrl(id: string): string {
  return `/api/uploads/${id}`;
}

/** `POST /api/apps/{id}/images`: the image itself as the body (PNG, JPEG, WebP or GIF). */
export const APP_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const APP_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** An uploaded image is scaled down to fit this many pixels on its longer side. */
export const APP_IMAGE_MAX_SIDE_PX = 2048;

export const appImageResponseSchema = lazySchema(() =>
  z.object({
    url: z.string(),
    id: idSchema,
    /** Stored bytes (counted against the owner's upload quota), and the stored size in pixels. */
    bytes: z.number().int(),
    width: z.number().int(),
    height: z.number().int(),
  }),
);
export type AppImageResponse = z.infer<typeof appImageResponseSchema>;

/** `GET /api/apps/{id}/export?data=1`: whether the caller's own data comes with the app. */
export const exportQuerySchema = lazySchema(() =>
  z.object({
    data: z.enum(['0', '1']).default('0'),
  }),
);

/** `POST /api/apps/import?copy=1`: import again, as a copy, a file already imported. */
export const importQuerySchema = lazySchema(() =>
  z.object({
    copy: z.enum(['0', '1']).default('0'),
  }),
);

export const importedAppSchema = lazySchema(() =>
  z.object({
    /** The app's id here. */
    id: idSchema,
    /** Its id in the file (the server it came from). */
    sourceId: idSchema,
    title: z.string(),
    versions: z.number().int(),
    checkpoints: z.number().int(),
    images: z.number().int(),
    /** The importer's records written into their data in the app (0 when the file had none). */
    records: z.number().int(),
  }),
);

/** `POST /api/apps/import`, 201: the apps made, and which ids had to change. */
export const importResponseSchema = lazySchema(() =>
  z.object({
    apps: z.array(importedAppSchema),
    report: z.object({
      /** The file's origin and export id. */
      origin: z.string(),
      exportId: idSchema,
      remapped: z.object({
        /** Old app id → new, for ids already used on this server. */
        apps: z.record(z.string(), z.string()),
        /** Old image id → new, likewise (their urls in definitions follow). */
        images: z.record(z.string(), z.string()),
        /** Checkpoints that got new ids. */
        checkpoints: z.number().int(),
      }),
      /** What was left out, in words (a published version not published again, …). */
      notes: z.array(z.string()),
    }),
  }),
);
export type ImportResponse = z.infer<typeof importResponseSchema>;
