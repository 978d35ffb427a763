import { gunzipSync } from 'node:zlib';
import { readDefinition, readPipitFile, readVisitorData } from '@pipit/app-definition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { loadAppDocument } from '../../src/publishing/app-document';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { createRichApp, download, importFile, type RichApp } from '../support/portable';

/**
 * Everything a server holds of an app that a `.pipit` file carries, read from its storage, in a
 * form two servers can be compared by: definition, versions, checkpoints, images, the person's data.
 */
async function snapshot(h: AccountsHarness, appId: string, userId: string) {
  const storage = h.pipit.server.storage;
  const doc = await loadAppDocument(appId, storage.documents, undefined, h.pipit.server.logger);
  const versions = [];
  for (const { number } of await storage.publishing.versions(appId)) {
    const v = (await storage.publishing.version(appId, number))!;
    versions.push({
      number,
      publishedAt: v.publishedAt,
      definition: JSON.parse(v.definitionJson) as unknown,
      listing: { title: v.title, description: v.description, icon: v.icon, tags: v.tags },
    });
  }
  const checkpoints = [];
  for (const c of await storage.checkpoints.list(appId)) {
    const bytes = (await storage.checkpoints.definition(appId, c.id))!;
    checkpoints.push({
      id: c.id,
      kind: c.kind,
      name: c.name,
      createdAt: c.createdAt,
      changes: JSON.parse(c.changesJson) as unknown,
      definition: JSON.parse(gunzipSync(bytes).toString('utf8')) as unknown,
    });
  }
  const images = [];
  for (const id of await storage.uploads.idsForApp(appId)) {
    const upload = (await storage.uploads.get(id))!;
    images.push({
      id,
      contentType: upload.contentType,
      bytes: Buffer.from(upload.bytes).toString('base64'),
    });
  }
  const data = new Y.Doc();
  const state = await storage.documents.load(`data/${appId}/${userId}`);
  if (state) Y.applyUpdate(data, state);
  return {
    definition: readDefinition(doc),
    versions,
    checkpoints,
    images: images.sort((a, b) => a.id.localeCompare(b.id)),
    data: readVisitorData(data),
  };
}

const idOf = async (client: ApiClient) =>
  (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

/**
 * Two separately started servers, one on SQLite and one on PostgreSQL, each with its own
 * database: an account's apps exported from the first and imported into the second are the same
 * apps there — definitions, versions, checkpoints, image bytes and the person's records.
 */
describe('a round trip from a SQLite server to a PostgreSQL server', () => {
  let source: AccountsHarness;
  let target: AccountsHarness;
  let ada: ApiClient;
  let adaThere: ApiClient;
  let apps: RichApp[];

  beforeAll(async () => {
    [source, target] = await Promise.all([
      startAccountsServer('sqlite'),
      startAccountsServer('postgres'),
    ]);
    ada = await source.signup('ada');
    adaThere = await target.signup('ada_moved');
    apps = [
      await createRichApp(source, ada, 'Garden log', 5),
      await createRichApp(source, ada, 'Reading list', 1),
    ];
  });
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('recreates every app with the same ids, history, images and data', async () => {
    expect(source.pipit.server.storage.engine).toBe('sqlite');
    expect(target.pipit.server.storage.engine).toBe('postgres');
    const exported = await download(ada, '/api/account/export');
    expect(exported.status).toBe(200);
    const file = readPipitFile(exported.bytes);
    expect(file.manifest.apps.map((a) => a.id)).toEqual(apps.map((a) => a.id));

    const imported = await importFile(adaThere, exported.bytes);
    expect(imported.status).toBe(201);
    // Nothing of these ids exists on the second server: every one is kept.
    expect(imported.body.report.remapped).toEqual({ apps: {}, images: {}, checkpoints: 0 });
    expect(imported.body.apps.map((a) => [a.id, a.records])).toEqual(
      apps.map((a) => [a.id, a.records]),
    );

    const [adaId, adaThereId] = [await idOf(ada), await idOf(adaThere)];
    for (const app of apps) {
      const before = await snapshot(source, app.id, adaId);
      const after = await snapshot(target, app.id, adaThereId);
      expect(after.definition).toEqual(before.definition);
      expect(after.versions).toEqual(before.versions);
      // Every checkpoint came, and the import itself is the newest: the app as it arrived.
      const [arrived, ...kept] = after.checkpoints;
      expect(kept).toEqual(before.checkpoints);
      expect(arrived).toMatchObject({ kind: 'import', name: 'Imported from a file' });
      expect(arrived!.definition).toEqual(before.definition);
      // Images are encoded again on import, as uploads are: these, of one colour each,
      // come out byte for byte the same.
      expect(after.images).toEqual(before.images);
      expect(after.images.length).toBeGreaterThanOrEqual(2);
      expect(after.data).toEqual(before.data);
      expect(after.data.records).toHaveLength(app.records);
      // The same person's data moved: the records' values name the source account.
      expect(JSON.stringify(after.data)).toContain(adaId);
    }
  });

  it('exports from the second server what the first one did', async () => {
    const first = readPipitFile((await download(ada, '/api/account/export')).bytes);
    const second = readPipitFile((await download(adaThere, '/api/account/export')).bytes);
    expect(second.manifest.origin).toBe(target.pipit.url);
    expect(second.manifest.exportId).not.toBe(first.manifest.exportId);
    const strip = (f: typeof first) =>
      f.manifest.apps.map((app) => ({
        ...app,
        definition: f.definition(app),
        versions: app.files.versions.map((v) => f.version(app, v)),
        checkpoints: app.files.checkpoints.map((c) => f.checkpoint(app, c)),
        images: app.files.images.map((i) => Buffer.from(f.image(app, i)).toString('base64')),
        data: f.data(app),
      }));
    // The second server's file has one more checkpoint per app, its import; the rest is the same.
    const [again, ...others] = strip(second).map((app) => {
      // Files list checkpoints oldest first: the import is the last.
      expect(app.files.checkpoints.at(-1)).toMatchObject({ kind: 'import' });
      return {
        ...app,
        checkpoints: app.checkpoints.slice(0, -1),
        files: { ...app.files, checkpoints: app.files.checkpoints.slice(0, -1) },
      };
    });
    expect([again, ...others]).toEqual(strip(first));
  });
});
