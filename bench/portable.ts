/**
 * The portable file (docs/product/portable-file.md): how long exporting and importing an app with
 * 2,000 records of the person's data and 20 uploaded images takes, end to end over HTTP on one
 * SQLite server (GET /api/apps/{id}/export?data=1, POST /api/apps/import?copy=1), and how much of
 * that is the file itself (writing and reading the zip). Median of a few runs. Prints figures; not
 * a pass/fail test. Run: npm run bench -- portable   (--quick: fewer runs)
 */
import { performance } from 'node:perf_hooks';
import {
  addComponent,
  createVisitorRecord,
  readDefinition,
  readPipitFile,
  setComponentProps,
  writeDefinition,
  writePipitFile,
} from '@pipit/app-definition';
import { startPipit } from '@pipit/sync-server/testing';
import sharp from 'sharp';
import * as Y from 'yjs';
import { signUp } from '../e2e/support/people';
import { definitionOf } from '../sync-server/test/support/publishing';
import { download, importFile, uploadImage } from '../sync-server/test/support/portable';
import { portableApp } from '../sync-server/src/portable/export';
import { newId } from './big-app';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 3 : 7;
const RECORDS = 2_000;
const IMAGES = 20;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`.padStart(10);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** A photo-like image: noise compresses as badly as photos do, so the file's size is honest. */
async function photo(seed: number): Promise<Uint8Array> {
  const width = 1280;
  const height = 960;
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    pixels[i] = (x >>> 16) & 0xff;
  }
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .blur(1.2)
      .png()
      .toBuffer(),
  );
}

const pipit = await startPipit({ env: { HUMAN_CHECK_DIFFICULTY: '500', LOG_LEVEL: 'warn' } });
try {
  const owner = await signUp(pipit, 'bench_owner');
  const importer = await signUp(pipit, 'bench_importer');
  const storage = pipit.server.storage;

  // The app: the habit tracker, one image component per uploaded image, 2,000 records of the
  // owner's data in its first collection.
  const appId = newId();
  const base = definitionOf({ title: 'Portable bench' });
  const registered = await owner.api.post('/api/apps', { id: appId, title: base.meta.title });
  if (registered.status !== 201) throw new Error(`register: ${JSON.stringify(registered.body)}`);
  const urls: string[] = [];
  for (let i = 0; i < IMAGES; i++) {
    const uploaded = await uploadImage(owner.api, appId, await photo(i + 1));
    if (uploaded.status !== 201) throw new Error(`upload: ${JSON.stringify(uploaded.body)}`);
    urls.push(uploaded.body.url);
  }
  const doc = new Y.Doc();
  writeDefinition(doc, base);
  const screen = readDefinition(doc).screens[0]!.id;
  for (const url of urls) {
    const image = addComponent(doc, newId, screen, 'image');
    setComponentProps(doc, image, { src: url, alt: 'A photo' });
  }
  await storage.documents.store(`app/${appId}`, Y.encodeStateAsUpdate(doc));
  const collection = readDefinition(doc).collections[0]!;
  const text = collection.fields.find((f) => f.type === 'text')!;
  const data = new Y.Doc();
  for (let i = 0; i < RECORDS; i++) {
    createVisitorRecord(data, collection, { [text.id]: `Habit number ${i + 1}` });
  }
  await storage.documents.store(`data/${appId}/${owner.id}`, Y.encodeStateAsUpdate(data));

  const exports: number[] = [];
  let file: Uint8Array = new Uint8Array(0);
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const response = await download(owner.api, `/api/apps/${appId}/export?data=1`);
    exports.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`export: ${response.status}`);
    file = response.bytes;
  }
  const summary = readPipitFile(file).manifest.apps[0]!.files;

  const imports: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const imported = await importFile(importer.api, file, '?copy=1');
    imports.push(performance.now() - started);
    if (imported.status !== 201) throw new Error(`import: ${JSON.stringify(imported.body)}`);
    // Deleted again, so the importer's apps and upload quota stay as they were.
    const id = imported.body.apps[0]!.id;
    await importer.api.request('PUT', `/api/apps/${id}/archived`, { body: { archived: true } });
    await importer.api.request('DELETE', `/api/apps/${id}`);
  }

  // The file alone: the zip written from what the server read, and read back entry by entry.
  const app = await storage.apps.get(appId);
  const portable = await portableApp(
    { storage, clock: { now: () => Date.now() }, logger: pipit.server.logger },
    app!,
    owner.id,
  );
  const writes: number[] = [];
  const reads: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let started = performance.now();
    const bytes = writePipitFile({
      origin: pipit.url,
      exportedAt: Date.now(),
      kind: 'app',
      apps: [portable],
    });
    writes.push(performance.now() - started);
    started = performance.now();
    const read = readPipitFile(bytes);
    const entry = read.manifest.apps[0]!;
    read.definition(entry);
    read.data(entry);
    for (const image of entry.files.images) read.image(entry, image);
    reads.push(performance.now() - started);
  }

  console.log(
    `Portable file on SQLite: one app, ${RECORDS.toLocaleString('en-US')} records of the person's data, ${summary.images.length} images; median of ${RUNS} runs.`,
  );
  console.log(
    `  file: ${mb(file.byteLength)} (images ${mb(summary.images.reduce((s, i) => s + i.bytes, 0))})`,
  );
  console.log(`  export  GET /api/apps/{id}/export?data=1       ${ms(median(exports))}`);
  console.log(`  import  POST /api/apps/import?copy=1           ${ms(median(imports))}`);
  console.log(`  of which the file: write the zip               ${ms(median(writes))}`);
  console.log(`                     read and check every part   ${ms(median(reads))}`);
} finally {
  await pipit.close();
}
