import { strFromU8, strToU8 } from 'fflate';
import {
  createId,
  ID_PATTERN,
  RECORD_FILE_HASH_PATTERN,
  RECORD_FILE_KINDS,
  RECORD_FILE_LIMITS,
  type RecordFileKind,
  SPACE_LIMITS,
  SPACE_ROLES,
  type SpaceRole,
} from '@pipit/protocol';
import { z } from 'zod';
import { type AppDefinition, appDefinitionSchema } from '../schema/definition';
import { EXPORT_FORMAT, exportDefinition } from './json';
import { problemsInWords } from './problem-words';
import { DEFAULT_APP_ICON } from '../schema/meta';
import { migrateDefinition } from '../schema/migrations';
import type { ReadDefinition } from '../document/reader';
import { VISITOR_RECORD_LIMIT, type VisitorData } from '../visitor-data/visitor-records';
import { NOT_A_PIPIT_FILE, PipitFileError, readZip, writeZip, type ZipEntryInput } from './zip';

/*
 * The portable `.pipit` file (docs/product/portable-file.md): one zip with a JSON manifest, holding
 * apps — each with its definition, published versions, checkpoints, uploaded images and, when the
 * person chose so, their own data — and, for an account export, the account's JSON and the records
 * of each shared space the person is in (kept apart from their own data). The server
 * writes and reads it; the browser reads it too (an import made offline takes the definitions).
 * One piece of code for both sides, so what one writes the other reads.
 */

export const PIPIT_FILE_FORMAT = 'pipit-file';
export const PIPIT_FILE_VERSION = 1;
export const PIPIT_FILE_EXTENSION = '.pipit';
/** What a `.pipit` file is sent as: it is a zip. */
export const PIPIT_FILE_TYPE = 'application/zip';

/** What one `.pipit` file may hold; past any of these it is refused, saying which. */
export const PORTABLE_LIMITS = {
  /** The file itself, compressed: the import endpoint's body limit. */
  fileBytes: 64 * 1024 * 1024,
  /** Files inside it. */
  entries: 20_000,
  /** One file inside, unpacked (a definition, a version, a person's data). */
  entryBytes: 32 * 1024 * 1024,
  /** Everything inside, unpacked: a zip bomb stops here, before it is unpacked. */
  totalBytes: 256 * 1024 * 1024,
  /** The manifest, unpacked. */
  manifestBytes: 4 * 1024 * 1024,
  /** Apps in one file: an account's, at most the free plan's 25. */
  apps: 25,
  /** Shared spaces in one file: an account's, at most the spaces one person may be in. */
  spaces: SPACE_LIMITS.spacesPerPerson,
  versionsPerApp: 1_000,
  checkpointsPerApp: 500,
  imagesPerApp: 500,
  /** One image: the upload limit. */
  imageBytes: 5 * 1024 * 1024,
  /** Photos and files on the records of one app's data or one space: what a scope may keep. */
  recordFilesPerScope: RECORD_FILE_LIMITS.perScope,
} as const;

/** The image types a Pipit server stores (uploads are re-encoded to WebP). */
export const PORTABLE_IMAGE_TYPES = ['image/webp', 'image/png', 'image/jpeg', 'image/gif'] as const;
export type PortableImageType = (typeof PORTABLE_IMAGE_TYPES)[number];

const IMAGE_EXTENSIONS: Record<PortableImageType, string> = {
  'image/webp': 'webp',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
};

const idSchema = z.string().regex(ID_PATTERN, 'Not an id.');
const entryNameSchema = z.string().min(1).max(255);

const versionEntrySchema = z.object({
  number: z.number().int().min(1),
  publishedAt: z.number().int().min(0),
  file: entryNameSchema,
});

const checkpointEntrySchema = z.object({
  id: idSchema,
  kind: z.string().min(1).max(32),
  name: z.string().max(200).nullable(),
  version: z.number().int().min(1).nullable(),
  createdAt: z.number().int().min(0),
  /** What changed since the checkpoint before it, as the history panel lists it. */
  changes: z.unknown().optional(),
  file: entryNameSchema,
});

