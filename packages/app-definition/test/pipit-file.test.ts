import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { createId } from '@pipit/protocol';
import { describe, expect, it } from 'vitest';
import {
  addComponent,
  createApp,
  type AppDefinition,
  DefinitionError,
  exportDefinition,
  NOT_A_PIPIT_FILE,
  parseImport,
  PipitFileError,
  PORTABLE_LIMITS,
  portableDefinition,
  readDefinition,
  readPipitFile,
  readVisitorData,
  rewriteUploadUrls,
  setComponentProps,
  setMeta,
  uploadIdsIn,
  withoutUploads,
  writePipitFile,
  writeDefinition,
  writeVisitorData,
  type PipitManifest,
  type PortableApp,
} from '../src/index';
import { idFactory, newDoc } from './support';

const imageId = createId();
const pixels = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4, 87, 69, 66, 80]);

function sampleApp(): PortableApp {
  const doc = newDoc();
  const newId = idFactory();
  const home = createApp(doc, newId, { title: 'Garden log' });
  const image = addComponent(doc, newId, home, 'image');
  setComponentProps(doc, image, { src: `/api/uploads/${imageId}`, alt: 'Tomatoes' });
  setMeta(doc, { icon: { kind: 'image', url: `/api/uploads/${imageId}` } });
  const definition = readDefinition(doc);
  return {
    id: createId(),
    title: 'Garden log',
    definition,
    versions: [{ number: 1, publishedAt: 1_700_000_000_000, definition }],
    checkpoints: [
      {
        id: createId(),
        kind: 'manual',
        name: 'Before spring',
        version: null,
        createdAt: 1_700_000_000_500,
        changes: { counts: {}, names: [], summary: 'No changes', first: true },
        definition,
      },
    ],
    images: [{ id: imageId, contentType: 'image/webp', bytes: pixels }],
    data: {
      records: [
        {
          id: 'r1',
          collectionId: 'plants',
          values: { name: 'Basil', watered: true, height: 12 },
          createdAt: 10,
          updatedAt: 20,
        },
      ],
      counters: { c1: 3 },
    },
  };
}

/** The offset of the first central-directory header in a zip. */
function centralHeader(bytes: Uint8Array, nth = 0): number {
  let seen = 0;
  for (let at = 0; at < bytes.length - 4; at++) {
    if (
      bytes[at] === 0x50 &&
      bytes[at + 1] === 0x4b &&
      bytes[at + 2] === 1 &&
      bytes[at + 3] === 2
    ) {
      if (seen++ === nth) return at;
    }
  }
  throw new Error('no central directory');
}

const setU32 = (bytes: Uint8Array, at: number, value: number) =>
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(at, value, true);

const failure = (bytes: Uint8Array): string => {
  try {
    const file = readPipitFile(bytes);
    for (const app of file.manifest.apps) {
      file.definition(app);
      file.data(app);
      for (const image of app.files.images) file.image(app, image);
    }
  } catch (error) {
    expect(error).toBeInstanceOf(PipitFileError);
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as Error).message;
  }
  throw new Error('the file was read');
};

