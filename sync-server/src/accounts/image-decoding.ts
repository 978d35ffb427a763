/** libvips is loaded on the first image: a server that handles none keeps it out of memory. */
const loadSharp = async () => (await import('sharp')).default;
import { APP_IMAGE_MAX_SIDE_PX, RECORD_FILE_LIMITS } from '@pipit/protocol';
import { ServiceError } from '../service-error';
import type { Storage } from '../storage/types';
import type { Clock } from './clock';
import { rateLimited } from './rate-limits';

/**
 * What every uploaded image goes through before it is decoded, and the one way it is decoded
 * (docs/product/quotas.md#images): an app's images and imports (portable/images.ts,
 * portable/import.ts) and avatars (accounts/profile-service.ts) alike. It lives here, beside the
 * upload quota and the rate limits, so that both accounts/ and portable/ may import it
 * (portable/ imports accounts/; the reverse would be an import cycle).
 */

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
  /**
   * Every image one person has this server decode in an hour: an app's images, imports and
   * avatars together.
   */
  perPersonPerHour: 500_000_000,
} as const;

const HOUR_MS = 60 * 60 * 1000;
export const megapixels = (pixels: number) => Math.ceil(pixels / 1_000_000).toLocaleString('en-US');

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
 * The size an image is kept at: an app's image fits inside APP_IMAGE_MAX_SIDE_PX and is never
 * enlarged; an avatar fills a square (`cover`, cut to the middle).
 */
export interface KeptSize {
  side: number;
  fit: 'inside' | 'cover';
}

const APP_IMAGE_SIZE: KeptSize = { side: APP_IMAGE_MAX_SIDE_PX, fit: 'inside' };

/**
 * An image as the server keeps it: decoded and encoded again as WebP, turned upright, scaled to
 * `size`, metadata (EXIF, location) and anything else that is not its pixels dropped — never
 * stored as sent (docs/library-notes.md#security). The one encoder of uploads, imports and
 * avatars; it takes only an image whose header was read and accepted (readImageHeader).
 */
export async function encodeImage(
  bytes: Uint8Array,
  header: ImageHeader,
  size: KeptSize = APP_IMAGE_SIZE,
): Promise<EncodedImage> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(bytes, {
    // No more pixels than its header declared, and so than were counted (at most perImage).
    limitInputPixels: Math.min(header.pixels, IMAGE_PIXEL_LIMITS.perImage),
    animated: false,
  })
    .rotate()
    .resize(size.side, size.side, {
      fit: size.fit,
      withoutEnlargement: size.fit === 'inside',
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

/** A photo on a record as the server keeps it: the photo and its thumbnail. */
export interface KeptPhoto extends EncodedImage {
  thumbnail: Uint8Array;
}

/**
 * A photo on a record (docs/product/records.md#photos-and-files-on-records), uploaded or imported:
 * encoded as every image is, to fit RECORD_FILE_LIMITS.imageSidePx, and its thumbnail made from
 * that (small already, and decoded by us). Throws when it cannot be decoded.
 */
export async function encodeRecordPhoto(
  bytes: Uint8Array,
  header: ImageHeader,
): Promise<KeptPhoto> {
  const image = await encodeImage(bytes, header, {
    side: RECORD_FILE_LIMITS.imageSidePx,
    fit: 'inside',
  });
  const kept = await readImageHeader(image.bytes);
  if ('problem' in kept) throw new Error('an encoded photo could not be read again');
  const thumbnail = await encodeImage(image.bytes, kept, {
    side: RECORD_FILE_LIMITS.thumbnailSidePx,
    fit: 'inside',
  });
  return { ...image, thumbnail: thumbnail.bytes };
}

/** How an upload route takes images, and words what it refuses. */
export interface UploadRules {
  /** The Content-Types it takes (a first, cheap refusal; the bytes decide after). */
  acceptedTypes: readonly string[];
  maxBytes: number;
  /** What it keeps, for the words: "images", "avatars". */
  noun: string;
  unreadable: () => ServiceError;
  overQuota: () => ServiceError;
  size?: KeptSize;
}

const ACCEPTED_WORDS = 'a PNG, JPEG, WebP or GIF image';

/**
 * An uploaded image made ready to keep (an app's image, an avatar): everything that can refuse
 * it without decoding it does so first — its declared type and size, the quota owner's room
 * (from the bytes received), its header (the format the bytes are, whatever the request says,
 * and its pixels), the uploader's hourly decoding budget — then it is decoded and encoded again.
 * The quota's final say is the caller's insert (UploadStore.insertWithinQuota), with the bytes as
 * kept, atomic per person.
 */
export async function prepareUpload(
  deps: { storage: Storage; clock: Clock },
  upload: {
    contentType: string;
    bytes: Uint8Array;
    quotaOwnerId: string;
    uploaderId: string;
    quotaBytes: number;
  },
  rules: UploadRules,
): Promise<EncodedImage> {
  const { bytes } = upload;
  if (!rules.acceptedTypes.includes(upload.contentType)) {
    throw new ServiceError('unsupported_media_type', `Upload ${ACCEPTED_WORDS}.`);
  }
  if (bytes.byteLength > rules.maxBytes) {
    throw new ServiceError(
      'payload_too_large',
      `That image is larger than ${rules.maxBytes / 1024 / 1024} MB. Choose a smaller one.`,
    );
  }
  if (bytes.byteLength === 0) throw rules.unreadable();
  const used = await deps.storage.uploads.totalBytesForUser(upload.quotaOwnerId);
  if (used + bytes.byteLength > upload.quotaBytes) throw rules.overQuota();
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
        `That image is ${describePixels(header)}; ${rules.noun} of at most ${megapixels(IMAGE_PIXEL_LIMITS.perImage)} megapixels are taken. Scale it down, or choose a smaller one.`,
      );
    }
    throw rules.unreadable();
  }
  await spendDecodeBudget(deps, upload.uploaderId, header.pixels);
  try {
    return await encodeImage(bytes, header, rules.size);
  } catch {
    throw rules.unreadable();
  }
}
