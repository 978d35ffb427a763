import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import {
  RECORD_FILE_HASH_PATTERN,
  RECORD_FILE_KINDS,
  RECORD_FILE_LIMITS,
} from './record-file-limits';

/*
 * Photos and files on records (docs/product/records.md#photos-and-files-on-records): the bytes are
 * kept apart from the records' document, content-addressed by the SHA-256 of the bytes the device
 * picked, per data scope — a visitor's own data in an app, or a shared space.
 */

/** `PUT …/files/{hash}?kind=image|file`: the bytes as the body. */
export const recordFileQuerySchema = lazySchema(() =>
  z.object({
    kind: z.enum(RECORD_FILE_KINDS, { error: 'Say whether this is an image or a file.' }),
  }),
);

/** `GET …/files/{hash}?name=`: the name a downloaded file is saved under. */
export const recordFileDownloadQuerySchema = lazySchema(() =>
  z.object({
    name: z.string().max(RECORD_FILE_LIMITS.nameLength).optional(),
  }),
);

export const recordFileResponseSchema = lazySchema(() =>
  z.object({
    hash: z.string().regex(RECORD_FILE_HASH_PATTERN),
    kind: z.enum(RECORD_FILE_KINDS),
    /** The type it is served with: `image/webp` for a photo (encoded again), else the file's. */
    contentType: z.string(),
    /** Bytes kept (the original and a photo's thumbnail), counted against the quota. */
    size: z.number().int(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
  }),
);
export type RecordFileResponse = z.infer<typeof recordFileResponseSchema>;