const imageEntrySchema = z.object({
  id: idSchema,
  contentType: z.enum(PORTABLE_IMAGE_TYPES),
  bytes: z.number().int().min(1).max(PORTABLE_LIMITS.imageBytes),
  file: entryNameSchema,
});

/**
 * A photo or file on the records of the data beside it (docs/product/records.md): named by the
 * SHA-256 its records refer to it by — of the bytes the device picked; a photo is held as the
 * server kept it, encoded again, so its bytes need not hash to it.
 */
const recordFileEntrySchema = z.object({
  hash: z.string().regex(RECORD_FILE_HASH_PATTERN),
  kind: z.enum(RECORD_FILE_KINDS),
  contentType: z.string().min(1).max(200),
  bytes: z
    .number()
    .int()
    .min(1)
    .max(Math.max(RECORD_FILE_LIMITS.imageBytes, RECORD_FILE_LIMITS.fileBytes)),
  file: entryNameSchema,
});

const appEntrySchema = z.object({
  id: idSchema,
  title: z.string().max(200),
  files: z.object({
    definition: entryNameSchema,
    versions: z.array(versionEntrySchema).max(PORTABLE_LIMITS.versionsPerApp),
    checkpoints: z.array(checkpointEntrySchema).max(PORTABLE_LIMITS.checkpointsPerApp),
    images: z.array(imageEntrySchema).max(PORTABLE_LIMITS.imagesPerApp),
    /** The exporting person's own data in the app, when they chose to include it. */
    data: entryNameSchema.nullable(),
    /** The photos and files on that data's records (absent in files made before them). */
    recordFiles: z
      .array(recordFileEntrySchema)
      .max(PORTABLE_LIMITS.recordFilesPerScope)
      .default([]),
  }),
});
export type PipitFileApp = z.infer<typeof appEntrySchema>;

/**
 * A shared space the exporting person is in, in an account export: its records are the space's,
 * shared with its other members, never the person's own data. An import leaves them out.
 */
const spaceEntrySchema = z.object({
  id: idSchema,
  name: z.string().max(200),
  /** The person's role in it. */
  role: z.enum(SPACE_ROLES),
  /** The app it belongs to (which need not be in the file: it may be someone else's). */
  app: z.object({ id: idSchema, title: z.string().max(200) }),
  file: entryNameSchema,
  /** The photos and files on its records (absent in files made before them). */
  recordFiles: z.array(recordFileEntrySchema).max(PORTABLE_LIMITS.recordFilesPerScope).default([]),
});
export type PipitFileSpace = z.infer<typeof spaceEntrySchema>;
export type PipitFileImage = z.infer<typeof imageEntrySchema>;
export type PipitFileRecordFile = z.infer<typeof recordFileEntrySchema>;
export type PipitFileVersion = z.infer<typeof versionEntrySchema>;
export type PipitFileCheckpoint = z.infer<typeof checkpointEntrySchema>;

/** `manifest.json`: what the file is and where each part of each app is inside it. */
export const pipitManifestSchema = z.object({
  format: z.literal(PIPIT_FILE_FORMAT),
  version: z.literal(PIPIT_FILE_VERSION),
  /** Random, one per export: importing the same file twice is recognised by it. */
  exportId: idSchema,
  /** The server it was exported from (`PUBLIC_ORIGIN`). */
  origin: z.string().max(2048),
  exportedAt: z.string().max(40),
  kind: z.enum(['app', 'account']),
  /** An account export's JSON (profile, sessions), not imported anywhere. */
  account: entryNameSchema.nullable(),
  apps: z.array(appEntrySchema).max(PORTABLE_LIMITS.apps),
  /** The shared spaces the person is in (account exports; none in a file made before them). */
  spaces: z.array(spaceEntrySchema).max(PORTABLE_LIMITS.spaces).default([]),
});
export type PipitManifest = z.infer<typeof pipitManifestSchema>;

const recordValueSchema = z.union([z.string().max(100_000), z.number(), z.boolean(), z.null()]);

