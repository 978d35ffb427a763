import { gzipSync } from 'node:zlib';
import {
  addComponent,
  createVisitorRecord,
  type ReadDefinition,
  readDefinition,
  readPipitFile,
  readVisitorData,
  setComponentProps,
  setMeta,
  type VisitorRecord,
} from '@pipit/app-definition';
import { createId, documentName } from '@pipit/protocol';
import sharp from 'sharp';
import * as Y from 'yjs';
import type { Logger } from '../../src/logger';
import { loadAppDocument } from '../../src/publishing/app-document';
import type { Storage } from '../../src/storage/types';
import type { ApiClient, ApiResponse } from './api-client';
import type { AccountsHarness } from './engines';
import { acknowledged, connectProvider } from './provider';
import { createApp, definitionOf, editDocument, publish, verifyEmail } from './publishing';

/** A PNG of one colour, made here (no files checked in). */
export async function pngImage(width: number, height: number, colour: string): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
}

/** A raw-body POST as a browser sends it (same origin, the session cookie). */
export async function postRaw<T = Record<string, unknown>>(
  client: ApiClient,
  path: string,
  body: Uint8Array,
  type: string,
): Promise<ApiResponse<T>> {
  const response = await fetch(`${client.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      Origin: client.baseUrl,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': type,
      ...(client.cookie ? { Cookie: client.cookie } : {}),
    },
    body: body as Uint8Array<ArrayBuffer>,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as T,
    headers: response.headers,
  };
}

export function uploadImage(
  client: ApiClient,
  appId: string,
  bytes: Uint8Array,
  type = 'image/png',
) {
  return postRaw<{
    url: string;
    id: string;
    bytes: number;
    error?: { code: string; message: string };
  }>(client, `/api/apps/${appId}/images`, bytes, type);
}

/** `GET /api/apps/{id}/export` (or the account's): the status, headers and the file's bytes. */
export async function download(
  client: ApiClient,
  path: string,
): Promise<{ status: number; headers: Headers; bytes: Uint8Array; json: unknown }> {
  const response = await fetch(`${client.baseUrl}${path}`, {
    headers: client.cookie ? { Cookie: client.cookie } : {},
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  let json: unknown = null;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    json = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  }
  return { status: response.status, headers: response.headers, bytes, json };
}

export function importFile(client: ApiClient, bytes: Uint8Array, query = '') {
  return postRaw<{
    apps: Array<{ id: string; sourceId: string; title: string; records: number }>;
    report: {
      remapped: {
        apps: Record<string, string>;
        images: Record<string, string>;
        checkpoints: number;
      };
      notes: string[];
    };
    error?: { code: string; message: string; appId?: string };
  }>(client, `/api/apps/import${query}`, bytes, 'application/zip');
}

export interface RichApp {
  id: string;
  /** The images uploaded to it: the icon's and the image component's. */
  imageIds: string[];
  checkpointId: string;
  /** Records the owner keeps in it. */
  records: number;
}

/**
 * An app with everything a file carries: an uploaded icon and image (through the real endpoint),
 * two published versions, a named checkpoint, and the owner's records in their data document.
 */
export async function createRichApp(
  h: AccountsHarness,
  client: ApiClient,
  title: string,
  records = 3,
): Promise<RichApp> {
  const userId = await verifyEmail(h, client);
  const id = await createApp(h, client, definitionOf({ title }));
  const imageIds: string[] = [];
  for (const colour of ['#cc3300', '#0066cc']) {
    const uploaded = await uploadImage(client, id, await pngImage(120, 80, colour));
    if (uploaded.status !== 201) throw new Error(`upload: ${JSON.stringify(uploaded.body)}`);
    imageIds.push(uploaded.body.id);
  }
  await editDocument(h, client, id, (doc) => {
    const screen = readDefinition(doc).screens[0]!.id;
    setMeta(doc, { icon: { kind: 'image', url: `/api/uploads/${imageIds[0]}` } });
    const image = addComponent(doc, createId, screen, 'image');
    setComponentProps(doc, image, { src: `/api/uploads/${imageIds[1]}`, alt: 'A blue square' });
  });
  if ((await publish(client, id)).status !== 201) throw new Error('publish 1');
  await editDocument(h, client, id, (doc) => setMeta(doc, { description: 'Second version' }));
  if ((await publish(client, id)).status !== 201) throw new Error('publish 2');

  const storage = h.pipit.server.storage;
  const doc = await (async () => {
    const side = connectProvider({ url: h.pipit.url, name: `app/${id}`, cookie: client.cookie });
    if (!(await side.ready)) throw new Error('open');
    const definition = readDefinition(side.doc);
    side.destroy();
    return definition;
  })();
  const checkpointId = createId();
  const json = JSON.stringify(doc);
  await storage.checkpoints.insert({
    id: checkpointId,
    appId: id,
    kind: 'manual',
    name: 'Before the blue image',
    version: null,
    createdAt: Date.now() - 60_000,
    createdById: userId,
    authorIds: [userId],
    changesJson: JSON.stringify({
      counts: { components: 1 },
      names: ['Image'],
      summary: '1 component',
      first: false,
    }),
    definitionHash: 'test',
    definition: new Uint8Array(gzipSync(json)),
    size: 0,
  });

  await writeRecords(h, client, id, userId, records);
  return { id, imageIds, checkpointId, records };
}

/** Adds records to a person's data in an app, over their own socket, as the installed app does. */
export async function writeRecords(
  h: AccountsHarness,
  client: ApiClient,
  appId: string,
  userId: string,
  count: number,
): Promise<void> {
  const side = connectProvider({
    url: h.pipit.url,
    name: documentName({ kind: 'data', appId, userId }),
    cookie: client.cookie,
  });
  try {
    if (!(await side.ready)) throw new Error(`the server refused data/${appId}/${userId}`);
    const app = connectProvider({ url: h.pipit.url, name: `app/${appId}`, cookie: client.cookie });
    const opened = await app.ready;
    const collection = opened ? readDefinition(app.doc).collections[0] : undefined;
    app.destroy();
    if (!collection) throw new Error('the app has no collection');
    const name = collection.fields.find((f) => f.type === 'text')!;
    for (let i = 0; i < count; i++) {
      createVisitorRecord(side.doc, collection, { [name.id]: `Record ${i + 1} of ${userId}` });
    }
    await acknowledged(side.provider);
  } finally {
    side.destroy();
  }
}

/** An app's definition and a person's records as a server stores them (e2e compares two servers). */
export async function storedApp(
  server: { storage: Storage; logger: Logger },
  appId: string,
  userId: string,
): Promise<{ definition: ReadDefinition; records: VisitorRecord[] }> {
  const doc = await loadAppDocument(appId, server.storage.documents, undefined, server.logger);
  const data = new Y.Doc();
  const state = await server.storage.documents.load(documentName({ kind: 'data', appId, userId }));
  if (state) Y.applyUpdate(data, state);
  return { definition: readDefinition(doc), records: readVisitorData(data).records };
}

/** What a `.pipit` file holds of each app, counted. */
export function pipitFileSummary(bytes: Uint8Array) {
  const file = readPipitFile(bytes);
  return file.manifest.apps.map((app) => ({
    id: app.id,
    title: app.title,
    images: app.files.images.length,
    versions: app.files.versions.length,
    records: file.data(app)?.records.length ?? null,
  }));
}
