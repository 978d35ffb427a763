import { RECORD_FILE_LIMITS } from '@pipit/protocol';

/**
 * What an `image` or `file` field holds (docs/product/records.md#photos-and-files-on-records): a
 * reference to bytes kept beside the records, never the bytes. It is one string, so records,
 * history and the Yjs layout hold it like any text:
 *
 *     sha256:<64 hex digits>;<size in bytes>;<type>;<name>
 *
 * the SHA-256 of the bytes the device picked (what the server keeps them under), then their size,
 * type and file name as picked (type and name URI-encoded). The server finds the files a document
 * still uses from the `sha256:<hex>` alone.
 */
export interface FileReference {
  hash: string;
  size: number;
  /** The type the device gave ('' when it gave none). */
  type: string;
  name: string;
}

const REFERENCE = /^sha256:([0-9a-f]{64});(\d{1,12});([^;]*);([^;]*)$/;

/** Types a photo may be as picked (the server reads the bytes themselves again). */
export const IMAGE_FILE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

export function formatFileReference(ref: FileReference): string {
  return `sha256:${ref.hash};${ref.size};${encodeURIComponent(ref.type)};${encodeURIComponent(ref.name)}`;
}

/** A reference's parts, or null when `value` is not one. */
export function parseFileReference(value: unknown): FileReference | null {
  if (typeof value !== 'string') return null;
  const match = REFERENCE.exec(value);
  if (!match) return null;
  try {
    return {
      hash: match[1]!,
      size: Number(match[2]),
      type: decodeURIComponent(match[3]!),
      name: decodeURIComponent(match[4]!),
    };
  } catch {
    return null;
  }
}

/** Why a reference does not fit a field of `kind`, in the product's words; null when it does. */
export function fileReferenceProblem(
  kind: 'image' | 'file',
  fieldName: string,
  ref: FileReference,
): string | null {
  const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
  if (ref.name.length > RECORD_FILE_LIMITS.nameLength || ref.type.length > 200) {
    return `The name of the file for ${fieldName} is too long. Rename it and try again.`;
  }
  if (kind === 'image') {
    if (!(IMAGE_FILE_TYPES as readonly string[]).includes(ref.type)) {
      return `That file isn’t a photo. Choose a PNG, JPEG, WebP or GIF image for ${fieldName}.`;
    }
    if (ref.size > RECORD_FILE_LIMITS.imageBytes) {
      return `That photo is larger than ${mb(RECORD_FILE_LIMITS.imageBytes)}. Choose a smaller one for ${fieldName}.`;
    }
  } else if (ref.size > RECORD_FILE_LIMITS.fileBytes) {
    return `That file is larger than ${mb(RECORD_FILE_LIMITS.fileBytes)}. Choose a smaller one for ${fieldName}.`;
  }
  if (ref.size === 0) return `That file is empty. Choose another for ${fieldName}.`;
  return null;
}