describe('the .pipit file', () => {
  it('round-trips an app: definition, versions, checkpoints, images byte for byte, data', () => {
    const app = sampleApp();
    const bytes = writePipitFile({
      origin: 'https://pipit.example.org',
      exportedAt: Date.UTC(2025, 0, 2),
      kind: 'app',
      apps: [app],
    });
    const file = readPipitFile(bytes);
    expect(file.manifest).toMatchObject({
      format: 'pipit-file',
      version: 1,
      origin: 'https://pipit.example.org',
      exportedAt: '2025-01-02T00:00:00.000Z',
      kind: 'app',
      account: null,
    });
    const [entry] = file.manifest.apps;
    expect(entry).toMatchObject({ id: app.id, title: 'Garden log' });
    expect(entry!.files.images).toEqual([
      {
        id: imageId,
        contentType: 'image/webp',
        bytes: pixels.byteLength,
        file: `apps/${app.id}/images/${imageId}.webp`,
      },
    ]);
    expect(file.definition(entry!)).toEqual(app.definition);
    expect(file.version(entry!, entry!.files.versions[0]!)).toEqual(app.definition);
    expect(file.checkpoint(entry!, entry!.files.checkpoints[0]!)).toEqual(app.definition);
    expect(entry!.files.checkpoints[0]).toMatchObject({ name: 'Before spring', kind: 'manual' });
    expect(file.image(entry!, entry!.files.images[0]!)).toEqual(pixels);
    expect(file.data(entry!)).toEqual(app.data);
    expect(file.account()).toBeNull();
  });

  it('leaves the data out when there is none, and carries an account’s JSON', () => {
    const app = { ...sampleApp(), data: null };
    const file = readPipitFile(
      writePipitFile({
        origin: 'http://localhost:8080',
        exportedAt: 0,
        kind: 'account',
        account: { format: 'pipit-account', account: { username: 'ada' } },
        apps: [app],
      }),
    );
    expect(file.manifest.apps[0]!.files.data).toBeNull();
    expect(file.data(file.manifest.apps[0]!)).toBeNull();
    expect(file.account()).toEqual({ format: 'pipit-account', account: { username: 'ada' } });
  });

  it('carries an account’s shared spaces apart from its own data; a file without them reads as before', () => {
    const app = sampleApp();
    const spaceId = createId();
    const records = {
      records: [
        {
          id: 's1',
          collectionId: 'plants',
          values: { name: 'Mint' },
          createdAt: 5,
          updatedAt: 6,
          authorId: 'someone-else',
        },
      ],
      counters: {},
    };
    const file = readPipitFile(
      writePipitFile({
        origin: 'http://localhost:8080',
        exportedAt: 0,
        kind: 'account',
        account: {},
        apps: [app],
        spaces: [
          {
            id: spaceId,
            name: 'Allotment',
            role: 'reader',
            app: { id: app.id, title: 'Garden log' },
            data: records,
          },
        ],
      }),
    );
    const [space] = file.manifest.spaces;
    expect(space).toEqual({
      id: spaceId,
      name: 'Allotment',
      role: 'reader',
      app: { id: app.id, title: 'Garden log' },
      file: `spaces/${spaceId}/data.json`,
      // Its photos and files (none here); a manifest without the key reads as none too.
      recordFiles: [],
    });
    expect(file.spaceData(space!)).toEqual(records);
    expect(file.data(file.manifest.apps[0]!)).toEqual(app.data);

    // A manifest written before spaces has no `spaces`: read as none.
    const older = writePipitFile({ origin: 'x', exportedAt: 0, kind: 'app', apps: [app] });
    const unpacked = unzipSync(older);
    const manifest = JSON.parse(strFromU8(unpacked['manifest.json']!)) as Record<string, unknown>;
    delete manifest.spaces;
    unpacked['manifest.json'] = strToU8(JSON.stringify(manifest));
    const read = readPipitFile(zipSync(unpacked));
    expect(read.manifest.spaces).toEqual([]);
    expect(read.data(read.manifest.apps[0]!)).toEqual(app.data);
  });

  it('refuses what is not a Pipit file, saying why', () => {
    // One message for every file that is not Pipit's, the same as /create's check says.
    expect(failure(strToU8('{"format":"pipit-app"}'))).toBe(NOT_A_PIPIT_FILE);
    expect(failure(zipSync({ 'notes.txt': strToU8('hello') }))).toBe(NOT_A_PIPIT_FILE);
    expect(failure(zipSync({ 'manifest.json': strToU8('{"format":"other"}') }))).toBe(
      NOT_A_PIPIT_FILE,
    );
    expect(() => parseImport('hello')).toThrow(NOT_A_PIPIT_FILE);
    expect(
      failure(zipSync({ 'manifest.json': strToU8('{"format":"pipit-file","version":2}') })),
    ).toMatch(/newer version of Pipit/);
    expect(
      failure(zipSync({ 'manifest.json': strToU8('{"format":"pipit-file","version":1}') })),
    ).toMatch(/list of contents is damaged/);
    expect(failure(zipSync({ 'manifest.json': strToU8('{nope') }))).toBe(
      'The file’s list of contents is damaged: it can’t be read. Export it again.',
    );
  });

  it('refuses a file whose parts are missing, damaged or not what the manifest says', () => {
    const bytes = writePipitFile({
      origin: 'o',
      exportedAt: 0,
      kind: 'app',
      apps: [sampleApp()],
    });
    // A flipped byte in the stored image: its CRC no longer matches.
    const damaged = bytes.slice();
    const at = damaged.findIndex(
      (_, i) => damaged[i] === 82 && damaged[i + 1] === 73 && damaged[i + 2] === 70,
    );
    damaged[at + 5] = damaged[at + 5]! ^ 0xff;
    expect(failure(damaged)).toMatch(/damaged/);
    // Cut short.
    expect(failure(bytes.slice(0, bytes.length - 30))).toMatch(/isn’t a Pipit file|damaged/);
    // A manifest naming a file the zip does not hold.
    const manifest = JSON.parse(JSON.stringify(readPipitFile(bytes).manifest)) as PipitManifest;
    manifest.apps[0]!.files.definition = 'apps/elsewhere.json';
    expect(failure(zipSync({ 'manifest.json': strToU8(JSON.stringify(manifest)) }))).toBe(
      'This Pipit file is missing the definition of the app “Garden log”. Export it again.',
    );
  });

  it('stops a zip bomb before unpacking it, and one that lies about its size while unpacking', () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const bomb = zipSync({ 'manifest.json': [zeros, { level: 9 }] });
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    // Declares what it is: over the whole file's budget before anything is unpacked.
    const huge = bomb.slice();
    setU32(huge, centralHeader(huge) + 24, PORTABLE_LIMITS.totalBytes + 1);
    expect(failure(huge)).toMatch(/larger than 32 MB|more than 256 MB/);
    // Declares 10 bytes, unpacks to 8 MB: stopped as soon as it passes 10.
    const liar = bomb.slice();
    setU32(liar, centralHeader(liar) + 24, 10);
    expect(failure(liar)).toMatch(/unpacks to more than it says/);
  });

  it('refuses too many files and names Pipit never writes', () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= PORTABLE_LIMITS.entries; i++) many[`f${i}`] = new Uint8Array(0);
    expect(failure(zipSync(many))).toMatch(/at most 20,000/);
    expect(failure(zipSync({ '../evil.json': strToU8('{}') }))).toMatch(/file name/);
  });

  it('checks each definition like an import, and each person’s data', () => {
    const app = sampleApp();
    app.versions = [{ number: 1, publishedAt: 0, definition: { schemaVersion: 1, meta: {} } }];
    const file = readPipitFile(
      writePipitFile({ origin: 'o', exportedAt: 0, kind: 'app', apps: [app] }),
    );
    const entry = file.manifest.apps[0]!;
    expect(() => file.version(entry, entry.files.versions[0]!)).toThrow(
      /^Version 1 of the app “Garden log” can’t be imported\. /,
    );
  });
});

