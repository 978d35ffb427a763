import { gunzipSync } from 'node:zlib';
import {
  NOT_A_PIPIT_FILE,
  portableDefinition,
  readDefinition,
  readPipitFile,
  readVisitorData,
  writeDefinition,
  writePipitFile,
} from '@pipit/app-definition';
import { createId, PLAN_LIMITS } from '@pipit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { UPLOAD_QUOTA_BYTES } from '../../src/accounts/profile-service';
import { loadAppDocument } from '../../src/publishing/app-document';
import { ConflictError } from '../../src/storage/types';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES } from '../support/engines';
import { startAccountsServer } from '../support/engines';
import {
  createRichApp,
  download,
  importFile,
  pngImage,
  postRaw,
  type RichApp,
  uploadImage,
  writeRecords,
} from '../support/portable';
import { archiveApp, createApp, definitionOf, verifyEmail, shareApp } from '../support/publishing';

const idOf = async (client: ApiClient) =>
  (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

describe.each(ENGINES)('moving apps between servers (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let bo: ApiClient;
  let cy: ApiClient;
  let dee: ApiClient;
  let adaId: string;
  let boId: string;
  let rich: RichApp;

  const storage = () => h.pipit.server.storage;
  const definitionHere = async (appId: string) => {
    const doc = await loadAppDocument(appId, storage().documents, undefined, h.pipit.server.logger);
    return readDefinition(doc);
  };
  const dataHere = async (appId: string, userId: string) => {
    const doc = new Y.Doc();
    const state = await storage().documents.load(`data/${appId}/${userId}`);
    if (state) Y.applyUpdate(doc, state);
    return readVisitorData(doc);
  };

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_${engine}`);
    bo = await h.signup(`bo_${engine}`);
    cy = await h.signup(`cy_${engine}`);
    dee = await h.signup(`dee_${engine}`);
    adaId = await idOf(ada);
    boId = await idOf(bo);
    rich = await createRichApp(h, ada, 'Garden log', 3);
    // Bo edits it, Cy views it; Bo keeps records of his own in it.
    await verifyEmail(h, ada);
    await shareApp(ada, rich.id, [
      [`bo_${engine}`, 'editor'],
      [`cy_${engine}`, 'viewer'],
    ]);
    await writeRecords(h, bo, rich.id, boId, 2);
  });
  afterAll(() => h.close());

  describe('images of an app', () => {
    it('takes an image from the owner and editors, re-encoded as WebP, served at its url', async () => {
      const png = await pngImage(3000, 1000, '#22aa44');
      const uploaded = await uploadImage(bo, rich.id, png);
      expect(uploaded.status).toBe(201);
      expect(uploaded.body).toMatchObject({ url: `/api/uploads/${uploaded.body.id}` });
      // Scaled down to fit 2048 px, kept as the app's and counted against its owner.
      expect(uploaded.body).toMatchObject({ width: 2048, height: 683 });
      const stored = await storage().uploads.get(uploaded.body.id);
      expect(stored).toMatchObject({ appId: rich.id, userId: adaId, contentType: 'image/webp' });
      const served = await download(ada, uploaded.body.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.bytes).toEqual(stored!.bytes);
    });

    it('refuses viewers, strangers, signed-out callers, other files and oversized ones', async () => {
      const png = await pngImage(10, 10, '#000000');
      const viewer = await uploadImage(cy, rich.id, png);
      expect([viewer.status, errorCode(viewer)]).toEqual([403, 'forbidden']);
      const stranger = await uploadImage(dee, rich.id, png);
      expect([stranger.status, errorCode(stranger)]).toEqual([404, 'not_found']);
      const anonymous = await uploadImage(h.client(), rich.id, png);
      expect([anonymous.status, errorCode(anonymous)]).toEqual([401, 'unauthenticated']);
      const text = await uploadImage(ada, rich.id, new TextEncoder().encode('hello'), 'text/plain');
      expect([text.status, errorCode(text)]).toEqual([415, 'unsupported_media_type']);
      const svg = await uploadImage(
        ada,
        rich.id,
        new TextEncoder().encode('<svg/>'),
        'image/svg+xml',
      );
      expect([svg.status, errorCode(svg)]).toEqual([415, 'unsupported_media_type']);
      const garbage = await uploadImage(ada, rich.id, new Uint8Array(100).fill(7));
      expect([garbage.status, errorCode(garbage)]).toEqual([400, 'validation_failed']);
      const huge = await uploadImage(ada, rich.id, new Uint8Array(5 * 1024 * 1024 + 1));
      expect([huge.status, errorCode(huge)]).toEqual([413, 'payload_too_large']);
    });

    it('counts against the owner’s 20 MB, and goes when the app is deleted', async () => {
      const owner = await h.signup(`eve_${engine}`);
      const ownerId = await idOf(owner);
      const appId = await createApp(h, owner, definitionOf({ title: 'Short-lived' }));
      const kept = await uploadImage(owner, appId, await pngImage(40, 40, '#123456'));
      expect(kept.status).toBe(201);
      // Fill the quota up to a few bytes with an avatar-like upload of hers.
      const used = await storage().uploads.totalBytesForUser(ownerId);
      const filler = createId();
      await storage().uploads.insert({
        id: filler,
        userId: ownerId,
        contentType: 'image/webp',
        bytes: new Uint8Array(UPLOAD_QUOTA_BYTES - used - 10),
        createdAt: Date.now(),
      });
      const over = await uploadImage(owner, appId, await pngImage(40, 40, '#654321'));
      expect([over.status, errorCode(over)]).toEqual([413, 'payload_too_large']);
      expect(over.body.error).toMatchObject({ message: expect.stringMatching(/20 MB/) });
      await storage().uploads.delete(filler);

      await archiveApp(owner, appId);
      expect((await owner.request('DELETE', `/api/apps/${appId}`)).status).toBe(200);
      expect(await storage().uploads.get(kept.body.id)).toBeNull();
      expect((await download(owner, kept.body.url)).status).toBe(404);
    });
  });

  describe('export', () => {
    it('holds the definition, every version and checkpoint, its images and — asked for — my data only', async () => {
      const response = await download(ada, `/api/apps/${rich.id}/export?data=1`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/zip');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="Garden log\.pipit"/,
      );
      const file = readPipitFile(response.bytes);
      expect(file.manifest).toMatchObject({ kind: 'app', origin: h.pipit.url });
      const [app] = file.manifest.apps;
      expect(app).toMatchObject({ id: rich.id, title: 'Garden log' });

      expect(file.definition(app!)).toEqual(portableDefinition(await definitionHere(rich.id)));
      expect(app!.files.versions.map((v) => v.number)).toEqual([1, 2]);
      for (const v of app!.files.versions) {
        const stored = await storage().publishing.version(rich.id, v.number);
        expect(file.version(app!, v)).toEqual(JSON.parse(stored!.definitionJson));
        expect(v.publishedAt).toBe(stored!.publishedAt);
      }
      const checkpoints = await storage().checkpoints.list(rich.id);
      expect(app!.files.checkpoints.map((c) => c.id).sort()).toEqual(
        checkpoints.map((c) => c.id).sort(),
      );
      const named = app!.files.checkpoints.find((c) => c.id === rich.checkpointId)!;
      expect(named).toMatchObject({ kind: 'manual', name: 'Before the blue image' });
      const storedCheckpoint = await storage().checkpoints.definition(rich.id, rich.checkpointId);
      expect(file.checkpoint(app!, named)).toEqual(
        JSON.parse(gunzipSync(storedCheckpoint!).toString('utf8')),
      );

      // Both images the app points at, and the one Bo uploaded (the app's, though unused).
      for (const imageId of rich.imageIds) {
        const image = app!.files.images.find((i) => i.id === imageId)!;
        expect(image.contentType).toBe('image/webp');
        expect(file.image(app!, image)).toEqual((await storage().uploads.get(imageId))!.bytes);
      }
      expect(app!.files.images.length).toBe((await storage().uploads.idsForApp(rich.id)).length);

      // Ada's records, never Bo's.
      const data = file.data(app!)!;
      expect(data.records).toHaveLength(rich.records);
      expect(
        data.records.every((r) => Object.values(r.values).some((v) => String(v).endsWith(adaId))),
      ).toBe(true);
      expect(JSON.stringify(data)).not.toContain(boId);
    });

    it('leaves my data out unless asked, and never gives an editor the owner’s data', async () => {
      const plain = readPipitFile((await download(ada, `/api/apps/${rich.id}/export`)).bytes);
      expect(plain.manifest.apps[0]!.files.data).toBeNull();
      expect(plain.data(plain.manifest.apps[0]!)).toBeNull();

      const edited = await download(bo, `/api/apps/${rich.id}/export?data=1`);
      expect(edited.status).toBe(200);
      const file = readPipitFile(edited.bytes);
      const data = file.data(file.manifest.apps[0]!)!;
      expect(data.records).toHaveLength(2);
      expect(JSON.stringify(data)).toContain(boId);
      expect(JSON.stringify(data)).not.toContain(adaId);
    });

    it('refuses viewers, strangers and signed-out callers; a bad query is a 400', async () => {
      const viewer = await download(cy, `/api/apps/${rich.id}/export`);
      expect([viewer.status, (viewer.json as { error: { code: string } }).error.code]).toEqual([
        403,
        'forbidden',
      ]);
      expect((await download(dee, `/api/apps/${rich.id}/export`)).status).toBe(404);
      expect((await download(h.client(), `/api/apps/${rich.id}/export`)).status).toBe(401);
      expect((await download(ada, `/api/apps/${rich.id}/export?data=yes`)).status).toBe(400);
    });
  });

  describe('import', () => {
    let file: Uint8Array;
    let firstId: string;
    beforeAll(async () => {
      file = (await download(ada, `/api/apps/${rich.id}/export?data=1`)).bytes;
    });

    it('recreates the app for another person here, with new ids where they are taken', async () => {
      const deeId = await idOf(dee);
      const imported = await importFile(dee, file);
      expect(imported.status).toBe(201);
      const [made] = imported.body.apps;
      firstId = made!.id;
      // The app and its images exist here already: new ids, reported; urls follow.
      expect(made).toMatchObject({ sourceId: rich.id, title: 'Garden log', records: rich.records });
      expect(firstId).not.toBe(rich.id);
      expect(imported.body.report.remapped.apps).toEqual({ [rich.id]: firstId });
      const images = imported.body.report.remapped.images;
      expect(Object.keys(images).sort()).toEqual(
        readPipitFile(file)
          .manifest.apps[0]!.files.images.map((i) => i.id)
          .sort(),
      );
      // Checkpoint ids are each app's own: the file's are kept, though the original
      // app here holds them too.
      expect(imported.body.report.remapped.checkpoints).toBe(0);
      expect(imported.body.report.notes.join(' ')).toMatch(/not published here/);

      const app = await storage().apps.getWithRole(firstId, deeId);
      expect(app).toMatchObject({
        role: 'owner',
        app: { title: 'Garden log', publishedVersion: null },
      });
      const original = await definitionHere(rich.id);
      const copy = await definitionHere(firstId);
      const rewritten = JSON.parse(
        JSON.stringify(original).replace(
          /\/api\/uploads\/([a-z2-7]{26})/g,
          (_, id: string) => `/api/uploads/${images[id] ?? id}`,
        ),
      ) as unknown;
      expect(copy).toEqual(rewritten);
      expect(copy.meta.icon).toEqual({
        kind: 'image',
        url: `/api/uploads/${images[rich.imageIds[0]!]}`,
      });
      for (const [oldId, newId] of Object.entries(images)) {
        const before = await storage().uploads.get(oldId);
        const after = await storage().uploads.get(newId);
        expect(after).toMatchObject({ appId: firstId, userId: deeId });
        expect(after!.bytes).toEqual(before!.bytes);
      }
      expect((await storage().publishing.versions(firstId)).map((v) => v.number)).toEqual([2, 1]);
      const version = await storage().publishing.version(firstId, 2);
      expect(JSON.parse(version!.definitionJson)).toEqual(
        JSON.parse(
          (await storage().publishing.version(rich.id, 2))!.definitionJson.replace(
            /\/api\/uploads\/([a-z2-7]{26})/g,
            (_, id: string) => `/api/uploads/${images[id] ?? id}`,
          ),
        ),
      );
      const checkpoints = await storage().checkpoints.list(firstId);
      expect(checkpoints.map((c) => c.name)).toContain('Before the blue image');
      expect(checkpoints.map((c) => c.id)).toEqual(
        expect.arrayContaining(
          readPipitFile(file).manifest.apps[0]!.files.checkpoints.map((c) => c.id),
        ),
      );
      expect(checkpoints.every((c) => c.createdBy === null && c.authorIds.length === 0)).toBe(true);
      // Ada's records are now Dee's, in Dee's data; Ada's own are untouched.
      expect((await dataHere(firstId, deeId)).records.map((r) => r.values)).toEqual(
        (await dataHere(rich.id, adaId)).records.map((r) => r.values),
      );
      expect(
        (await dee.get<{ apps: Array<{ id: string }> }>('/api/apps')).body.apps.map((a) => a.id),
      ).toContain(firstId);
    });

    it('answers a second import of the same file with the app it made; a copy on request', async () => {
      const again = await importFile(dee, file);
      expect([again.status, errorCode(again)]).toEqual([409, 'already_imported']);
      expect(again.body.error).toMatchObject({
        appId: firstId,
        message: expect.stringMatching(/imported “Garden log” from this file already/),
      });
      const before = (await dee.get<{ apps: unknown[] }>('/api/apps')).body.apps.length;
      const copy = await importFile(dee, file, '?copy=1');
      expect(copy.status).toBe(201);
      expect(copy.body.apps[0]!.id).not.toBe(firstId);
      expect((await dee.get<{ apps: unknown[] }>('/api/apps')).body.apps.length).toBe(before + 1);
      // A third import still points at the first.
      expect((await importFile(dee, file)).body.error?.appId).toBe(firstId);
    });

    it('tells the owner the app is already here when they bring its file back', async () => {
      const back = await importFile(ada, file);
      expect([back.status, errorCode(back)]).toEqual([409, 'already_imported']);
      expect(back.body.error?.appId).toBe(rich.id);
    });

    it('keeps the file’s ids when they are free here', async () => {
      const doc = new Y.Doc();
      writeDefinition(doc, definitionOf({ title: 'Fresh ids' }));
      const appId = createId();
      const checkpointId = createId();
      const bytes = writePipitFile({
        origin: 'https://elsewhere.example',
        exportedAt: Date.now(),
        kind: 'app',
        apps: [
          {
            id: appId,
            title: 'Fresh ids',
            definition: readDefinition(doc),
            versions: [],
            checkpoints: [
              {
                id: checkpointId,
                kind: 'auto',
                name: null,
                version: null,
                createdAt: 1,
                changes: null,
                definition: readDefinition(doc),
              },
            ],
            images: [],
            data: null,
          },
        ],
      });
      const imported = await importFile(bo, bytes);
      expect(imported.status).toBe(201);
      expect(imported.body.apps[0]!.id).toBe(appId);
      expect(imported.body.report.remapped).toEqual({ apps: {}, images: {}, checkpoints: 0 });
      expect((await storage().checkpoints.get(appId, checkpointId))?.changesJson).toMatch(
        /Changes not recorded/,
      );
    });

    it('encodes every image of a file again, as an upload is, and refuses a non-image', async () => {
      const stored = (await storage().uploads.get(rich.imageIds[0]!))!.bytes;
      const png = await pngImage(30, 20, '#aabbcc');
      const trailing = new Uint8Array([...stored, 60, 104, 116, 109, 108, 62]);
      const fileWith = (
        images: Array<{ id: string; contentType: 'image/webp' | 'image/png'; bytes: Uint8Array }>,
      ) => {
        const doc = new Y.Doc();
        writeDefinition(doc, definitionOf({ title: 'Pictures' }));
        return writePipitFile({
          origin: 'https://elsewhere.example',
          exportedAt: Date.now(),
          kind: 'app',
          apps: [
            {
              id: createId(),
              title: 'Pictures',
              definition: readDefinition(doc),
              versions: [],
              checkpoints: [],
              images,
              data: null,
            },
          ],
        });
      };
      const ids = [createId(), createId(), createId()];
      const imported = await importFile(
        bo,
        fileWith([
          { id: ids[0]!, contentType: 'image/webp', bytes: stored },
          { id: ids[1]!, contentType: 'image/png', bytes: png },
          { id: ids[2]!, contentType: 'image/webp', bytes: trailing },
        ]),
      );
      expect(imported.status).toBe(201);
      const [same, fromPng, cleaned] = await Promise.all(
        ids.map((id) => storage().uploads.get(id)),
      );
      // A Pipit-made image is encoded again too: one of one colour comes out the same.
      expect(same!.contentType).toBe('image/webp');
      expect(same!.bytes).toEqual(stored);
      expect(fromPng!.contentType).toBe('image/webp');
      expect(fromPng!.bytes).not.toEqual(png);
      expect(cleaned!.bytes).not.toEqual(trailing);
      expect(Buffer.from(cleaned!.bytes).includes(Buffer.from('<html>'))).toBe(false);

      const notAnImage = await importFile(
        bo,
        fileWith([{ id: createId(), contentType: 'image/png', bytes: new Uint8Array(64).fill(9) }]),
      );
      expect([notAnImage.status, errorCode(notAnImage)]).toEqual([400, 'validation_failed']);
      expect(notAnImage.body.error?.message).toMatch(/^Image 1 of the app “[^”]+” cannot be read/);
    });

    it('refuses broken, foreign and oversized files with a message, making nothing', async () => {
      const count = async () => (await bo.get<{ apps: unknown[] }>('/api/apps')).body.apps.length;
      const before = await count();
      // What is not Pipit's is refused in the words /create's own check uses.
      const notOurs = NOT_A_PIPIT_FILE;
      const cases: Array<[Uint8Array, string, number, RegExp | string]> = [
        [new TextEncoder().encode('{"format":"pipit-app"}'), 'application/zip', 400, notOurs],
        [new TextEncoder().encode('Just some notes'), 'application/zip', 400, notOurs],
        [file.slice(0, file.length / 2), 'application/zip', 400, /isn’t a Pipit file|damaged/],
        [new Uint8Array(0), 'application/zip', 400, /Send a \.pipit file/],
      ];
      for (const [bytes, type, status, message] of cases) {
        const refused = await postRaw(bo, '/api/apps/import', bytes, type);
        expect(refused.status).toBe(status);
        const said = (refused.body as { error: { message: string } }).error.message;
        if (typeof message === 'string') expect(said).toBe(message);
        else expect(said).toMatch(message);
      }
      const json = await postRaw(bo, '/api/apps/import', file, 'application/json');
      expect([json.status, errorCode(json)]).toEqual([415, 'unsupported_media_type']);
      const huge = await postRaw(
        bo,
        '/api/apps/import',
        new Uint8Array(64 * 1024 * 1024 + 1),
        'application/zip',
      );
      expect([huge.status, errorCode(huge)]).toEqual([413, 'payload_too_large']);
      // A file whose definition breaks a rule: the whole file is refused.
      const broken = writePipitFile({
        origin: 'x',
        exportedAt: Date.now(),
        kind: 'app',
        apps: [
          {
            id: createId(),
            title: 'Broken',
            definition: { ...definitionOf({ title: 'Broken' }), screens: [] },
            versions: [],
            checkpoints: [],
            images: [],
            data: null,
          },
        ],
      });
      const invalid = await importFile(bo, broken);
      expect([invalid.status, errorCode(invalid)]).toEqual([400, 'validation_failed']);
      expect(invalid.body.error?.message).toMatch(/at least one screen/);
      const signedOut = await importFile(h.client(), file);
      expect(signedOut.status).toBe(401);
      expect(await count()).toBe(before);
    });

    it('applies the plan: apps per person and the upload quota', async () => {
      const full = await h.signup(`full_${engine}`);
      for (let i = 0; i < PLAN_LIMITS.apps; i++) {
        expect((await full.post('/api/apps', { id: createId(), title: `App ${i}` })).status).toBe(
          201,
        );
      }
      const limited = await importFile(full, file);
      expect([limited.status, errorCode(limited)]).toEqual([403, 'limit_reached']);

      const tight = await h.signup(`tight_${engine}`);
      await storage().uploads.insert({
        id: createId(),
        userId: await idOf(tight),
        contentType: 'image/webp',
        bytes: new Uint8Array(UPLOAD_QUOTA_BYTES - 100),
        createdAt: Date.now(),
      });
      const quota = await importFile(tight, file);
      expect([quota.status, errorCode(quota)]).toEqual([403, 'limit_reached']);
      expect(quota.body.error?.message).toMatch(/20 MB/);
      expect((await tight.get<{ apps: unknown[] }>('/api/apps')).body.apps).toEqual([]);
    });

    it('writes an import all at once: a failure half-way leaves no app, document, version or image', async () => {
      const taken = (await storage().uploads.idsForApp(rich.id))[0]!;
      const doc = new Y.Doc();
      writeDefinition(doc, definitionOf({ title: 'Half' }));
      const first = createId();
      const second = createId();
      const app = (id: string, imageId: string) => ({
        id,
        ownerId: boId,
        title: 'Half',
        description: '',
        icon: null,
        tags: [],
        createdAt: Date.now(),
        source: { appId: id, exportId: createId(), origin: 'x' },
        documents: [{ name: `app/${id}`, state: Y.encodeStateAsUpdate(doc) }],
        versions: [
          {
            number: 1,
            definitionJson: '{}',
            listing: { title: 'Half', description: '', icon: null, tags: ['a'] },
            publishedAt: 1,
          },
        ],
        checkpoints: [],
        images: [{ id: imageId, contentType: 'image/webp', bytes: new Uint8Array([1]) }],
      });
      const fresh = createId();
      // The second app's image id is taken (as if uploaded a moment before): it fails last.
      await expect(
        storage().portable.commitImport([app(first, fresh), app(second, taken)], Date.now(), {
          quotaBytes: UPLOAD_QUOTA_BYTES,
          maxApps: 25,
        }),
      ).rejects.toBeInstanceOf(ConflictError);
      for (const id of [first, second]) {
        expect(await storage().apps.get(id)).toBeNull();
        expect(await storage().apps.wasDeleted(id)).toBe(false);
        expect(await storage().documents.load(`app/${id}`)).toBeNull();
        expect(await storage().publishing.version(id, 1)).toBeNull();
      }
      expect(await storage().uploads.get(fresh)).toBeNull();
      expect((await storage().portable.takenAppIds([first, second])).size).toBe(0);
    });
  });

  describe('account export', () => {
    it('is a .pipit file with the account’s JSON and every app I own, with my data', async () => {
      const mine = await createApp(h, bo, definitionOf({ title: 'Bo’s own' }));
      await writeRecords(h, bo, mine, boId, 1);
      const response = await download(bo, '/api/account/export');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="pipit-bo_${engine}-\\d{4}-\\d{2}-\\d{2}\\.pipit"`),
      );
      const file = readPipitFile(response.bytes);
      expect(file.manifest.kind).toBe('account');
      expect(file.account()).toMatchObject({
        format: 'pipit-account',
        account: { username: `bo_${engine}` },
      });
      expect(JSON.stringify(file.account())).not.toMatch(/argon2|secret_hash|secretHash/);
      const owned = (await storage().apps.listForUser(boId)).filter((a) => a.role === 'owner');
      expect(file.manifest.apps.map((a) => a.id).sort()).toEqual(owned.map((a) => a.id).sort());
      // The app Bo edits is Ada's: not in his account's file.
      expect(file.manifest.apps.map((a) => a.id)).not.toContain(rich.id);
      const own = file.manifest.apps.find((a) => a.id === mine)!;
      expect(file.data(own)!.records).toHaveLength(1);
      expect(JSON.stringify(file.data(own))).not.toContain(adaId);
    });
  });
});
