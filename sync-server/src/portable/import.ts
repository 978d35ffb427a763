import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import {
  type AppDefinition,
  checkpointInWords,
  imageInWords,
  type PipitFile,
  type PipitFileApp,
  PipitFileError,
  type PortableRecordFile,
  readPipitFile,
  rewriteUploadUrls,
  uploadIdsIn,
  writeDefinition,
  entitiesOf,
  writeVisitorData,
} from '@pipit/app-definition';
import {
  CHECKPOINT_KINDS,
  checkpointChangesSchema,
  createId,
  documentName,
  HISTORY_LIMITS,
  type ImportResponse,
  PLAN_LIMITS,
  RECORD_FILE_LIMITS,
} from '@pipit/protocol';
import * as Y from 'yjs';
import { UPLOAD_QUOTA_BYTES } from '../accounts/profile-service';
import { checkpointDefinition } from '../history/checkpoints';
import { checkpointsToDrop } from '../history/thinning';
import { ServiceError } from '../service-error';
import {
  type CheckpointRecord,
  ConflictError,
  type ImportedApp,
  type UserRecord,
} from '../storage/types';
import type { PortableDeps } from './export';
import {
  describePixels,
  encodeImage,
  encodeRecordPhoto,
  IMAGE_PIXEL_LIMITS,
  type ImageHeader,
  readImageHeader,
  spendDecodeBudget,
} from '../accounts/image-decoding';

/** What the file holds of one app, read and checked before anything is written. */
interface ReadApp {
  entry: PipitFileApp;
  definition: AppDefinition;
  versions: Array<{ number: number; publishedAt: number; definition: AppDefinition }>;
  checkpoints: Array<{
    id: string;
    kind: string;
    name: string | null;
    version: number | null;
    createdAt: number;
    changes: unknown;
    /** Checked as the history checks a checkpoint a device sends. */
    definition: AppDefinition;
  }>;
  /** As the file holds them, with what their headers say: decoded only once every check passed. */
  /** Each image with what a refusal calls it ("image 3 of the app “Chores”"). */
  images: Array<{ id: string; bytes: Uint8Array; what: string; header: ImageHeader }>;
  data: ReturnType<PipitFile['data']>;
  /** The photos and files on `data`'s records; a photo with its header (null: a file). */
  recordFiles: Array<PortableRecordFile & { what: string; header: ImageHeader | null }>;
}

/** A photo or file ready to be kept: a photo encoded again, with its thumbnail. */
interface KeptRecordFile extends PortableRecordFile {
  thumbnail: Uint8Array | null;
  width: number | null;
  height: number | null;
}

/** An app ready to be written: its images encoded again as every upload is. */
type EncodedApp = Omit<ReadApp, 'images' | 'recordFiles'> & {
  images: Array<{ id: string; contentType: string; bytes: Uint8Array }>;
  recordFiles: KeptRecordFile[];
};

const NO_CHANGES_RECORDED = {
  counts: {},
  names: [],
  summary: 'Changes not recorded',
  first: false,
};

/**
 * Images are read and encoded a few at a time: libvips decodes on its own threads, so this uses
 * the machine's cores, while at most this many decoded images are held at once.
 */
const IMAGE_CHECKS_AT_ONCE = 4;

/**
 * `work` on every item, at most `limit` at a time; results in the items' order. The first failure
 * is the answer, and no further item is started.
 */
async function inTurns<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * An image of the file, its header read (format, pixels) without decoding it: what is not a PNG,
 * JPEG, WebP or GIF — whatever the file calls it — or is too large is refused here.
 */
