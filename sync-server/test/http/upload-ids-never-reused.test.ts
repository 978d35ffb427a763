import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readPipitFile, setMeta, writeDefinition, writePipitFile } from '@pipit/app-definition';
import { createId, uploadUrl } from '@pipit/protocol';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { download, importFile, pngImage, postRaw, uploadImage } from '../support/portable';
import {
  archiveApp,
  createApp,
  definitionOf,
  editDocument,
  publish,
  verifyEmail,
} from '../support/publishing';
import { storageBefore } from '../support/migrated-database';

/**
 * Found by a review: an import kept an image's id whenever `uploads` had no row of it
 * (storage.portable.takenUploadIds looked only at live rows), and a deleted upload leaves none —
 * deleting an app deletes its images, a new avatar deletes the old one. A remix keeps its
 * original's image urls, so once the original was deleted anyone could import a `.pipit` file
 * holding an image of that id and have `/api/uploads/{id}` — the remix's published icon — serve
 * their picture (cached `immutable` for a year). Every upload id ever stored is now registered
 * (`upload_ids`, migration 0018) and an import gives an id used here once a new one, as it does
 * an id someone else holds.
 */

/** A file from elsewhere: one app whose icon is its one image, of that id. */
function fileWithIcon(imageId: string, bytes: Uint8Array, title = 'Mine'): Uint8Array {
  const definition = definitionOf({ title, icon: { kind: 'image', url: uploadUrl(imageId) } });
  return writePipitFile({
    origin: 'https://elsewhere.example',
    exportedAt: Date.now(),
    kind: 'app',
    apps: [
      {
        id: createId(),
        title,
        definition,
        versions: [],
        checkpoints: [],
        images: [{ id: imageId, contentType: 'image/png', bytes }],
        data: null,
      },
    ],
  });
}

/** The first pixel's colour of what `/api/uploads/…` serves, or its status when not 200. */
async function servedColour(h: AccountsHarness, url: string): Promise<number[] | number> {
  const served = await fetch(`${h.pipit.url}${url}`);
  if (served.status !== 200) return served.status;
  const { data } = await sharp(new Uint8Array(await served.arrayBuffer()))
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [data[0]!, data[1]!, data[2]!];
}

const RED = [255, 0, 0];

