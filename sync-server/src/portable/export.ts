import { gunzipSync } from 'node:zlib';
import {
  hasDefinition,
  PORTABLE_IMAGE_TYPES,
  type PortableApp,
  type PortableImageType,
  type PortableRecordFile,
  type PortableSpace,
  readDefinition,
  readVisitorData,
  uploadIdsIn,
  writePipitFile,
} from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import * as Y from 'yjs';
import type { Clock } from '../accounts/clock';
import { replayInto } from '../storage/replay';
import type { Logger } from '../logger';
import { type LiveDocuments, loadAppDocument } from '../publishing/app-document';
import { ServiceError } from '../service-error';
import type { AppRecord, Storage } from '../storage/types';

export interface PortableDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** The documents this instance has loaded: an export holds every acknowledged edit. */
  liveDocuments?: LiveDocuments | undefined;
}

/** A copy of a document with everything stored and logged for it, and this instance's live copy. */
async function documentCopy(deps: PortableDeps, name: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  replayInto(doc, await deps.storage.documents.loadWithLog(name), {
    onSkipped: (seq, error) =>
      deps.logger.warn({ err: error, documentName: name, seq }, 'skipped a logged update'),
  });
  const live = deps.liveDocuments?.get(name);
  if (live) Y.applyUpdate(doc, Y.encodeStateAsUpdate(live));
  return doc;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Whether an app's definition has reached this server (an app registers before it syncs). */
export async function hasStoredDefinition(deps: PortableDeps, appId: string): Promise<boolean> {
  const doc = await loadAppDocument(appId, deps.storage.documents, deps.liveDocuments, deps.logger);
  try {
    return hasDefinition(doc);
  } finally {
    doc.destroy();
  }
}

/**
 * Everything of one app a file holds: its definition as it is now, its published versions, its
 * checkpoints, the images it owns or points at, and — only when `dataOf` names a person — that
 * person's own data in it. Never anyone else's data.
 */
export async function portableApp(
  deps: PortableDeps,
  app: AppRecord,
  dataOf: string | null,
): Promise<PortableApp> {
  const { storage } = deps;
  const doc = await loadAppDocument(app.id, storage.documents, deps.liveDocuments, deps.logger);
  if (!hasDefinition(doc)) {
    doc.destroy();
    throw new ServiceError(
      'not_found',
      `“${app.title}” has not reached the server yet. Open it online on the device that made it, then export again.`,
    );
  }
  const definition = readDefinition(doc);
  doc.destroy();

  const versions: PortableApp['versions'] = [];
  for (const { number } of [...(await storage.publishing.versions(app.id))].reverse()) {
    const version = await storage.publishing.version(app.id, number);
    if (version) {
      versions.push({
        number,
        publishedAt: version.publishedAt,
        definition: parseJson(version.definitionJson),
      });
    }
  }

  const checkpoints: PortableApp['checkpoints'] = [];
  for (const checkpoint of [...(await storage.checkpoints.list(app.id))].reverse()) {
    const bytes = await storage.checkpoints.definition(app.id, checkpoint.id);
    if (!bytes) continue;
    checkpoints.push({
      id: checkpoint.id,
      kind: checkpoint.kind,
      name: checkpoint.name,
      version: checkpoint.version,
      createdAt: checkpoint.createdAt,
      changes: parseJson(checkpoint.changesJson),
      definition: parseJson(gunzipSync(bytes).toString('utf8')),
    });
  }

  // The app's own images, and any other upload it points at (a remix's, kept by its original).
  const imageIds = new Set(await storage.uploads.idsForApp(app.id));
  uploadIdsIn(definition, imageIds);
  for (const v of versions) uploadIdsIn(v.definition, imageIds);
  for (const c of checkpoints) uploadIdsIn(c.definition, imageIds);
  const images: PortableApp['images'] = [];
  // By id: the same app exports the same file on any server, whenever its images were stored.
  for (const id of [...imageIds].sort()) {
    const upload = await storage.uploads.get(id);
    if (upload && (PORTABLE_IMAGE_TYPES as readonly string[]).includes(upload.contentType)) {
      images.push({
        id,
        contentType: upload.contentType as PortableImageType,
        bytes: upload.bytes,
      });
    }
  }

  let data: PortableApp['data'] = null;
  let recordFiles: PortableRecordFile[] = [];
  if (dataOf) {
    const scope = documentName({ kind: 'data', appId: app.id, userId: dataOf });
    const dataDoc = await documentCopy(deps, scope);
    data = readVisitorData(dataDoc);
    dataDoc.destroy();
    recordFiles = await recordFilesOf(deps, scope);
  }

  return {
    id: app.id,
    title: definition.meta.title,
    definition,
    versions,
    checkpoints,
    images,
    data,
    recordFiles,
  };
}

/** The photos and files on a document's records, as a file carries them. */
async function recordFilesOf(deps: PortableDeps, scope: string): Promise<PortableRecordFile[]> {
  return (await deps.storage.recordFiles.listForScope(scope)).map((f) => ({
    hash: f.hash,
    kind: f.kind,
    contentType: f.contentType,
    bytes: f.bytes,
  }));
}

/**
 * A `.pipit` file of one app (`GET /api/apps/{id}/export`), with the title its manifest holds: the
 * title of the definition exported, which the app's listing row follows only on the next debounced
 * store, so the file is named from this one.
 */
export async function exportApp(
  deps: PortableDeps,
  input: { origin: string; app: AppRecord; dataOf: string | null },
): Promise<{ bytes: Uint8Array; title: string }> {
  const app = await portableApp(deps, input.app, input.dataOf);
  const bytes = writePipitFile({
    origin: input.origin,
    exportedAt: deps.clock.now(),
    kind: 'app',
    apps: [app],
  });
  return { bytes, title: app.title };
}

/**
 * The shared spaces a person is in, owned or joined, each with its records as its document holds
 * them: so that when a space ends, its people may keep a copy (docs/product/spaces.md).
 */
async function portableSpaces(deps: PortableDeps, userId: string): Promise<PortableSpace[]> {
  const spaces: PortableSpace[] = [];
  for (const space of await deps.storage.spaces.listForUser(userId)) {
    const app = await deps.storage.apps.get(space.appId);
    const scope = documentName({ kind: 'space', spaceId: space.id });
    const doc = await documentCopy(deps, scope);
    const data = readVisitorData(doc);
    doc.destroy();
    const recordFiles = await recordFilesOf(deps, scope);
    spaces.push({
      id: space.id,
      name: space.name,
      role: space.role,
      app: { id: space.appId, title: app?.title ?? '' },
      data,
      recordFiles,
    });
  }
  return spaces;
}

/**
 * An account's `.pipit` file (`GET /api/account/export`): its JSON (profile, sessions, the apps it
 * holds, the spaces it is in) and every app it owns, each with the person's own data in it, and
 * the records of each shared space it is in, apart from its own. An app whose definition has not
 * reached the server yet is listed in the JSON as not included.
 */
export async function exportAccount(
  deps: PortableDeps,
  input: { origin: string; userId: string; account: Record<string, unknown> },
): Promise<Uint8Array> {
  const owned = (await deps.storage.apps.listForUser(input.userId)).filter(
    (app) => app.role === 'owner',
  );
  const apps: PortableApp[] = [];
  const notIncluded: Array<{ id: string; title: string; reason: string }> = [];
  for (const app of owned.sort((a, b) => a.createdAt - b.createdAt)) {
    if (!(await hasStoredDefinition(deps, app.id))) {
      notIncluded.push({
        id: app.id,
        title: app.title,
        reason: 'It has not reached the server yet: it is on the device that made it.',
      });
      continue;
    }
    apps.push(await portableApp(deps, app, input.userId));
  }
  const spaces = await portableSpaces(deps, input.userId);
  return writePipitFile({
    origin: input.origin,
    exportedAt: deps.clock.now(),
    kind: 'account',
    account: {
      ...input.account,
      apps: apps.map((a) => ({ id: a.id, title: a.title, file: `apps/${a.id}/` })),
      appsNotIncluded: notIncluded,
      spaces: spaces.map((s) => ({
        id: s.id,
        name: s.name,
        role: s.role,
        app: s.app,
        file: `spaces/${s.id}/`,
      })),
    },
    apps,
    spaces,
  });
}