/** A person's own data in one app, as `readVisitorData` reads it. */
const visitorDataFileSchema = z.object({
  format: z.literal('pipit-visitor-data'),
  records: z
    .array(
      z.object({
        id: z.string().min(1).max(64),
        collectionId: z.string().min(1).max(64),
        values: z.record(z.string().max(64), recordValueSchema),
        createdAt: z.number(),
        updatedAt: z.number(),
      }),
    )
    .max(VISITOR_RECORD_LIMIT),
  counters: z.record(z.string().min(1).max(64), z.number().int()),
});

/** A shared space's records and counters, as `readVisitorData` reads its document. */
const spaceDataFileSchema = z.object({
  format: z.literal('pipit-space-data'),
  space: z.object({ id: idSchema, name: z.string().max(200), role: z.enum(SPACE_ROLES) }),
  records: z
    .array(
      z.object({
        id: z.string().min(1).max(64),
        collectionId: z.string().min(1).max(64),
        values: z.record(z.string().max(64), recordValueSchema),
        createdAt: z.number(),
        updatedAt: z.number(),
        /** The account that added it, on the server the file came from. */
        authorId: z.string().max(64).optional(),
      }),
    )
    .max(SPACE_LIMITS.recordsPerSpace),
  counters: z.record(z.string().min(1).max(64), z.number().int()),
});

const versionFileSchema = z.object({
  format: z.literal('pipit-version'),
  number: z.number().int().min(1),
  definition: z.unknown(),
});

const checkpointFileSchema = z.object({
  format: z.literal('pipit-checkpoint'),
  id: idSchema,
  definition: z.unknown(),
});

/** An app as it goes into a file. */
export interface PortableApp {
  id: string;
  title: string;
  definition: AppDefinition | ReadDefinition;
  /** Oldest first. */
  versions: Array<{ number: number; publishedAt: number; definition: unknown }>;
  checkpoints: Array<{
    id: string;
    kind: string;
    name: string | null;
    version: number | null;
    createdAt: number;
    changes: unknown;
    definition: unknown;
  }>;
  images: Array<{ id: string; contentType: PortableImageType; bytes: Uint8Array }>;
  data: VisitorData | null;
  /** The photos and files on `data`'s records (none unless given). */
  recordFiles?: PortableRecordFile[];
}

/** A photo or file on records, as a file carries it. */
export interface PortableRecordFile {
  hash: string;
  kind: RecordFileKind;
  contentType: string;
  bytes: Uint8Array;
}

/** A shared space the exporting person is in, as it goes into an account's file. */
export interface PortableSpace {
  id: string;
  name: string;
  role: SpaceRole;
  app: { id: string; title: string };
  data: VisitorData;
  /** The photos and files on its records (none unless given). */
  recordFiles?: PortableRecordFile[];
}

export interface PortableExport {
  /** Made here unless given. */
  exportId?: string;
  origin: string;
  exportedAt: number;
  kind: 'app' | 'account';
  account?: unknown;
  apps: PortableApp[];
  /** An account's shared spaces, each with its records (none unless given). */
  spaces?: PortableSpace[];
}

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

/** A definition as a file keeps it: what the editor shows, without placeholders it cannot use. */
export function portableDefinition(definition: AppDefinition | ReadDefinition): AppDefinition {
  type Usable = AppDefinition['screens'][number]['components'][number];
  const screens: ReadDefinition['screens'] = definition.screens;
  return {
    ...definition,
    screens: screens.map((screen) => ({
      ...screen,
      components: screen.components.filter((c): c is Usable => c.type !== 'invalid'),
    })),
  };
}

