import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  type Collection,
  createVisitorRecord,
  fieldSchema,
  formatFileReference,
  readPipitFile,
  readVisitorData,
  writePipitFile,
} from '@pipit/app-definition';
import { documentName, type SpaceSummary } from '@pipit/protocol';
import type { ApiClient, ApiResponse } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { download, importFile, pngImage } from '../support/portable';
import { createPublishedApp, verifyEmail } from '../support/publishing';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function put(client: ApiClient, path: string, bytes: Uint8Array, kind: string, type: string) {
  return fetch(`${client.baseUrl}${path}/files/${sha(bytes)}?kind=${kind}`, {
    method: 'PUT',
    headers: {
      Origin: client.baseUrl,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': type,
      Cookie: client.cookie!,
    },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}

const plants: Collection = {
  id: 'plants',
  name: 'Plants',
  fields: [
    fieldSchema.parse({ id: 'name', name: 'Name', type: 'text' }),
    fieldSchema.parse({ id: 'photo', name: 'Photo', type: 'image' }),
    fieldSchema.parse({ id: 'sheet', name: 'Sheet', type: 'file' }),
  ],
  records: [],
  sharing: 'private',
  recordRule: 'anyone',
};

/**
 * Photos and files on records travel in the `.pipit` file with the data they belong to (an app's
 * export with the person's data, the account's export with its spaces) and come back with an
 * import, into the importer's own data.
 */
describe('photos and files in the .pipit file', () => {
  let h: AccountsHarness;
  let cleo: ApiClient;
  let appId: string;
  let photo: Uint8Array;
  const sheet = new TextEncoder().encode('%PDF-1.4 watering: twice a week');
  const storage = () => h.pipit.server.storage;
  const idOf = async (client: ApiClient) =>
    (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

  beforeAll(async () => {
    h = await startAccountsServer('sqlite');
    cleo = await h.signup('cleo_pf');
    await verifyEmail(h, cleo);
    appId = await createPublishedApp(h, cleo, { title: 'Plants' });
    photo = await pngImage(600, 400, '#2d7a4f');
    expect((await put(cleo, `/api/apps/${appId}`, photo, 'image', 'image/png')).status).toBe(201);
    expect((await put(cleo, `/api/apps/${appId}`, sheet, 'file', 'application/pdf')).status).toBe(
      201,
    );
    // Her record naming both, as her installed app keeps it.
    const doc = new Y.Doc();
    createVisitorRecord(doc, plants, {
      name: 'Fern',
      photo: formatFileReference({
        hash: sha(photo),
        size: photo.byteLength,
        type: 'image/png',
        name: 'fern.png',
      }),
      sheet: formatFileReference({
        hash: sha(sheet),
        size: sheet.byteLength,
        type: 'application/pdf',
        name: 'care.pdf',
      }),
    });
    await storage().documents.store(
      documentName({ kind: 'data', appId, userId: await idOf(cleo) }),
      Y.encodeStateAsUpdate(doc),
    );
  });
  afterAll(() => h.close());

  it('carries the data’s photos and files, and an import brings them back into the importer’s data', async () => {
    const exported = await download(cleo, `/api/apps/${appId}/export?data=1`);
    expect(exported.status).toBe(200);
    const file = readPipitFile(exported.bytes);
    const [app] = file.manifest.apps;
    expect(app!.files.recordFiles.map((f) => [f.hash, f.kind]).sort()).toEqual(
      [
        [sha(photo), 'image'],
        [sha(sheet), 'file'],
      ].sort(),
    );
    const carried = app!.files.recordFiles.find((f) => f.kind === 'file')!;
    expect(file.recordFile(carried)).toEqual(sheet);
    // Without the data, no photos either.
    const bare = readPipitFile((await download(cleo, `/api/apps/${appId}/export`)).bytes);
    expect(bare.manifest.apps[0]!.files.recordFiles).toEqual([]);

    const dan = await h.signup('dan_pf');
    const imported = await importFile(dan, exported.bytes);
    expect(imported.status).toBe(201);
    const newId = imported.body.apps[0]!.id;
    const scope = documentName({ kind: 'data', appId: newId, userId: await idOf(dan) });
    const data = new Y.Doc();
    Y.applyUpdate(data, (await storage().documents.load(scope))!);
    expect(readVisitorData(data).records.map((r) => r.values.name)).toEqual(['Fern']);
    const thumb = await fetch(`${dan.baseUrl}/api/apps/${newId}/files/${sha(photo)}/thumbnail`, {
      headers: { Cookie: dan.cookie! },
    });
    expect(thumb.status).toBe(200);
    expect((await sharp(new Uint8Array(await thumb.arrayBuffer())).metadata()).width).toBe(320);
    const back = await fetch(`${dan.baseUrl}/api/apps/${newId}/files/${sha(sheet)}`, {
      headers: { Cookie: dan.cookie! },
    });
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(sheet);
    expect(await storage().uploads.totalBytesForUser(await idOf(dan))).toBeGreaterThan(
      sheet.byteLength,
    );
  });

  it('refuses a file whose bytes are not the ones its records name, making nothing', async () => {
    const exported = await download(cleo, `/api/apps/${appId}/export?data=1`);
    // Another file's bytes in the place of the care sheet: the same length, other content.
    const file = readPipitFile(exported.bytes);
    const app = file.manifest.apps[0]!;
    const other = new TextEncoder().encode('%PDF-1.4 watering: never, ever!');
    expect(other.byteLength).toBe(sheet.byteLength);
    const tampered = writePipitFile({
      origin: 'https://elsewhere.example',
      exportedAt: Date.now(),
      kind: 'app',
      apps: [
        {
          id: app.id,
          title: app.title,
          definition: file.definition(app),
          versions: [],
          checkpoints: [],
          images: [],
          data: file.data(app),
          recordFiles: app.files.recordFiles.map((f) => ({
            hash: f.hash,
            kind: f.kind,
            contentType: f.contentType,
            bytes: f.kind === 'file' ? other : file.recordFile(f),
          })),
        },
      ],
    });
    const eve = await h.signup('eve_pf');
    const refused = await importFile(eve, tampered);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(
      'Photo or file 2 of your data in the app “Plants” is damaged. Export the app again.',
    );
    expect((await eve.get<{ apps: unknown[] }>('/api/apps')).body.apps).toEqual([]);
  });

  it('carries a space’s photos in the account’s export', async () => {
    const made = (await cleo.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Greenhouse',
    })) as ApiResponse<{ space: SpaceSummary }>;
    const spaceId = made.body.space.id;
    const leaf = await pngImage(50, 50, '#55aa55');
    expect((await put(cleo, `/api/spaces/${spaceId}`, leaf, 'image', 'image/png')).status).toBe(
      201,
    );
    const file = readPipitFile((await download(cleo, '/api/account/export')).bytes);
    const space = file.manifest.spaces.find((s) => s.id === spaceId)!;
    expect(space.recordFiles.map((f) => f.hash)).toEqual([sha(leaf)]);
    expect((await sharp(file.recordFile(space.recordFiles[0]!)).metadata()).format).toBe('webp');
  });
});
