/*
 * Photos and files on records (docs/product/records.md#photos-and-files-on-records): what a
 * reference names and the limits on one, in a module without zod, so the installed app's field
 * checks read them without bringing zod's classic API to its first visit.
 */

/** What a record's reference names: `sha256:` and 64 lowercase hex digits. */
export const RECORD_FILE_HASH_PATTERN = /^[0-9a-f]{64}$/;
export const RECORD_FILE_REFERENCE_PATTERN = /^sha256:[0-9a-f]{64}$/;

export const RECORD_FILE_KINDS = ['image', 'file'] as const;
export type RecordFileKind = (typeof RECORD_FILE_KINDS)[number];

/** Limits on one photo or file (docs/limits.md#photos-and-files). */
export const RECORD_FILE_LIMITS = {
  /** A photo as sent: a phone's camera makes 2 to 8 MB. */
  imageBytes: 12 * 1024 * 1024,
  /** A file as sent, kept byte for byte. */
  fileBytes: 5 * 1024 * 1024,
  /** A photo is kept scaled to fit this many pixels on its longer side. */
  imageSidePx: 2048,
  /** Its thumbnail (lists, galleries, the detail) fits this many. */
  thumbnailSidePx: 320,
  /** Photos and files kept in one scope (a person's data in one app, or one space). */
  perScope: 1000,
  /** A file's name as a record keeps it. */
  nameLength: 200,
} as const;

/** The content types a file is served with; anything else is served as `application/octet-stream`. */
export const RECORD_FILE_SAFE_TYPES: readonly string[] = [
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/zip',
  'application/json',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'audio/mpeg',
  'audio/mp4',
  'video/mp4',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
];

/** Where a scope's files live: a visitor's own data in an app, or a shared space. */
export type RecordFileScope = { kind: 'data'; appId: string } | { kind: 'space'; spaceId: string };

/** The REST path of a file (the original; `/thumbnail` after it for an image's thumbnail). */
export function recordFilePath(scope: RecordFileScope, hash: string): string {
  return scope.kind === 'data'
    ? `/api/apps/${scope.appId}/files/${hash}`
    : `/api/spaces/${scope.spaceId}/files/${hash}`;
}