/** Writes a `.pipit` file. Images are stored as they are (they are compressed already). */
export function writePipitFile(input: PortableExport): Uint8Array {
  const entries: ZipEntryInput[] = [];
  const add = (name: string, data: Uint8Array, compress = true) => {
    entries.push({ name, data, compress });
    return name;
  };
  const exportedAt = new Date(input.exportedAt);
  const manifest: PipitManifest = {
    format: PIPIT_FILE_FORMAT,
    version: PIPIT_FILE_VERSION,
    exportId: input.exportId ?? createId(),
    origin: input.origin,
    exportedAt: exportedAt.toISOString(),
    kind: input.kind,
    account: input.account === undefined ? null : 'account.json',
    apps: [],
    spaces: [],
  };
  // The manifest comes first in the zip, so a person opening it sees it at the top.
  entries.push({ name: 'manifest.json', data: new Uint8Array(0), compress: true });
  if (input.account !== undefined) add('account.json', json(input.account));
  for (const app of input.apps) {
    const base = `apps/${app.id}`;
    manifest.apps.push({
      id: app.id,
      title: app.title,
      files: {
        definition: add(
          `${base}/definition.json`,
          strToU8(exportDefinition(portableDefinition(app.definition))),
        ),
        versions: app.versions.map((v) => ({
          number: v.number,
          publishedAt: v.publishedAt,
          file: add(
            `${base}/versions/${v.number}.json`,
            json({ format: 'pipit-version', number: v.number, definition: v.definition }),
          ),
        })),
        checkpoints: app.checkpoints.map((c) => ({
          id: c.id,
          kind: c.kind,
          name: c.name,
          version: c.version,
          createdAt: c.createdAt,
          changes: c.changes,
          file: add(
            `${base}/checkpoints/${c.id}.json`,
            json({ format: 'pipit-checkpoint', id: c.id, definition: c.definition }),
          ),
        })),
        images: app.images.map((image) => ({
          id: image.id,
          contentType: image.contentType,
          bytes: image.bytes.byteLength,
          file: add(
            `${base}/images/${image.id}.${IMAGE_EXTENSIONS[image.contentType]}`,
            image.bytes,
            false,
          ),
        })),
        data: app.data
          ? add(`${base}/data.json`, json({ format: 'pipit-visitor-data', ...app.data }))
          : null,
        recordFiles: app.data ? recordFileEntries(`${base}/files`, app.recordFiles) : [],
      },
    });
  }
  for (const space of input.spaces ?? []) {
    manifest.spaces.push({
      id: space.id,
      name: space.name,
      role: space.role,
      app: space.app,
      file: add(
        `spaces/${space.id}/data.json`,
        json({
          format: 'pipit-space-data',
          space: { id: space.id, name: space.name, role: space.role },
          ...space.data,
        }),
      ),
      recordFiles: recordFileEntries(`spaces/${space.id}/files`, space.recordFiles),
    });
  }
  function recordFileEntries(folder: string, files: PortableRecordFile[] = []) {
    return files.map((f) => ({
      hash: f.hash,
      kind: f.kind,
      contentType: f.contentType,
      bytes: f.bytes.byteLength,
      // A photo is compressed already; a file may not be.
      file: add(`${folder}/${f.hash}`, f.bytes, f.kind === 'file'),
    }));
  }
  entries[0] = { name: 'manifest.json', data: json(manifest), compress: true };
  return writeZip(entries, exportedAt);
}

