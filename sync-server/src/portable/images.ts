/** libvips is loaded on the first image: a server that handles none keeps it out of memory. */
const loadSharp = async () => (await import('sharp')).default;
import {
  APP_IMAGE_MAX_BYTES,
  APP_IMAGE_MAX_SIDE_PX,
  APP_IMAGE_TYPES,
  type AppImageResponse,
  createId,
  uploadUrl,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import { UPLOAD_QUOTA_BYTES } from '../accounts/profile-service';
import { ServiceError } from '../service-error';
import type { AppRecord, Storage } from '../storage/types';

/** Decoding bombs: images with more pixels than this are refused before they are decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

export interface EncodedImage {
  bytes: Uint8Array;
  contentType: 'image/webp';
  width: number;
  height: number;
}

const unreadable = () =>
  new ServiceError('validation_failed', 'That file isn’t an image we can read. Try another.', {
    fields: { image: 'That file isn’t an image we can read.' },
  });

/**
 * An image as the server keeps it: decoded and encoded again as WebP, turned upright, scaled down
 * to fit APP_IMAGE_MAX_SIDE_PX, metadata (EXIF, location) dropped — never stored as sent
 * (docs/library-notes.md#security). SVG is not accepted.
 */
export async function encodeImage(bytes: Uint8Array): Promise<EncodedImage> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: MAX_INPUT_PIXELS,
      animated: false,
    })
      .rotate()
      .resize(APP_IMAGE_MAX_SIDE_PX, APP_IMAGE_MAX_SIDE_PX, {
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return {
      bytes: new Uint8Array(data),
      contentType: 'image/webp',
      width: info.width,
      height: info.height,
    };
  } catch {
    throw unreadable();
  }
}

/**
 * An image from an imported file. One that is already what this server would have stored — a
 * single-frame WebP without metadata that fits APP_IMAGE_MAX_SIDE_PX and ends where its header
 * says, as every Pipit server writes — is kept byte for byte, so a file moved between servers
 * keeps its images exactly; any other image is encoded again like an upload; what is not an
 * image is refused.
 */
export async function acceptImportedImage(bytes: Uint8Array): Promise<EncodedImage> {
  const sharp = await loadSharp();
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    metadata = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new ServiceError('validation_failed', 'An image in this file cannot be read.');
  }
  const { width = 0, height = 0 } = metadata;
  const asStored =
    metadata.format === 'webp' &&
    (metadata.pages ?? 1) === 1 &&
    !metadata.exif &&
    !metadata.icc &&
    !metadata.xmp &&
    !metadata.iptc &&
    width > 0 &&
    height > 0 &&
    width <= APP_IMAGE_MAX_SIDE_PX &&
    height <= APP_IMAGE_MAX_SIDE_PX;
  // Nothing after the image: a WebP's RIFF header gives its whole length. (Its pixels are not
  // decoded here: that took 80% of an import's time (npm run bench -- portable), and what keeps a
  // file from being anything but an image is how uploads are served — their stored type, nosniff
  // and a sandboxing policy, http/uploads.ts.)
  const riffLength =
    bytes.length >= 12 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true) : -1;
  if (asStored && riffLength + 8 === bytes.byteLength) {
    return { bytes, contentType: 'image/webp', width, height };
  }
  if (!['png', 'jpeg', 'webp', 'gif'].includes(metadata.format ?? '')) {
    throw new ServiceError('validation_failed', 'This file holds an image Pipit does not accept.');
  }
  return encodeImage(bytes);
}

/** The quota message, for an upload and an import alike. */
export function quotaMessage(): string {
  return `That would take your uploads past the ${UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of your plan. Remove some images first.`;
}

/**
 * `POST /api/apps/{id}/images`: an image for an app (the image component, the app's icon). It
 * belongs to the app — an export takes it along, deleting the app deletes it — and counts against
 * the app owner's upload quota, whoever of the owner and editors uploads it: the app's images are
 * the owner's to keep or delete.
 */
export async function storeAppImage(
  deps: { storage: Storage; clock: Clock },
  app: AppRecord,
  contentType: string,
  bytes: Uint8Array,
): Promise<AppImageResponse> {
  if (!(APP_IMAGE_TYPES as readonly string[]).includes(contentType)) {
    throw new ServiceError('unsupported_media_type', 'Upload a PNG, JPEG, WebP or GIF image.');
  }
  if (bytes.byteLength > APP_IMAGE_MAX_BYTES) {
    throw new ServiceError(
      'payload_too_large',
      'That image is larger than 5 MB. Choose a smaller one.',
    );
  }
  if (bytes.byteLength === 0) throw unreadable();
  const image = await encodeImage(bytes);
  const used = await deps.storage.uploads.totalBytesForUser(app.ownerId);
  if (used + image.bytes.byteLength > UPLOAD_QUOTA_BYTES) {
    throw new ServiceError('payload_too_large', quotaMessage());
  }
  const id = createId();
  await deps.storage.uploads.insert({
    id,
    userId: app.ownerId,
    appId: app.id,
    contentType: image.contentType,
    bytes: image.bytes,
    createdAt: deps.clock.now(),
  });
  return {
    url: uploadUrl(id),
    id,
    bytes: image.bytes.byteLength,
    width: image.width,
    height: image.height,
  };
}
