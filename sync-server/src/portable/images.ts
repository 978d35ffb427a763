import {
  APP_IMAGE_MAX_BYTES,
  APP_IMAGE_TYPES,
  type AppImageResponse,
  createId,
  uploadUrl,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import { prepareUpload } from '../accounts/image-decoding';
import { UPLOAD_QUOTA_BYTES } from '../accounts/profile-service';
import { ServiceError } from '../service-error';
import type { AppRecord, Storage } from '../storage/types';

/** The quota message, for an upload and an import alike. */
export function quotaMessage(): string {
  return `That would take your uploads past the ${UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of your plan. Remove some images first.`;
}

const unreadable = () =>
  new ServiceError('validation_failed', 'That file isn’t an image we can read. Try another.', {
    fields: { image: 'That file isn’t an image we can read.' },
  });

/**
 * `POST /api/apps/{id}/images`: an image for an app (the image component, the app's icon). It
 * belongs to the app — an export takes it along, deleting the app deletes it — and counts against
 * the app owner's upload quota, whoever of the owner and editors uploads it: the app's images are
 * the owner's to keep or delete. Everything that can refuse it without decoding it does so first:
 * its type and size, the owner's quota (from the bytes received), its header (format, pixels),
 * the uploader's hourly decoding budget; only then is it decoded. The quota's final say is the
 * insert's (UploadStore.insertWithinQuota), with the bytes as kept: atomic per owner.
 */
export async function storeAppImage(
  deps: { storage: Storage; clock: Clock },
  app: AppRecord,
  uploaderId: string,
  contentType: string,
  bytes: Uint8Array,
): Promise<AppImageResponse> {
  const image = await prepareUpload(
    deps,
    {
      contentType,
      bytes,
      quotaOwnerId: app.ownerId,
      uploaderId,
      quotaBytes: UPLOAD_QUOTA_BYTES,
    },
    {
      acceptedTypes: APP_IMAGE_TYPES,
      maxBytes: APP_IMAGE_MAX_BYTES,
      noun: 'images',
      unreadable,
      overQuota: () => new ServiceError('payload_too_large', quotaMessage()),
    },
  );
  // The quota again, with the bytes as kept, where they are written: the check above read `used`
  // before decoding, as did every upload sent at the same time; this one holds the owner while
  // it sums and inserts, so requests sent together never share the same room.
  const id = createId();
  const stored = await deps.storage.uploads.insertWithinQuota(
    {
      id,
      userId: app.ownerId,
      appId: app.id,
      contentType: image.contentType,
      bytes: image.bytes,
      createdAt: deps.clock.now(),
    },
    UPLOAD_QUOTA_BYTES,
  );
  if (!stored) throw new ServiceError('payload_too_large', quotaMessage());
  return {
    url: uploadUrl(id),
    id,
    bytes: image.bytes.byteLength,
    width: image.width,
    height: image.height,
  };
}
