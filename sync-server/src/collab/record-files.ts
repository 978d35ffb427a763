import { createHash } from 'node:crypto';
import * as Y from 'yjs';
import {
  APP_IMAGE_TYPES,
  documentName,
  type DocumentName,
  RECORD_FILE_LIMITS,
  RECORD_FILE_SAFE_TYPES,
  type RecordFileKind,
  type RecordFileResponse,
  type RecordFileScope,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import { encodeImage, prepareUpload, readImageHeader } from '../accounts/image-decoding';
import { UPLOAD_QUOTA_BYTES } from '../accounts/profile-service';
import type { Logger } from '../logger';
import { ServiceError } from '../service-error';
import { replayInto } from '../storage/replay';
import type { RecordFileInfo, Storage } from '../storage/types';
import { type DocumentRole, documentRoleFor } from './access';
import { SyncRefusal } from './refusal';

/**
 * Photos and files on records (docs/product/records.md#photos-and-files-on-records). They go with
 * a document — a visitor's own data in an app, or a shared space — and whoever may open that
 * document may read them, by the same rule (documentRoleFor); whoever may write it may add them.
 * They are kept once per document under the SHA-256 of the bytes the device sent, which the record
 * names (`sha256:<hex>`), so sending one again changes nothing.
 */

/** A scope, resolved for one person: its document, whose quota it counts against, their role. */
export interface ResolvedScope {
  document: string;
  appId: string;
  spaceId: string | null;
  ownerId: string;
  role: DocumentRole;
}

const notFound = (scope: RecordFileScope) =>
  new ServiceError(
    'not_found',
    scope.kind === 'space'
      ? 'That space does not exist, or you are not in it.'
      : 'That app does not exist, or you cannot use it.',
  );

/**
 * The scope as `userId` may use it, or `not_found` — whether it does not exist or is not theirs,
 * the answer is the same. A visitor's scope in an app is always their own data.
 */
export async function resolveScope(
  storage: Storage,
  scope: RecordFileScope,
  userId: string,
): Promise<ResolvedScope> {
  const document: DocumentName =
    scope.kind === 'data'
      ? { kind: 'data', appId: scope.appId, userId }
      : { kind: 'space', spaceId: scope.spaceId };
  let role: DocumentRole | null;
  try {
    role = await documentRoleFor(storage, document, userId);
  } catch (error) {
    if (error instanceof SyncRefusal) throw notFound(scope);
    throw error;
  }
  if (!role) throw notFound(scope);
  if (scope.kind === 'data') {
    return {
      document: documentName(document),
      appId: scope.appId,
      spaceId: null,
      ownerId: userId,
      role,
    };
  }
  const found = await storage.spaces.getWithRole(scope.spaceId, userId);
  if (!found) throw notFound(scope);
  return {
    document: documentName(document),
    appId: found.space.appId,
    spaceId: scope.spaceId,
    // A space's photos are its owner's to keep, as an app's images are its owner's.
    ownerId: found.space.ownerId,
    role,
  };
}

export function responseOf(file: RecordFileInfo): RecordFileResponse {
  return {
    hash: file.hash,
    kind: file.kind,
    contentType: file.contentType,
    size: file.size,
    ...(file.width !== null && file.height !== null
      ? { width: file.width, height: file.height }
      : {}),
  };
}

export function quotaMessage(): string {
  return `That would take what you keep on this server past the ${UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of your plan. Remove some photos or files first, then try again.`;
}

const unreadable = () =>
  new ServiceError(
    'validation_failed',
    'That file isn’t an image we can read. Choose a photo (PNG, JPEG, WebP or GIF).',
    { fields: { file: 'That file isn’t an image we can read.' } },
  );

const MB = 1024 * 1024;

/** The bytes a photo or file is kept as, before the quota's say. */
async function prepare(
  deps: { storage: Storage; clock: Clock },
  target: ResolvedScope,
  upload: { uploaderId: string; kind: RecordFileKind; contentType: string; bytes: Uint8Array },
) {
  if (upload.kind === 'file') {
    const used = await deps.storage.uploads.totalBytesForUser(target.ownerId);
    if (used + upload.bytes.byteLength > UPLOAD_QUOTA_BYTES) {
      throw new ServiceError('limit_reached', quotaMessage());
    }
    const type = upload.contentType.toLowerCase();
    return {
      contentType: RECORD_FILE_SAFE_TYPES.includes(type) ? type : 'application/octet-stream',
      bytes: upload.bytes,
      thumbnail: null,
      width: null,
      height: null,
    };
  }
  const image = await prepareUpload(
    deps,
    {
      contentType: upload.contentType,
      bytes: upload.bytes,
      quotaOwnerId: target.ownerId,
      uploaderId: upload.uploaderId,
      quotaBytes: UPLOAD_QUOTA_BYTES,
    },
    {
      acceptedTypes: APP_IMAGE_TYPES,
      maxBytes: RECORD_FILE_LIMITS.imageBytes,
      noun: 'photos',
      unreadable,
      overQuota: () => new ServiceError('limit_reached', quotaMessage()),
      size: { side: RECORD_FILE_LIMITS.imageSidePx, fit: 'inside' },
    },
  );
  // The thumbnail from the kept image (small already, and decoded by us): what lists show.
  const header = await readImageHeader(image.bytes);
  if ('problem' in header) throw unreadable();
  const thumbnail = await encodeImage(image.bytes, header, {
    side: RECORD_FILE_LIMITS.thumbnailSidePx,
    fit: 'inside',
  });
  return {
    contentType: image.contentType,
    bytes: image.bytes,
    thumbnail: thumbnail.bytes,
    width: image.width,
    height: image.height,
  };
}

/**
 * `PUT …/files/{hash}`: checks the bytes are the ones named (their SHA-256), answers with the
 * scope's copy when it has one already, else keeps them — a photo decoded and encoded again
 * (prepareUpload: its format from the bytes, the pixels, the decoding budget), a file byte for
 * byte with a safe type — within the quota owner's plan and the scope's count.
 */
export async function storeRecordFile(
  deps: { storage: Storage; clock: Clock },
  target: ResolvedScope,
  upload: {
    uploaderId: string;
    hash: string;
    kind: RecordFileKind;
    contentType: string;
    bytes: Uint8Array;
  },
): Promise<{ file: RecordFileResponse; created: boolean }> {
  if (target.role === 'viewer') {
    throw new ServiceError(
      'forbidden',
      'Readers of a space can’t add photos or files. Ask its owner to make you a member.',
    );
  }
  const limit =
    upload.kind === 'image' ? RECORD_FILE_LIMITS.imageBytes : RECORD_FILE_LIMITS.fileBytes;
  if (upload.bytes.byteLength > limit) {
    throw new ServiceError(
      'payload_too_large',
      `That ${upload.kind === 'image' ? 'photo' : 'file'} is larger than ${limit / MB} MB. Choose a smaller one.`,
    );
  }
  if (upload.bytes.byteLength === 0) {
    throw new ServiceError('validation_failed', 'That file is empty. Choose another.');
  }
  const actual = createHash('sha256').update(upload.bytes).digest('hex');
  if (actual !== upload.hash) {
    throw new ServiceError(
      'validation_failed',
      'The file arrived different from what was sent (its SHA-256 does not match). Send it again.',
    );
  }
  const existing = await deps.storage.recordFiles.info(target.document, upload.hash);
  if (existing) return { file: responseOf(existing), created: false };
  const kept = await prepare(deps, target, upload);
  const written = await deps.storage.recordFiles.insertWithinQuota(
    {
      scope: target.document,
      hash: upload.hash,
      appId: target.appId,
      spaceId: target.spaceId,
      ownerId: target.ownerId,
      uploadedBy: upload.uploaderId,
      kind: upload.kind,
      createdAt: deps.clock.now(),
      ...kept,
    },
    { quotaBytes: UPLOAD_QUOTA_BYTES, perScope: RECORD_FILE_LIMITS.perScope },
  );
  switch (written.outcome) {
    case 'over_quota':
      throw new ServiceError('limit_reached', quotaMessage());
    case 'scope_full':
      throw new ServiceError(
        'limit_reached',
        `This ${target.spaceId ? 'space' : 'app'} holds ${RECORD_FILE_LIMITS.perScope.toLocaleString('en-US')} photos and files already, the most it may. Remove some records’ photos or files first.`,
      );
    default:
      return { file: responseOf(written.file), created: written.outcome === 'stored' };
  }
}

/** A reference as records hold it. */
const REFERENCE = /sha256:([0-9a-f]{64})/g;

/** Every file a stored document's records refer to (what is deleted from it is gone). */
export async function referencedHashes(
  storage: Storage,
  document: string,
  logger: Logger,
): Promise<Set<string>> {
  const doc = new Y.Doc();
  try {
    replayInto(doc, await storage.documents.loadWithLog(document), {
      onSkipped: (seq, error) =>
        logger.warn({ err: error, documentName: document, seq }, 'skipped a logged update'),
    });
    // Deleted content is dropped as it is applied (gc), so only live values remain.
    const text = Buffer.from(Y.encodeStateAsUpdate(doc)).toString('latin1');
    return new Set(Array.from(text.matchAll(REFERENCE), (match) => match[1]!));
  } finally {
    doc.destroy();
  }
}

/**
 * A file nobody's record refers to is kept this long after it was stored: its record may reach
 * the server after it (a device uploads what it took offline as soon as it can, records and
 * bytes each on their own way).
 */
export const RECORD_FILE_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the files stored more than RECORD_FILE_GRACE_MS ago that their document's records no
 * longer refer to (the record deleted, the photo removed or replaced), `batch` files at a time,
 * oldest first; returns how many it deleted.
 */
export async function sweepRecordFiles(
  deps: { storage: Storage; clock: Clock; logger: Logger },
  batch = 500,
): Promise<number> {
  const before = deps.clock.now() - RECORD_FILE_GRACE_MS;
  let deleted = 0;
  let after: { createdAt: number; scope: string; hash: string } | undefined;
  for (;;) {
    const page = await deps.storage.recordFiles.storedBefore(before, batch, after);
    const byScope = new Map<string, string[]>();
    for (const { scope, hash } of page) byScope.set(scope, [...(byScope.get(scope) ?? []), hash]);
    for (const [scope, hashes] of byScope) {
      const referenced = await referencedHashes(deps.storage, scope, deps.logger);
      deleted += await deps.storage.recordFiles.delete(
        scope,
        hashes.filter((hash) => !referenced.has(hash)),
      );
    }
    after = page.at(-1);
    if (!after || page.length < batch) return deleted;
  }
}

/** How often the sweep runs. */
export const RECORD_FILE_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Sweeps now and then every hour (sweepRecordFiles); `stop` ends the schedule and waits for a
 * sweep under way, so storage can be closed after it.
 */
export function startRecordFileSweep(deps: {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
}): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const sweep = async () => {
    try {
      const deleted = await sweepRecordFiles(deps);
      if (deleted > 0) deps.logger.info({ deleted }, 'deleted photos and files no record uses');
    } catch (error) {
      deps.logger.warn({ err: error }, 'sweeping photos and files failed; trying again later');
    } finally {
      running = undefined;
    }
  };
  const tick = () => void (running ??= sweep());
  tick();
  const timer = setInterval(tick, deps.intervalMs ?? RECORD_FILE_SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
