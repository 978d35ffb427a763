import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema';
import type { UploadRecord } from '../types/small-stores';

/**
 * What every write of an upload shares (uploads, avatars, imports): the quota owner held while
 * their bytes are summed and the new ones written, and the id registered for good.
 */

/**
 * The bytes of every upload counted against `userId`'s quota: their images and avatar, and the
 * photos and files on records of their data and of the spaces they own.
 */
export async function uploadBytesOf(on: Kysely<Database>, userId: string): Promise<number> {
  const row = await on
    .selectFrom('uploads')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const files = await on
    .selectFrom('record_files')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
    .where('owner_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.total ?? 0) + Number(files?.total ?? 0);
}

/**
 * Writes an upload, its id first claimed in `upload_ids` for good: an id used once (its upload
 * deleted since or not) fails here, a unique violation, and is never given to other bytes.
 */
export async function writeUpload(trx: Transaction<Database>, upload: UploadRecord): Promise<void> {
  await trx
    .insertInto('upload_ids')
    .values({ id: upload.id, registered_at: upload.createdAt })
    .execute();
  await trx
    .insertInto('uploads')
    .values({
      id: upload.id,
      user_id: upload.userId,
      content_type: upload.contentType,
      bytes: upload.bytes,
      size: upload.bytes.byteLength,
      created_at: upload.createdAt,
      app_id: upload.appId ?? null,
    })
    .execute();
}