function parseJson(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(strFromU8(bytes)) as unknown;
  } catch {
    throw new PipitFileError(`${capital(what)} is damaged: it can’t be read. Export it again.`);
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/*
 * Refusals name what a person knows — an app by its title, "the app’s definition", "image 3 of
 * the app “Chores”" — never a path inside the zip or an id.
 */

/** `the app “Chores”`, its title kept short. */
function appInWords(app: Pick<PipitFileApp, 'title'>): string {
  const title = app.title.trim() || 'Untitled';
  return `the app “${title.length > 60 ? `${title.slice(0, 59)}…` : title}”`;
}

/** `image 3 of the app “Chores”`: an image by its place in the app's list (from 1). */
export function imageInWords(app: PipitFileApp, image: Pick<PipitFileImage, 'id'>): string {
  const place = app.files.images.findIndex((i) => i.id === image.id);
  return `image ${place + 1} of ${appInWords(app)}`;
}

/** `the checkpoint “Before spring” of the app “Chores”`, or `checkpoint 4 of …` without a name. */
export function checkpointInWords(
  app: PipitFileApp,
  checkpoint: Pick<PipitFileCheckpoint, 'id' | 'name'>,
): string {
  const name = checkpoint.name?.trim();
  if (name) return `the checkpoint “${name.slice(0, 40)}” of ${appInWords(app)}`;
  const place = app.files.checkpoints.findIndex((c) => c.id === checkpoint.id);
  return `checkpoint ${place + 1} of ${appInWords(app)}`;
}

/** Each part a manifest lists, by its name inside the zip, in words. */
function partsInWords(manifest: PipitManifest): Map<string, string> {
  const parts = new Map<string, string>([['manifest.json', 'the file’s list of contents']]);
  if (manifest.account) parts.set(manifest.account, 'your account’s details');
  for (const app of manifest.apps) {
    const { definition, versions, checkpoints, images, data } = app.files;
    parts.set(definition, `the definition of ${appInWords(app)}`);
    for (const v of versions) parts.set(v.file, `version ${v.number} of ${appInWords(app)}`);
    for (const c of checkpoints) parts.set(c.file, checkpointInWords(app, c));
    for (const i of images) parts.set(i.file, imageInWords(app, i));
    if (data) parts.set(data, `your data in ${appInWords(app)}`);
    app.files.recordFiles.forEach((f, i) =>
      parts.set(f.file, `photo or file ${i + 1} of your data in ${appInWords(app)}`),
    );
  }
  for (const space of manifest.spaces) {
    parts.set(space.file, `the records of the space “${space.name.slice(0, 60)}”`);
    space.recordFiles.forEach((f, i) =>
      parts.set(f.file, `photo or file ${i + 1} of the space “${space.name.slice(0, 60)}”`),
    );
  }
  return parts;
}

/** A part of the file before its manifest is read: what Pipit's own layout says it is. */
function partByLayout(name: string): string {
  if (name === 'manifest.json') return 'the file’s list of contents';
  if (name === 'account.json') return 'your account’s details';
  const layout: Array<[RegExp, string]> = [
    [/^apps\/[^/]+\/definition\.json$/, 'an app’s definition'],
    [/^apps\/[^/]+\/versions\//, 'a published version of an app'],
    [/^apps\/[^/]+\/checkpoints\//, 'a checkpoint of an app'],
    [/^apps\/[^/]+\/images\//, 'an image of an app'],
    [/^apps\/[^/]+\/data\.json$/, 'your data in an app'],
    [/^apps\/[^/]+\/files\//, 'a photo or file of your data in an app'],
    [/^spaces\//, 'the records of a shared space'],
  ];
  return layout.find(([pattern]) => pattern.test(name))?.[1] ?? 'a part Pipit never writes';
}

/** A definition from a version of the file: migrated forward and checked like an import. */
function checkedDefinition(value: unknown, what: string): AppDefinition {
  let migrated: unknown;
  try {
    migrated = migrateDefinition(value);
  } catch (error) {
    throw new PipitFileError(`${capital(what)}: ${(error as Error).message}`);
  }
  const parsed = appDefinitionSchema.safeParse(migrated);
  if (!parsed.success) {
    throw new PipitFileError(
      `${capital(what)} can’t be imported. ${problemsInWords(migrated, parsed.error.issues)}`,
    );
  }
  return parsed.data;
}

function unique<T>(items: readonly T[], key: (item: T) => unknown, what: string): void {
  const seen = new Set<unknown>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) throw new PipitFileError(`This Pipit file lists ${what} twice.`);
    seen.add(k);
  }
}

/** A `.pipit` file, opened: its manifest checked, each part read (and checked) when asked for. */
export interface PipitFile {
  manifest: PipitManifest;
  /** An account export's JSON, or null. */
  account(): unknown;
  /** The app's definition, checked like an imported JSON file. */
  definition(app: PipitFileApp): AppDefinition;
  /** A published version's definition, checked the same way. */
  version(app: PipitFileApp, version: PipitFileVersion): AppDefinition;
  /** A checkpoint's definition: a definition as it was, kept as it is (not repaired). */
  checkpoint(app: PipitFileApp, checkpoint: PipitFileCheckpoint): Record<string, unknown>;
  /** An image's bytes, exactly as many as the manifest says. */
  image(app: PipitFileApp, image: PipitFileImage): Uint8Array;
  /** The exporting person's data in the app, or null when it was left out. */
  data(app: PipitFileApp): VisitorData | null;
  /** A photo's or file's bytes (of an app's data or a space), exactly as many as listed. */
  recordFile(entry: PipitFileRecordFile): Uint8Array;
  /** A shared space's records and counters (read, never imported). */
  spaceData(space: PipitFileSpace): VisitorData;
}

/**
 * Opens a `.pipit` file: anything broken, foreign, too large or unsafe is a PipitFileError (a
 * DefinitionError) that says what, before more than the manifest is unpacked.
 */
export function readPipitFile(bytes: Uint8Array): PipitFile {
  if (bytes.byteLength > PORTABLE_LIMITS.fileBytes) {
    throw new PipitFileError(
      `This file is larger than ${PORTABLE_LIMITS.fileBytes / 1024 / 1024} MB, the most a Pipit file may be.`,
    );
  }
  // A part is named by the manifest once it is read, by Pipit's layout before.
  let parts: Map<string, string> | null = null;
  const zip = readZip(bytes, PORTABLE_LIMITS, (name) => parts?.get(name) ?? partByLayout(name));
  if (!zip.has('manifest.json')) throw new PipitFileError(NOT_A_PIPIT_FILE);
  const manifestBytes = zip.read('manifest.json');
  if (manifestBytes.byteLength > PORTABLE_LIMITS.manifestBytes) {
    throw new PipitFileError('This Pipit file’s list of contents is too large.');
  }
  const raw = parseJson(manifestBytes, 'the file’s list of contents') as Record<
    string,
    unknown
  > | null;
  if (!raw || typeof raw !== 'object' || raw.format !== PIPIT_FILE_FORMAT) {
    throw new PipitFileError(NOT_A_PIPIT_FILE);
  }
  if (typeof raw.version === 'number' && raw.version > PIPIT_FILE_VERSION) {
    throw new PipitFileError(
      'This file was made by a newer version of Pipit. Update this server to import it.',
    );
  }
  const parsed = pipitManifestSchema.safeParse(raw);
  if (!parsed.success) {
    throw new PipitFileError(
      'This Pipit file’s list of contents is damaged or was not made by Pipit. Export it again.',
    );
  }
  const manifest = parsed.data;
  parts = partsInWords(manifest);
  const known = parts;
  unique(manifest.apps, (a) => a.id, 'an app');
  for (const app of manifest.apps) {
    unique(app.files.versions, (v) => v.number, `a version of ${appInWords(app)}`);
    unique(app.files.checkpoints, (c) => c.id, `a checkpoint of ${appInWords(app)}`);
    unique(app.files.images, (i) => i.id, `an image of ${appInWords(app)}`);
    const names = [
      app.files.definition,
      ...app.files.versions.map((v) => v.file),
      ...app.files.checkpoints.map((c) => c.file),
      ...app.files.images.map((i) => i.file),
      ...(app.files.data ? [app.files.data] : []),
      ...app.files.recordFiles.map((f) => f.file),
    ];
    unique(app.files.recordFiles, (f) => f.hash, `a photo or file of ${appInWords(app)}`);
    for (const name of names) {
      if (!zip.has(name)) {
        throw new PipitFileError(`This Pipit file is missing ${known.get(name)}. Export it again.`);
      }
    }
  }

  unique(manifest.spaces, (s) => s.id, 'a shared space');
  for (const space of manifest.spaces) {
    for (const f of space.recordFiles) {
      if (!zip.has(f.file)) {
        throw new PipitFileError(
          `This Pipit file is missing ${known.get(f.file)}. Export it again.`,
        );
      }
    }
    if (!zip.has(space.file)) {
      throw new PipitFileError(
        `This Pipit file is missing ${known.get(space.file)}. Export it again.`,
      );
    }
  }

  const jsonOf = (name: string) => parseJson(zip.read(name), known.get(name) ?? partByLayout(name));

  return {
    manifest,
    account: () => (manifest.account ? jsonOf(manifest.account) : null),
    definition(app) {
      const what = `the definition of ${appInWords(app)}`;
      const file = jsonOf(app.files.definition) as { format?: unknown; definition?: unknown };
      if (!file || typeof file !== 'object' || file.format !== EXPORT_FORMAT) {
        throw new PipitFileError(`${capital(what)} is not an app’s definition. Export it again.`);
      }
      return checkedDefinition(file.definition, what);
    },
    version(app, version) {
      const what = `version ${version.number} of ${appInWords(app)}`;
      const file = versionFileSchema.safeParse(jsonOf(version.file));
      if (!file.success || file.data.number !== version.number) {
        throw new PipitFileError(`${capital(what)} is not a published version. Export it again.`);
      }
      return checkedDefinition(file.data.definition, what);
    },
    checkpoint(app, checkpoint) {
      const what = checkpointInWords(app, checkpoint);
      const file = checkpointFileSchema.safeParse(jsonOf(checkpoint.file));
      if (!file.success || file.data.id !== checkpoint.id) {
        throw new PipitFileError(`${capital(what)} is not a checkpoint. Export it again.`);
      }
      try {
        return migrateDefinition(file.data.definition) as Record<string, unknown>;
      } catch (error) {
        throw new PipitFileError(`${capital(what)}: ${(error as Error).message}`);
      }
    },
    image(app, image) {
      const bytes = zip.read(image.file);
      if (bytes.byteLength !== image.bytes) {
        throw new PipitFileError(
          `${capital(imageInWords(app, image))} is damaged. Export the app again.`,
        );
      }
      return bytes;
    },
    recordFile(entry) {
      const bytes = zip.read(entry.file);
      if (bytes.byteLength !== entry.bytes) {
        throw new PipitFileError(
          `${capital(known.get(entry.file) ?? partByLayout(entry.file))} is damaged. Export it again.`,
        );
      }
      return bytes;
    },
    data(app) {
      if (!app.files.data) return null;
      const what = `your data in ${appInWords(app)}`;
      const file = visitorDataFileSchema.safeParse(jsonOf(app.files.data));
      if (!file.success) {
        throw new PipitFileError(`${capital(what)} is damaged. Export it again.`);
      }
      unique(file.data.records, (r) => r.id, `a record in ${appInWords(app)}`);
      return { records: file.data.records, counters: file.data.counters };
    },
    spaceData(space) {
      const file = spaceDataFileSchema.safeParse(jsonOf(space.file));
      if (!file.success || file.data.space.id !== space.id) {
        throw new PipitFileError(
          `The records of the space “${space.name.slice(0, 60)}” are damaged. Export them again.`,
        );
      }
      return { records: file.data.records, counters: file.data.counters };
    },
  };
}

/** `/api/uploads/{id}`, wherever it appears in a string (image sources, icons, markdown, links). */
const UPLOAD_URL = /\/api\/uploads\/([a-z2-7]{26})(?![a-z2-7])/g;

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, map);
    return out;
  }
  return value;
}

/** The ids of the uploaded images a definition (or any JSON) points at. */
export function uploadIdsIn(value: unknown, into = new Set<string>()): Set<string> {
  mapStrings(value, (text) => {
    for (const match of text.matchAll(UPLOAD_URL)) into.add(match[1]!);
    return text;
  });
  return into;
}

/** The same JSON with each `/api/uploads/{old}` pointing at `/api/uploads/{new}` instead. */
export function rewriteUploadUrls<T>(value: T, ids: ReadonlyMap<string, string>): T {
  if (ids.size === 0) return value;
  return mapStrings(value, (text) =>
    text.replace(UPLOAD_URL, (whole, id: string) => {
      const next = ids.get(id);
      return next ? `/api/uploads/${next}` : whole;
    }),
  ) as T;
}

/**
 * A definition imported without its images (offline: only the definition comes): image components
 * that showed an uploaded image are emptied and an uploaded icon becomes the default emoji, rather
 * than pointing at images this server does not have.
 */
export function withoutUploads(definition: AppDefinition): {
  definition: AppDefinition;
  removed: number;
} {
  let removed = 0;
  const isUpload = (url: string) => uploadIdsIn(url).size > 0;
  const icon =
    definition.meta.icon.kind === 'image' && isUpload(definition.meta.icon.url)
      ? (removed++, { ...DEFAULT_APP_ICON })
      : definition.meta.icon;
  const screens = definition.screens.map((screen) => ({
    ...screen,
    components: screen.components.map((c) => {
      if (c.type !== 'image' || !isUpload(c.props.src)) return c;
      removed++;
      return { ...c, props: { ...c.props, src: '' } };
    }),
  }));
  return { definition: { ...definition, meta: { ...definition.meta, icon }, screens }, removed };
}