describe('refusals of a .pipit file', () => {
  /** A file of `app` with one part of its zip replaced (or removed, with null). */
  function withPart(
    app: PortableApp,
    name: (m: PipitManifest) => string,
    bytes: Uint8Array | null,
  ) {
    const zip: Record<string, Uint8Array> = unzipSync(
      writePipitFile({ origin: 'o', exportedAt: 0, kind: 'app', apps: [app] }),
    );
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!)) as PipitManifest;
    const part = name(manifest);
    if (bytes) zip[part] = bytes;
    else delete zip[part];
    return zipSync(zip);
  }

  it('name what a person knows — the app’s title, its definition, image 1 — never a path or an id', () => {
    const app = sampleApp();
    const broken = app.definition.screens[0]!;
    const tooLong = {
      ...app.definition,
      screens: [
        { ...broken, components: [{ ...broken.components[0]!, props: { alt: 'x'.repeat(400) } }] },
      ],
    };
    const said = [
      failure(withPart(app, (m) => m.apps[0]!.files.definition, null)),
      failure(withPart(app, (m) => m.apps[0]!.files.definition, strToU8('{nope'))),
      failure(
        withPart(
          app,
          (m) => m.apps[0]!.files.definition,
          strToU8(exportDefinition(tooLong as AppDefinition)),
        ),
      ),
      failure(withPart(app, (m) => m.apps[0]!.files.images[0]!.file, new Uint8Array(3))),
      failure(
        withPart(app, (m) => m.apps[0]!.files.data!, strToU8('{"format":"pipit-visitor-data"}')),
      ),
      failure(writePipitFile({ origin: 'o', exportedAt: 0, kind: 'app', apps: [app, app] })),
    ];
    expect(said).toEqual([
      'This Pipit file is missing the definition of the app “Garden log”. Export it again.',
      'The definition of the app “Garden log” is damaged: it can’t be read. Export it again.',
      'The definition of the app “Garden log” can’t be imported. Component 1 (an image) of the screen “Home”, its alt text: It is longer than 300 characters, the most it may be.',
      'Image 1 of the app “Garden log” is damaged. Export the app again.',
      'Your data in the app “Garden log” is damaged. Export it again.',
      'This Pipit file lists an app twice.',
    ]);
    for (const message of said) {
      expect(message).not.toMatch(/apps\/|\.json|[a-z2-7]{26}|screens\.\d/);
    }
    const file = readPipitFile(
      withPart(app, (m) => m.apps[0]!.files.checkpoints[0]!.file, strToU8('{}')),
    );
    const entry = file.manifest.apps[0]!;
    expect(() => file.checkpoint(entry, entry.files.checkpoints[0]!)).toThrow(
      'The checkpoint “Before spring” of the app “Garden log” is not a checkpoint. Export it again.',
    );
  });

  it('name a part of a zip by Pipit’s layout before its list of contents is read', () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const name = `apps/${createId()}/images/${createId()}.webp`;
    const bomb = zipSync({ [name]: [zeros, { level: 9 }], 'manifest.json': strToU8('{}') });
    setU32(bomb, centralHeader(bomb) + 24, PORTABLE_LIMITS.entryBytes + 1);
    expect(failure(bomb)).toBe(
      'An image of an app in this file is larger than 32 MB, the most one part may be.',
    );
  });
});