async function imageOf(bytes: Uint8Array, what: string): Promise<ImageHeader> {
  const header = await readImageHeader(bytes);
  if (!('problem' in header)) return header;
  switch (header.problem) {
    case 'unreadable':
      throw new PipitFileError(`${capital(what)} cannot be read. Export the app again.`);
    case 'not_accepted':
      throw new PipitFileError(
        `${capital(what)} is not a PNG, JPEG, WebP or GIF, the only images Pipit takes.`,
      );
    case 'too_many_pixels':
      throw new PipitFileError(
        `${capital(what)} is ${describePixels(header)}; Pipit takes images of at most ${IMAGE_PIXEL_LIMITS.perImage / 1_000_000} megapixels. Scale it down and make the file again.`,
      );
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Everything a file holds, checked: the whole file is refused before anything is written. Images
 * are only looked at (their headers), not decoded: that waits for the plan's limits.
 */
async function readAll(file: PipitFile): Promise<ReadApp[]> {
  const apps: ReadApp[] = [];
  let pixels = 0;
  for (const entry of file.manifest.apps) {
    const images = await inTurns(entry.files.images, IMAGE_CHECKS_AT_ONCE, async (image) => {
      const bytes = file.image(entry, image);
      const what = imageInWords(entry, image);
      return { id: image.id, bytes, what, header: await imageOf(bytes, what) };
    });
    const recordFiles = entry.files.data ? await recordFilesOf(file, entry) : [];
    pixels += images.reduce((sum, image) => sum + image.header.pixels, 0);
    pixels += recordFiles.reduce((sum, f) => sum + (f.header?.pixels ?? 0), 0);
    if (pixels > IMAGE_PIXEL_LIMITS.perRequest) {
      throw new PipitFileError(
        `This file’s images come to more than ${IMAGE_PIXEL_LIMITS.perRequest / 1_000_000} megapixels, the most one import takes. Export its apps one at a time, or with smaller images, and import each file.`,
      );
    }
    apps.push({
      entry,
      definition: file.definition(entry),
      versions: entry.files.versions.map((v) => ({
        number: v.number,
        publishedAt: v.publishedAt,
        definition: file.version(entry, v),
      })),
      checkpoints: entry.files.checkpoints.map((c) => checkedCheckpoint(file, entry, c)),
      images,
      data: file.data(entry),
      recordFiles,
    });
  }
  return apps;
}

/**
 * The photos and files on the records of an app's data in the file: a photo's header read (it is
 * encoded again before it is kept, as every image is), a file's bytes checked against the SHA-256
 * its records name it by (it is kept byte for byte).
 */
async function recordFilesOf(
  file: PipitFile,
  entry: PipitFileApp,
): Promise<ReadApp['recordFiles']> {
  return inTurns(
    entry.files.recordFiles.map((f, i) => ({ f, i })),
    IMAGE_CHECKS_AT_ONCE,
    async ({ f, i }) => {
      const bytes = file.recordFile(f);
      const what = `photo or file ${i + 1} of your data in the app “${entry.title.slice(0, 60)}”`;
      if (f.kind === 'image') {
        return { ...f, bytes, what, header: await imageOf(bytes, what) };
      }
      if (createHash('sha256').update(bytes).digest('hex') !== f.hash) {
        throw new PipitFileError(`${capital(what)} is damaged. Export the app again.`);
      }
      return { ...f, bytes, what, header: null };
    },
  );
}

/** A photo encoded again with its thumbnail, as an upload is; a file as it is. */
async function keptRecordFile(f: ReadApp['recordFiles'][number]): Promise<KeptRecordFile> {
  if (!f.header) {
    return { ...f, thumbnail: null, width: null, height: null };
  }
  try {
    const photo = await encodeRecordPhoto(f.bytes, f.header);
    return {
      hash: f.hash,
      kind: f.kind,
      contentType: photo.contentType,
      bytes: photo.bytes,
      thumbnail: photo.thumbnail,
      width: photo.width,
      height: photo.height,
    };
  } catch {
    const message = `${capital(f.what)} cannot be read. Export the app again.`;
    throw new ServiceError('validation_failed', message, { fields: { file: message } });
  }
}

/**
 * Keeps the imported apps' photos and files in the importer's data there, after the apps are
 * written: each within the quota, as an upload is; what no longer fits (something written
 * meanwhile took the room) is left out, and the report says how many.
 */
async function keepRecordFiles(
  deps: PortableDeps,
  owner: UserRecord,
  apps: readonly EncodedApp[],
  report: ImportResponse,
): Promise<void> {
  let leftOut = 0;
  for (const app of apps) {
    const appId = report.apps.find((a) => a.sourceId === app.entry.id)?.id;
    if (!appId || app.recordFiles.length === 0) continue;
    const scope = documentName({ kind: 'data', appId, userId: owner.id });
    for (const f of app.recordFiles) {
      const written = await deps.storage.recordFiles.insertWithinQuota(
        {
          scope,
          appId,
          spaceId: null,
          ownerId: owner.id,
          uploadedBy: owner.id,
          createdAt: deps.clock.now(),
          ...f,
        },
        { quotaBytes: UPLOAD_QUOTA_BYTES, perScope: RECORD_FILE_LIMITS.perScope },
      );
      if (written.outcome === 'over_quota' || written.outcome === 'scope_full') leftOut += 1;
    }
  }
  if (leftOut > 0) {
    report.report.notes.push(
      `${leftOut === 1 ? 'A photo or file' : `${leftOut} photos and files`} of your data no longer fit in the ${UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of your plan and ${leftOut === 1 ? 'was' : 'were'} left out.`,
    );
  }
}

/**
 * A checkpoint of the file, held to the rules of a checkpoint made here (docs/product/history.md):
 * a name of at most HISTORY_LIMITS.nameLength characters, and a definition the history
 * takes from a device — every rule of an app definition, known component types, its size. As with
 * any other part of a file, one that breaks them refuses the whole file.
 */
function checkedCheckpoint(
  file: PipitFile,
  entry: PipitFileApp,
  c: PipitFileApp['files']['checkpoints'][number],
): ReadApp['checkpoints'][number] {
  const what = capital(checkpointInWords(entry, c));
  const name = c.name?.trim() || null;
  if (name !== null && name.length > HISTORY_LIMITS.nameLength) {
    throw new PipitFileError(
      `${what} has a name longer than ${HISTORY_LIMITS.nameLength} characters, the most a checkpoint’s name may be. Export the app again from the server it came from.`,
    );
  }
  const checked = checkpointDefinition(file.checkpoint(entry, c));
  if ('problem' in checked) {
    throw new PipitFileError(
      `${what} is not an app this server can read: ${checked.problem} Export the app again from the server it came from.`,
    );
  }
  return {
    id: c.id,
    kind: c.kind,
    name,
    version: c.version,
    createdAt: c.createdAt,
    changes: c.changes,
    definition: checked.definition,
  };
}

type PlannedCheckpoint = ImportedApp['checkpoints'][number];

/**
 * What an app's history keeps of an import's checkpoints (newest first, the import's own first),
 * by the rules of every history here (history/thinning.ts): older automatic ones thin out, and the
 * oldest automatic ones go while it is over HISTORY_LIMITS. Named and published ones are never
 * thinned in a history, but a history made here never holds more than its limits of them either:
 * the oldest a file holds past them are left out.
 */
function keptByHistory(
  checkpoints: readonly PlannedCheckpoint[],
  now: number,
): PlannedCheckpoint[] {
  const records: CheckpointRecord[] = checkpoints.map((c) => ({
    id: c.id,
    appId: '',
    kind: c.kind as CheckpointRecord['kind'],
    name: c.name,
    version: c.version,
    createdAt: c.createdAt,
    createdBy: null,
    authorIds: [],
    changesJson: c.changesJson,
    definitionHash: c.definitionHash,
    size: c.definition.byteLength,
  }));
  const drop = new Set(checkpointsToDrop(records, now));
  const kept = checkpoints.filter((c) => !drop.has(c.id));
  let bytes = kept.reduce((sum, c) => sum + c.definition.byteLength, 0);
  while (
    kept.length > 1 &&
    (kept.length > HISTORY_LIMITS.checkpointsPerApp || bytes > HISTORY_LIMITS.bytesPerApp)
  ) {
    bytes -= kept.pop()!.definition.byteLength;
  }
  return kept;
}

function listingOf(definition: AppDefinition) {
  return {
    title: definition.meta.title,
    description: definition.meta.description,
    icon: definition.meta.icon,
    tags: definition.meta.tags,
  };
}

/**
 * An app's images, each with the id it gets here: its own unless taken here or by an app before it
 * in the file; `imageIds` maps the file's ids that changed to the new ones.
 */
function imagesOf(
  app: EncodedApp,
  { takenImages, usedImages }: { takenImages: ReadonlySet<string>; usedImages: Set<string> },
  report: ImportResponse,
) {
  const imageIds = new Map<string, string>();
  const images = app.images.map((image) => {
    const keep = !takenImages.has(image.id) && !usedImages.has(image.id);
    const newId = keep ? image.id : createId();
    usedImages.add(newId);
    if (!keep) {
      imageIds.set(image.id, newId);
      report.report.remapped.images[image.id] = newId;
    }
    return { ...image, id: newId };
  });
  return { images, imageIds };
}

/** The app's document, and the importer's own data in it when the file holds some. */
function documentsOf(
  id: string,
  owner: UserRecord,
  definition: AppDefinition,
  data: EncodedApp['data'],
): ImportedApp['documents'] {
  const doc = new Y.Doc();
  writeDefinition(doc, definition);
  const documents = [
    { name: documentName({ kind: 'app', appId: id }), state: Y.encodeStateAsUpdate(doc) },
  ];
  doc.destroy();
  if (data) {
    const dataDoc = new Y.Doc();
    writeVisitorData(dataDoc, data);
    documents.push({
      name: documentName({ kind: 'data', appId: id, userId: owner.id }),
      state: Y.encodeStateAsUpdate(dataDoc),
    });
    dataDoc.destroy();
  }
  return documents;
}

/**
 * The app's checkpoints here: the file's, then its arrival here as the newest, as the history
 * keeps them (keptByHistory); a note says how many were left out.
 */
function checkpointsOf(
  app: EncodedApp,
  definition: AppDefinition,
  imageIds: ReadonlyMap<string, string>,
  { now, origin }: { now: number; origin: string },
  report: ImportResponse,
): PlannedCheckpoint[] {
  const fromFile: PlannedCheckpoint[] = app.checkpoints.map((c) => {
    const json = JSON.stringify(rewriteUploadUrls(c.definition, imageIds));
    const changes = checkpointChangesSchema.safeParse(c.changes);
    return {
      id: c.id,
      kind: (CHECKPOINT_KINDS as readonly string[]).includes(c.kind) ? c.kind : 'auto',
      name: c.name,
      version: c.version,
      createdAt: Math.min(c.createdAt, now),
      changesJson: JSON.stringify(changes.success ? changes.data : NO_CHANGES_RECORDED),
      // As the history hashes a definition: an unchanged app makes no automatic checkpoint.
      definitionHash: createHash('sha256').update(json).digest('base64url'),
      definition: new Uint8Array(gzipSync(json)),
    };
  });

  // The import itself is a moment of the app's history (docs/product/history.md): the app as it
  // arrived here, newest in its list.
  const arrived = JSON.stringify(definition);
  const newestFirst = [...fromFile].sort(
    (a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  let arrivedId = createId();
  while (fromFile.some((c) => c.id === arrivedId)) arrivedId = createId();
  newestFirst.unshift({
    id: arrivedId,
    kind: 'import',
    name: 'Imported from a file',
    version: null,
    createdAt: now,
    changesJson: JSON.stringify({
      counts: {},
      names: [],
      summary: `Imported from ${origin}`,
      first: fromFile.length === 0,
    }),
    definitionHash: createHash('sha256').update(arrived).digest('base64url'),
    definition: new Uint8Array(gzipSync(arrived)),
  });
  const checkpoints = keptByHistory(newestFirst, now);
  const leftOut = newestFirst.length - checkpoints.length;
  if (leftOut > 0) {
    report.report.notes.push(
      `“${definition.meta.title}” keeps ${fromFile.length - leftOut} of the file’s ${fromFile.length} checkpoints: as in every app here, older automatic checkpoints thin out, and a history holds at most ${HISTORY_LIMITS.checkpointsPerApp} checkpoints (${HISTORY_LIMITS.bytesPerApp / 1024 / 1024} MB), the newest kept.`,
    );
  }
  return checkpoints;
}

/** The app's published versions, kept as they were (it is not published here). */
function versionsOf(
  app: EncodedApp,
  imageIds: ReadonlyMap<string, string>,
  now: number,
): ImportedApp['versions'] {
  return app.versions.map((v) => {
    const versionDefinition = rewriteUploadUrls(v.definition, imageIds);
    return {
      number: v.number,
      definitionJson: JSON.stringify(versionDefinition),
      listing: listingOf(versionDefinition),
      publishedAt: Math.min(v.publishedAt, now),
    };
  });
}

/** The rows and documents of each app, with the ids it gets here, and its definition by that id. */
async function plan(
  deps: PortableDeps,
  owner: UserRecord,
  apps: readonly EncodedApp[],
  source: { exportId: string; origin: string },
): Promise<{
  imported: ImportedApp[];
  report: ImportResponse;
  definitions: Map<string, AppDefinition>;
}> {
  const { storage, clock } = deps;
  const now = clock.now();
  const takenApps = await storage.portable.takenAppIds(apps.map((a) => a.entry.id));
  const takenImages = await storage.portable.takenUploadIds(
    apps.flatMap((a) => a.images.map((i) => i.id)),
  );
  // Within one file, an image two apps share is given to the first; the second gets a copy with
  // an id of its own. Checkpoint ids are their app's: the file's are kept, whatever
  // other apps hold, so an import tells nobody which ids exist here.
  const usedImages = new Set<string>();
  const report: ImportResponse = {
    apps: [],
    report: {
      origin: source.origin,
      exportId: source.exportId,
      remapped: { apps: {}, images: {}, checkpoints: 0 },
      notes: [],
    },
  };
  const imported: ImportedApp[] = [];
  const definitions = new Map<string, AppDefinition>();
  for (const app of apps) {
    const id = takenApps.has(app.entry.id) ? createId() : app.entry.id;
    if (id !== app.entry.id) report.report.remapped.apps[app.entry.id] = id;
    const { images, imageIds } = imagesOf(app, { takenImages, usedImages }, report);
    const definition = rewriteUploadUrls(app.definition, imageIds);
    const missing = [...uploadIdsIn(app.definition)].filter(
      (imageId) => !app.images.some((i) => i.id === imageId),
    );
    if (missing.length > 0) {
      report.report.notes.push(
        `“${definition.meta.title}” points at ${missing.length === 1 ? 'an image' : `${missing.length} images`} the file did not hold; ${missing.length === 1 ? 'it stays' : 'they stay'} empty.`,
      );
    }

    const documents = documentsOf(id, owner, definition, app.data);
    definitions.set(id, definition);

    const checkpoints = checkpointsOf(
      app,
      definition,
      imageIds,
      { now, origin: source.origin },
      report,
    );

    const versions = versionsOf(app, imageIds, now);

    imported.push({
      id,
      ownerId: owner.id,
      ...listingOf(definition),
      createdAt: now,
      source: { appId: app.entry.id, ...source },
      documents,
      versions,
      checkpoints,
      images,
    });
    report.apps.push({
      id,
      sourceId: app.entry.id,
      title: definition.meta.title,
      versions: versions.length,
      checkpoints: checkpoints.length,
      images: images.length,
      records: app.data?.records.length ?? 0,
    });
    if (versions.length > 0) {
      report.report.notes.push(
        `“${definition.meta.title}” keeps its ${versions.length === 1 ? 'published version' : `${versions.length} published versions`}, but is not published here: publish it to share it.`,
      );
    }
  }
  return { imported, report, definitions };
}

/**
 * Who made an imported app's things: the import, for the person who imported it
 * (docs/product/history.md#who-changed-what). Told once the apps are in; a failure here is
 * logged, never the import's (the apps are in).
 */
async function creditImport(
  deps: PortableDeps,
  ownerId: string,
  definitions: ReadonlyMap<string, AppDefinition>,
): Promise<void> {
  const at = deps.clock.now();
  const entries = [...definitions].flatMap(([appId, definition]) =>
    entitiesOf(definition).map(({ entity, id }) => ({
      id: createId(),
      appId,
      entity,
      entityId: id,
      paths: ['added'],
      kind: 'import' as const,
      authorId: ownerId,
      at,
    })),
  );
  try {
    await deps.storage.appChanges.add(entries);
  } catch (error) {
    deps.logger.warn({ err: error }, 'recording who made an imported app failed');
  }
}

/**
 * `POST /api/apps/import`: recreates the apps of a `.pipit` file as the caller's own
 * (docs/product/portable-file.md). Everything is read and checked first (images by their headers
 * only), then the plan's limits (the quota from the images' bytes as the file holds them), then
 * the importer's hourly decoding budget; only then are images decoded and encoded again, as every
 * upload is, and everything written in one transaction (storage.portable.commitImport): a file
 * that fails half-way leaves nothing. Ids are kept where this server has never used them, and new
 * ones given otherwise, with the urls of remapped images rewritten everywhere they appear. The
 * same file imported again answers `already_imported` with the app it made, unless `copy` asks for
 * another one.
 */
export async function importFile(
  deps: PortableDeps,
  owner: UserRecord,
  bytes: Uint8Array,
  options: { copy: boolean },
): Promise<ImportResponse> {
  const { storage } = deps;
  let file: PipitFile;
  let apps: ReadApp[];
  try {
    file = readPipitFile(bytes);
    if (file.manifest.apps.length === 0) {
      throw new PipitFileError('This file holds no app to import.');
    }
    if (!options.copy) await refuseSecondImport(deps, owner, file);
    apps = await readAll(file);
  } catch (error) {
    if (error instanceof PipitFileError) {
      throw new ServiceError('validation_failed', error.message, {
        fields: { file: error.message },
      });
    }
    throw error;
  }

  // Refused early when clearly full; the say is commitImport's, counted under the owner's hold.
  const owned = await storage.apps.countOwned(owner.id);
  if (owned + apps.length > PLAN_LIMITS.apps) throw planFull(owned, apps.length);
  // The quota from the images' bytes as the file holds them, before any is decoded (it refuses
  // most files early, and cheaply); and again below with the bytes as they will be kept. The final
  // say is commitImport's, which checks it where it writes: imports and uploads sent together
  // each pass these two checks, reading the same bytes used.
  const used = await storage.uploads.totalBytesForUser(owner.id);
  checkQuota(used, apps);

  // Only now is anything decoded: counted against the importer's hour first.
  await spendDecodeBudget(
    deps,
    owner.id,
    apps.reduce(
      (sum, a) =>
        sum +
        a.images.reduce((s, i) => s + i.header.pixels, 0) +
        a.recordFiles.reduce((s, f) => s + (f.header?.pixels ?? 0), 0),
      0,
    ),
  );
  const encoded: EncodedApp[] = [];
  for (const app of apps) {
    const images = await inTurns(app.images, IMAGE_CHECKS_AT_ONCE, async (image) => {
      try {
        const kept = await encodeImage(image.bytes, image.header);
        return { id: image.id, contentType: kept.contentType, bytes: kept.bytes };
      } catch {
        const message = `${capital(image.what)} cannot be read. Export the app again.`;
        throw new ServiceError('validation_failed', message, { fields: { file: message } });
      }
    });
    const recordFiles = await inTurns(app.recordFiles, IMAGE_CHECKS_AT_ONCE, keptRecordFile);
    encoded.push({ ...app, images, recordFiles });
  }
  checkQuota(used, encoded);

  const source = { exportId: file.manifest.exportId, origin: file.manifest.origin };
  // An id taken between the check and the write (a registration at that moment) fails the
  // transaction; planned again, it gets a new id.
  for (let attempt = 0; ; attempt++) {
    const { imported, report, definitions } = await plan(deps, owner, encoded, source);
    try {
      const outcome = await storage.portable.commitImport(imported, deps.clock.now(), {
        quotaBytes: UPLOAD_QUOTA_BYTES,
        maxApps: PLAN_LIMITS.apps,
      });
      // What was written meanwhile (another import, an upload, a new app) left no room: nothing
      // is made.
      if ('ownedApps' in outcome) throw planFull(outcome.ownedApps, apps.length);
      if (!outcome.committed) throw overQuota(imageBytesOf(encoded));
      await keepRecordFiles(deps, owner, encoded, report);
      await creditImport(deps, owner.id, definitions);
      return report;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= 2) throw error;
    }
  }
}

/** The words for a plan without room for `adding` more apps. */
function planFull(owned: number, adding: number): ServiceError {
  return new ServiceError(
    'limit_reached',
    adding === 1
      ? `You have ${owned} apps, the most the free plan allows. Delete an archived app to make room.`
      : `This file holds ${adding} apps and you have ${owned}: the free plan allows ${PLAN_LIMITS.apps}. Delete archived apps to make room.`,
  );
}

type Kept = { bytes: Uint8Array; thumbnail?: Uint8Array | null };
type WithImages = { images: readonly Kept[]; recordFiles: readonly Kept[] };

/**
 * The plan's upload quota: `used` bytes and the images of `apps` must fit in it, their photos
 * and files on records too.
 */
function checkQuota(used: number, apps: readonly WithImages[]): void {
  const imageBytes = imageBytesOf(apps);
  if (used + imageBytes > UPLOAD_QUOTA_BYTES) throw overQuota(imageBytes);
}

function imageBytesOf(apps: readonly WithImages[]) {
  const size = (k: Kept) => k.bytes.byteLength + (k.thumbnail?.byteLength ?? 0);
  return apps.reduce(
    (sum, a) =>
      sum +
      a.images.reduce((s, i) => s + size(i), 0) +
      a.recordFiles.reduce((s, f) => s + size(f), 0),
    0,
  );
}

function overQuota(imageBytes: number): ServiceError {
  return new ServiceError(
    'limit_reached',
    `This file’s images, photos and files (${(imageBytes / 1024 / 1024).toFixed(1)} MB) would take your uploads past the ${UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of your plan. Remove some images first.`,
  );
}

/** The same file (or the app itself) is already here for this person: say where, make nothing. */
async function refuseSecondImport(
  deps: PortableDeps,
  owner: UserRecord,
  file: PipitFile,
): Promise<void> {
  for (const app of file.manifest.apps) {
    const earlier = await deps.storage.portable.findImport(
      owner.id,
      file.manifest.exportId,
      app.id,
    );
    if (earlier) {
      throw new ServiceError(
        'already_imported',
        `You imported “${app.title}” from this file already. Open it, or import the file again as a copy.`,
        { appId: earlier },
      );
    }
    // The app itself is on this server and theirs to open (a file exported here, brought back).
    const here = await deps.storage.apps.getWithRole(app.id, owner.id);
    if (here?.role) {
      throw new ServiceError(
        'already_imported',
        `“${here.app.title}” is already on this server. Open it, or import the file again as a copy.`,
        { appId: here.app.id },
      );
    }
  }
}