describe.each(ENGINES)('a deleted upload’s id is never given to an import (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;
  let mallory: ApiClient;
  let red: Uint8Array;

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_ur_${engine}`);
    ben = await h.signup(`ben_ur_${engine}`);
    mallory = await h.signup(`mal_ur_${engine}`);
    await verifyEmail(h, ada);
    await verifyEmail(h, ben);
    red = await pngImage(64, 64, '#ff0000');
  });
  afterAll(() => h.close());

  it('a remix of a deleted app keeps its icon’s url, and an import cannot take it over', async () => {
    // Ada's app, with an uploaded icon, published; Ben's published remix keeps the icon's url.
    const original = await createApp(h, ada, definitionOf({ title: 'Bakery' }));
    const uploaded = await uploadImage(ada, original, await pngImage(64, 64, '#22aa22'));
    expect(uploaded.status).toBe(201);
    const iconUrl = uploaded.body.url;
    const id = uploaded.body.id;
    await editDocument(h, ada, original, (doc) =>
      setMeta(doc, { icon: { kind: 'image', url: iconUrl } }),
    );
    expect((await publish(ada, original, 'public')).status).toBe(201);
    const version = (await ben.get<{ version: number }>(`/api/published/${original}`)).body.version;
    const remix = createId();
    const registered = await ben.post('/api/apps', {
      id: remix,
      title: 'Bakery (remix)',
      forkedFrom: { appId: original, version },
    });
    expect(registered.status).toBe(201);
    await editDocument(h, ben, remix, (doc) =>
      writeDefinition(
        doc,
        definitionOf({ title: 'Bakery (remix)', icon: { kind: 'image', url: iconUrl } }),
      ),
    );
    expect((await publish(ben, remix, 'public')).status).toBe(201);

    // Ada deletes her app: its images go with it; the remix still points at the icon.
    await archiveApp(ada, original);
    expect((await ada.request('DELETE', `/api/apps/${original}`)).status).toBe(200);
    expect(await servedColour(h, iconUrl)).toBe(404);

    // Mallory imports a file holding an image of that id, as her app's icon: it gets a new id,
    // and her app points at it.
    const imported = await importFile(mallory, fileWithIcon(id, red));
    expect(imported.status).toBe(201);
    const newId = imported.body.report.remapped.images[id];
    expect(newId).toBeDefined();
    expect(newId).not.toBe(id);
    const hers = await h.pipit.server.storage.apps.get(imported.body.apps[0]!.id);
    expect(hers?.icon).toEqual({ kind: 'image', url: uploadUrl(newId!) });
    expect(await servedColour(h, uploadUrl(newId!))).toEqual(RED);

    // The old url serves nothing, and Ben's published remix shows no one else's picture.
    expect(await servedColour(h, iconUrl)).toBe(404);
    const remixPage = await h
      .client()
      .get<{ icon: { url?: string } | null }>(`/api/published/${remix}`);
    expect(remixPage.body.icon).toMatchObject({ url: iconUrl });
    expect(await servedColour(h, remixPage.body.icon!.url!)).toBe(404);
  });

  it('a replaced avatar’s id is taken too', async () => {
    const avatar = async (colour: string) => {
      const answer = await postRaw<{ account: { avatar: { url: string } } }>(
        ben,
        '/api/account/avatar',
        await pngImage(32, 32, colour),
        'image/png',
      );
      expect(answer.status).toBe(200);
      return answer.body.account.avatar.url;
    };
    const first = await avatar('#00ff00');
    await avatar('#0000ff');
    expect(await servedColour(h, first)).toBe(404);
    const id = first.split('/').at(-1)!;

    const imported = await importFile(mallory, fileWithIcon(id, red, 'Avatar'));
    expect(imported.status).toBe(201);
    expect(imported.body.report.remapped.images[id]).toBeDefined();
    expect(await servedColour(h, first)).toBe(404);
  });

  it('a file brought back after its app was deleted imports whole, with new ids', async () => {
    const appId = await createApp(h, ada, definitionOf({ title: 'Round trip' }));
    const uploaded = await uploadImage(ada, appId, await pngImage(40, 40, '#ff0000'));
    expect(uploaded.status).toBe(201);
    await editDocument(h, ada, appId, (doc) =>
      setMeta(doc, { icon: { kind: 'image', url: uploaded.body.url } }),
    );
    const file = (await download(ada, `/api/apps/${appId}/export`)).bytes;
    expect(readPipitFile(file).manifest.apps[0]!.files.images.map((i) => i.id)).toEqual([
      uploaded.body.id,
    ]);
    await archiveApp(ada, appId);
    expect((await ada.request('DELETE', `/api/apps/${appId}`)).status).toBe(200);

    const back = await importFile(ada, file);
    expect(back.status).toBe(201);
    const { apps, images } = back.body.report.remapped;
    expect(Object.keys(apps)).toEqual([appId]);
    expect(Object.keys(images)).toEqual([uploaded.body.id]);
    const here = await h.pipit.server.storage.apps.get(apps[appId]!);
    expect(here?.icon).toEqual({ kind: 'image', url: uploadUrl(images[uploaded.body.id]!) });
    expect(await servedColour(h, uploadUrl(images[uploaded.body.id]!))).toEqual(RED);
  });
});

const UPLOAD_IDS = '0018_upload_ids';

/**
 * A database from before upload ids were registered: its uploads are registered, and so are the
 * ids of deleted uploads that published versions and apps' icons still point at — the ones an
 * import could otherwise take over.
 */
describe.each(ENGINES)(`migration ${UPLOAD_IDS} on %s`, (engine) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const databaseBefore = (seed: (db: Kysely<unknown>) => Promise<void>) =>
    storageBefore(engine, UPLOAD_IDS, seed, cleanups);

  it('registers every upload, and the deleted ones versions and icons point at', async () => {
    const live = createId();
    const inIcon = createId();
    const inFirstVersion = createId();
    const inLastVersion = createId();
    const storage = await databaseBefore(async (db) => {
      await sql`
        INSERT INTO users (id, username, email, password_hash, avatar, created_at)
        VALUES ('u1', 'ada', 'ada@example.org', 'x', '{"kind":"emoji","emoji":"🐦","color":"#1a7f5a"}', 1)
      `.execute(db);
      await sql`
        INSERT INTO uploads (id, user_id, content_type, bytes, size, created_at)
        VALUES (${live}, 'u1', 'image/webp', ${new Uint8Array([1, 2, 3])}, 3, 7)
      `.execute(db);
      const icon = JSON.stringify({ kind: 'image', url: uploadUrl(inIcon) });
      await sql`INSERT INTO app_ids (id, owner_id, registered_at) VALUES ('a1', 'u1', 1)`.execute(
        db,
      );
      await sql`
        INSERT INTO apps (id, owner_id, title, icon, created_at, updated_at)
        VALUES ('a1', 'u1', 'Remix', ${icon}, 1, 1)
      `.execute(db);
      // More versions than the migration reads at once: the last page is read too.
      for (let n = 1; n <= 205; n++) {
        const url = n === 1 ? uploadUrl(inFirstVersion) : n === 205 ? uploadUrl(inLastVersion) : '';
        const definition = JSON.stringify({ meta: { title: 'Remix' }, src: url || undefined });
        await sql`
          INSERT INTO app_versions (app_id, number, definition, publisher_id, published_at, title, description, icon, tags, search_text)
          VALUES ('a1', ${n}, ${definition}, 'u1', ${n}, 'Remix', '', null, '[]', 'remix')
        `.execute(db);
      }
    });

    expect(await storage.appliedMigrations()).toEqual(MIGRATION_NAMES);
    const fresh = createId();
    expect(
      await storage.portable.takenUploadIds([live, inIcon, inFirstVersion, inLastVersion, fresh]),
    ).toEqual(new Set([live, inIcon, inFirstVersion, inLastVersion]));
    expect((await storage.uploads.get(live))?.bytes).toEqual(new Uint8Array([1, 2, 3]));
  });
});