describe('uploaded images in definitions', () => {
  it('finds and rewrites /api/uploads/{id} wherever it appears, and nothing else', () => {
    const a = createId();
    const b = createId();
    const value = {
      src: `/api/uploads/${a}`,
      markdown: `![x](/api/uploads/${b}) and /api/uploads/short`,
      nested: [{ url: `https://elsewhere.example/api/uploads/${a}` }],
    };
    expect([...uploadIdsIn(value)].sort()).toEqual([a, b].sort());
    const c = createId();
    expect(rewriteUploadUrls(value, new Map([[a, c]]))).toEqual({
      src: `/api/uploads/${c}`,
      markdown: `![x](/api/uploads/${b}) and /api/uploads/short`,
      nested: [{ url: `https://elsewhere.example/api/uploads/${c}` }],
    });
  });

  it('offline, empties image components and the icon that point at uploads', () => {
    const definition = portableDefinition(sampleApp().definition);
    const { definition: stripped, removed } = withoutUploads(definition);
    expect(removed).toBe(2);
    expect(stripped.meta.icon.kind).toBe('emoji');
    expect(uploadIdsIn(stripped).size).toBe(0);
    // Still a definition a new app can be made from.
    const doc = newDoc();
    writeDefinition(doc, stripped);
    expect(readDefinition(doc).meta.icon.kind).toBe('emoji');
  });
});

describe('writeVisitorData', () => {
  it('writes records and counters exactly as read, times included', () => {
    const data = sampleApp().data!;
    const doc = newDoc();
    writeVisitorData(doc, data);
    expect(readVisitorData(doc)).toEqual(data);
  });
});
