import {
  APP_IMAGE_MAX_BYTES,
  APP_IMAGE_TYPES,
  type AppImageResponse,
  createId,
  uploadUrl,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import {
  describePixels,
  type EncodedImage,
  encodeImage,
  IMAGE_PIXEL_LIMITS,
  megapixels,
  readImageHeader,
  spendDecodeBudget,
} from '../accounts/image-decoding';
import { UPLOAD_QUOTA_BYTES } from '../accounts/profile-service';
import { ServiceError } from '../service-error';
import type { AppRecord, Storage } from '../storage/types';

/**
 * Reading an image's header, the hourly decoding budget and the encoder moved to
 * accounts/image-decoding.ts, so that avatars (accounts/profile-service.ts) use them too without an
 * import cycle; they are exported here as well for what imports them from here.
 */
export {
  ACCEPTED_IMAGE_FORMATS,
  type AcceptedImageFormat,
  describePixels,
  type EncodedImage,
  encodeImage,
  IMAGE_PIXEL_LIMITS,
  type ImageHeader,
  type ImageHeaderProblem,
  readImageHeader,
  spendDecodeBudget,
} from '../accounts/image-decoding';

/** The quota message, for an upload and an import alike. */
export function quotaMessage(): string {
  return `That would take your uploads past the ${UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of your plan. Remove some images first.`;
}

const unreadable = () =>
  new ServiceError('validation_failed', 'That file isn’t an image we can read. Try another.', {
    fields: { image: 'That file isn’t an image we can read.' },
  });

const ACCEPTED_WORDS = 'a PNG, JPEG, WebP or GIF image';

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
  if (!(APP_IMAGE_TYPES as readonly string[]).includes(contentType)) {
    throw new ServiceError('unsupported_media_type', `Upload ${ACCEPTED_WORDS}.`);
  }
  if (bytes.byteLength > APP_IMAGE_MAX_BYTES) {
    throw new ServiceError(
      'payload_too_large',
      'That image is larger than 5 MB. Choose a smaller one.',
    );
  }
  if (bytes.byteLength === 0) throw unreadable();
  const used = await deps.storage.uploads.totalBytesForUser(app.ownerId);
  if (used + bytes.byteLength > UPLOAD_QUOTA_BYTES) {
    throw new ServiceError('payload_too_large', quotaMessage());
  }
  const header = await readImageHeader(bytes);
  if ('problem' in header) {
    if (header.problem === 'not_accepted') {
      throw new ServiceError(
        'unsupported_media_type',
        `That file is not ${ACCEPTED_WORDS}, whatever its name or type says. Upload ${ACCEPTED_WORDS}.`,
      );
    }
    if (header.problem === 'too_many_pixels') {
      throw new ServiceError(
        'payload_too_large',
        `That image is ${describePixels(header)}; images of at most ${megapixels(IMAGE_PIXEL_LIMITS.perImage)} megapixels are taken. Scale it down, or choose a smaller one.`,
      );
    }
    throw unreadable();
  }
  await spendDecodeBudget(deps, uploaderId, header.pixels);
  let image: EncodedImage;
  try {
    image = await encodeImage(bytes, header);
  } catch {
    throw unreadable();
  }
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
