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
import { rateLimited } from '../accounts/rate-limits';
import { ServiceError } from '../service-error';
import type { AppRecord, Storage } from '../storage/types';

/**
 * The raster formats Pipit takes, as libvips reads them from the bytes themselves — never from a
 * Content-Type or a file name: an SVG sent as `image/png` is an SVG.
 */
export const ACCEPTED_IMAGE_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
export type AcceptedImageFormat = (typeof ACCEPTED_IMAGE_FORMATS)[number];

/**
 * What decoding images may cost (docs/product/quotas.md#images). Pixels are counted as each
 * image's header declares them (width × height of its first frame), read before anything is
 * decoded; decoding and encoding again cost about linearly in them.
 */
export const IMAGE_PIXEL_LIMITS = {
  /** One image: well above a phone's usual photo (12 to 24 megapixels), kept from before. */
  perImage: 40_000_000,
  /**
   * Every image of one request (an import's; an upload holds one): about 60 images of the largest
   * a Pipit server stores (2048 × 2048), what a full 20 MB of photos makes.
   */
  perRequest: 250_000_000,
  /** Every image one person has this server decode in an hour, uploads and imports together. */
  perPersonPerHour: 500_000_000,
} as const;

const HOUR_MS = 60 * 60 * 1000;
const megapixels = (pixels: number) => Math.ceil(pixels / 1_000_000).toLocaleString('en-US');

export interface EncodedImage {
  bytes: Uint8Array;
  contentType: 'image/webp';
  width: number;
  height: number;
}

/** What an image's header says, read without decoding its pixels: the proof it may be decoded. */
export interface ImageHeader {
  format: AcceptedImageFormat;
  width: number;
  height: number;
  /** width × height: what decoding it costs. */
  pixels: number;
}

/** Why an image is refused before it is decoded. */
export type ImageHeaderProblem =
  | { problem: 'unreadable' }
  | { problem: 'not_accepted'; format: string }
  | { problem: 'too_many_pixels'; width: number; height: number; pixels: number };

/**
 * An image's format and size from its header alone (sharp's `metadata()`: cheap, no decoding):
 * what is not an image, not one of ACCEPTED_IMAGE_FORMATS, or larger than
 * IMAGE_PIXEL_LIMITS.perImage is refused here, before it costs a decode.
 */
export async function readImageHeader(
  bytes: Uint8Array,
): Promise<ImageHeader | ImageHeaderProblem> {
  if (bytes.byteLength === 0) return { problem: 'unreadable' };
  const sharp = await loadSharp();
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    // No pixel limit here: the header of a huge image is read, and refused below in our words.
    metadata = await sharp(bytes, { limitInputPixels: false, animated: false }).metadata();
  } catch {
    return { problem: 'unreadable' };
  }
  const format = metadata.format ?? '';
  if (!(ACCEPTED_IMAGE_FORMATS as readonly string[]).includes(format)) {
    return { problem: 'not_accepted', format };
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width <= 0 || height <= 0) return { problem: 'unreadable' };
  const pixels = width * height;
  if (pixels > IMAGE_PIXEL_LIMITS.perImage) {
    return { problem: 'too_many_pixels', width, height, pixels };
  }
  return { format: format as AcceptedImageFormat, width, height, pixels };
}

/** The words for an image's pixels, e.g. "8000 × 6000 pixels (48 megapixels)". */
export function describePixels(image: { width: number; height: number; pixels: number }): string {
  return `${image.width} × ${image.height} pixels (${megapixels(image.pixels)} megapixels)`;
}

/**
 * Counts `pixels` against what `userId` may have this server decode in an hour
 * (IMAGE_PIXEL_LIMITS.perPersonPerHour, counted in the shared rate-limit store so every instance
 * spends from one budget). Past it, nothing is counted and the answer is `rate_limited`.
 */
export async function spendDecodeBudget(
  deps: { storage: Storage; clock: Clock },
  userId: string,
  pixels: number,
): Promise<void> {
  const key = `imagePixelsPerAccount:${userId}`;
  const now = deps.clock.now();
  const { count, resetAt } = await deps.storage.rateLimits.hit(key, HOUR_MS, now, pixels);
  if (count <= IMAGE_PIXEL_LIMITS.perPersonPerHour) return;
  // Given back: a refused request decodes nothing, and must not use up what a smaller one may.
  await deps.storage.rateLimits.hit(key, HOUR_MS, now, -pixels);
  throw rateLimited(Math.max(1, Math.ceil((resetAt - now) / 1000)), {
    what: `That would take the images you sent this hour past ${megapixels(IMAGE_PIXEL_LIMITS.perPersonPerHour)} megapixels, the most this server reads for one person in an hour.`,
    orElse: ', or send smaller images',
  });
}

/**
 * An image as the server keeps it: decoded and encoded again as WebP, turned upright, scaled down
 * to fit APP_IMAGE_MAX_SIDE_PX, metadata (EXIF, location) and anything else that is not its pixels
 * dropped — never stored as sent (docs/library-notes.md#security). The one encoder of uploads and
 * imports; it takes only an image whose header was read and accepted (readImageHeader).
 */
export async function encodeImage(bytes: Uint8Array, header: ImageHeader): Promise<EncodedImage> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(bytes, {
    // No more pixels than its header declared, and so than were counted (at most perImage).
    limitInputPixels: Math.min(header.pixels, IMAGE_PIXEL_LIMITS.perImage),
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
}

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
 * the uploader's hourly decoding budget; only then is it decoded.
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
