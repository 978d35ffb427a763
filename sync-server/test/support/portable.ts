import { deflateSync, gzipSync } from 'node:zlib';
import {
  addComponent,
  createVisitorRecord,
  type ReadDefinition,
  readDefinition,
  readPipitFile,
  readVisitorData,
  setComponentProps,
  setMeta,
  type PortableImageType,
  type VisitorRecord,
  writeDefinition,
  writePipitFile,
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

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/**
 * A PNG of a few dozen bytes whose header declares `width` × `height` (an RGB image), and whose
 * pixels are not there: its header reads like any PNG's, and decoding it fails at once. What a
 * decoding bomb looks like, without the work of making one.
 */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per channel
  ihdr[9] = 2; // RGB
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      pngChunk('IHDR', ihdr),
      pngChunk('IDAT', deflateSync(Buffer.alloc(16))),
      pngChunk('IEND', new Uint8Array(0)),
    ]),
  );
}

/** A `.pipit` file from another server with one app (no versions, no data) holding `images`. */
export function pipitFileWithImages(
  images: Array<{ id?: string; contentType?: PortableImageType; bytes: Uint8Array }>,
  title = 'Pictures',
): Uint8Array {
  const doc = new Y.Doc();
  writeDefinition(doc, definitionOf({ title }));
  return writePipitFile({
    origin: 'https://elsewhere.example',
    exportedAt: Date.now(),
    kind: 'app',
    apps: [
      {
        id: createId(),
        title,
        definition: readDefinition(doc),
        versions: [],
        checkpoints: [],
        images: images.map((image) => ({
          id: image.id ?? createId(),
          contentType: image.contentType ?? 'image/png',
          bytes: image.bytes,
        })),
        data: null,
      },
    ],
  });
}

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
