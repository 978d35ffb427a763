import {
  appMetaSchema,
  fieldSchema,
  formatFileReference,
  type ReadDefinition,
  SCHEMA_VERSION,
  themeSchema,
} from '@pipit/app-definition';
import { createElement, useSyncExternalStore } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  AppRuntime,
  createMemoryDataStore,
  formatValue,
  type MemoryDataStore,
  type PickedFile,
  type RuntimeFiles,
} from '../src/index';
import { component } from './support/fixture';
import { createRoot, findAll, type HostNode, type TestRoot, textOf } from './support/render-static';
import { loadAllParts } from './support/parts';

// Charts, timers, views and the photo picker are chunks of their own (parts.ts).
await loadAllParts();

const HASH = 'a'.repeat(64);
const photoRef = formatFileReference({
  hash: HASH,
  size: 2048,
  type: 'image/png',
  name: 'fern.png',
});

const fields = [
  fieldSchema.parse({ id: 'name', name: 'Name', type: 'text', required: true }),
  fieldSchema.parse({ id: 'photo', name: 'Photo', type: 'image' }),
  fieldSchema.parse({ id: 'doc', name: 'Care sheet', type: 'file' }),
];

function app(): ReadDefinition {
  return {
    schemaVersion: SCHEMA_VERSION,
    meta: appMetaSchema.parse({ title: 'Plants' }),
    theme: themeSchema.parse({}),
    screens: [
      {
        id: 'add',
        title: 'Add',
        icon: '➕',
        components: [component('form', 'form', { collectionId: 'plants', submitLabel: 'Add' })],
      },
      {
        id: 'gallery',
        title: 'Gallery',
        icon: '🖼️',
        components: [
          component('list', 'list', {
            collectionId: 'plants',
            titleFieldId: 'name',
            view: 'gallery',
            imageFieldId: 'photo',
          }),
        ],
      },
    ],
    collections: [
      {
        id: 'plants',
        name: 'Plants',
        fields,
        records: [],
        sharing: 'private',
        recordRule: 'anyone',
      },
    ],
    actions: [],
    aiActions: [],
    reminders: [],
  };
}

/** A host that keeps nothing: `add` answers a fixed reference, `url` fixed addresses. */
function fakeFiles() {
  return {
    add: vi.fn((_collectionId: string, _kind: 'image' | 'file', _file: PickedFile) =>
      Promise.resolve(photoRef),
    ),
    url: vi.fn((_collectionId: string, hash: string, variant: 'thumbnail' | 'original') =>
      Promise.resolve(`blob:device/${hash.slice(0, 4)}/${variant}`),
    ),
  } satisfies RuntimeFiles;
}

function Harness({ store, files }: { store: MemoryDataStore; files: RuntimeFiles }) {
  const data = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return createElement(AppRuntime, {
    definition: app(),
    data,
    colorMode: 'light',
    user: null,
    files,
  });
}

const noop = { preventDefault: () => undefined };
const input = (root: TestRoot, label: string) => {
  const found = findAll(root.tree, (n) => n.tag === 'input' && n.props['aria-label'] === label);
  if (found.length !== 1) throw new Error(`Expected one input “${label}”, found ${found.length}`);
  return found[0]!;
};
async function pick(root: TestRoot, node: HostNode, file: PickedFile) {
  await root.act(() =>
    (node.props.onChange as (e: object) => unknown)({
      currentTarget: { files: [file], value: 'x' },
    }),
  );
  // The host keeps it, then says where it is: each a moment later.
  await root.act(() => undefined);
  await root.act(() => undefined);
}

describe('photos and files on records in the running app', () => {
  it('offers the camera and the photo library, refuses what is not a photo, and keeps nothing then', async () => {
    const files = fakeFiles();
    const store = createMemoryDataStore({ records: [] });
    const root = createRoot(createElement(Harness, { store, files }));
    const camera = input(root, 'Take a photo for Photo');
    expect(camera.props).toMatchObject({ type: 'file', accept: 'image/*', capture: 'environment' });
    expect(input(root, 'Choose photo for Photo').props).toMatchObject({ accept: 'image/*' });
    expect(input(root, 'Choose file for Care sheet').props.accept).toBeUndefined();

    await pick(root, camera, { name: 'notes.txt', type: 'text/plain', size: 12 });
    expect(files.add).not.toHaveBeenCalled();
    expect(textOf(findAll(root.tree, (n) => n.props.role === 'alert'))).toContain(
      'That file isn’t a photo. Choose a PNG, JPEG, WebP or GIF image for Photo.',
    );
    await pick(root, camera, { name: 'huge.jpg', type: 'image/jpeg', size: 13 * 1024 * 1024 });
    expect(files.add).not.toHaveBeenCalled();
    expect(textOf(root.tree)).toContain('That photo is larger than 12 MB.');
  });

  it('keeps a picked photo, shows it from the device at once, saves its reference and shows its thumbnail in the gallery', async () => {
    const files = fakeFiles();
    const store = createMemoryDataStore({ records: [] });
    const root = createRoot(createElement(Harness, { store, files }));
    const photo = { name: 'fern.png', type: 'image/png', size: 2048 };
    await pick(root, input(root, 'Take a photo for Photo'), photo);
    expect(files.add).toHaveBeenCalledWith('plants', 'image', photo);
    const preview = findAll(
      root.tree,
      (n) => n.tag === 'img' && n.props.className === 'rt-file-preview',
    );
    expect(preview.map((n) => n.props.src)).toEqual(['blob:device/aaaa/thumbnail']);
    expect(preview[0]!.props.alt).toBe('Photo: fern.png');
    expect(
      findAll(root.tree, (n) => n.tag === 'button' && textOf([n]) === 'Remove photo'),
    ).toHaveLength(1);

    await root.act(() =>
      (
        findAll(
          root.tree,
          (n) =>
            n.tag === 'input' && n.props['aria-label'] === undefined && n.props.type !== 'file',
        )[0]!.props.onChange as (e: object) => unknown
      )({ currentTarget: { value: 'Fern' } }),
    );
    await root.act(() =>
      (findAll(root.tree, (n) => n.tag === 'form')[0]!.props.onSubmit as (e: object) => unknown)(
        noop,
      ),
    );
    expect(store.getSnapshot().records.map((r) => r.values)).toEqual([
      { name: 'Fern', photo: photoRef, doc: null },
    ]);

    // The gallery asks for thumbnails only, never the original.
    await root.act(() =>
      (
        findAll(root.tree, (n) => n.tag === 'button' && textOf([n]).includes('Gallery'))[0]!.props
          .onClick as () => unknown
      )(),
    );
    // The view's code, then where each thumbnail is.
    await root.act(() => undefined);
    await root.act(() => undefined);
    const images = findAll(
      root.tree,
      (n) => n.tag === 'img' && n.props.className === 'rt-gallery-image',
    );
    expect(images.map((n) => [n.props.src, n.props.alt])).toEqual([
      ['blob:device/aaaa/thumbnail', 'Fern'],
    ]);
    expect(files.url.mock.calls.every(([, , variant]) => variant === 'thumbnail')).toBe(true);
  });

  it('shows a placeholder, not a broken picture, for a photo the server does not have yet', async () => {
    const files = fakeFiles();
    files.url.mockImplementation((_c, hash, variant) =>
      Promise.resolve(`/api/apps/app/files/${hash}${variant === 'thumbnail' ? '/thumbnail' : ''}`),
    );
    const store = createMemoryDataStore({
      records: [
        {
          id: 'p1',
          collectionId: 'plants',
          values: { name: 'Fern', photo: photoRef },
          createdAt: 1,
          updatedAt: 1,
        },
      ],
    });
    const root = createRoot(createElement(Harness, { store, files }));
    await root.act(() =>
      (
        findAll(root.tree, (n) => n.tag === 'button' && textOf([n]).includes('Gallery'))[0]!.props
          .onClick as () => unknown
      )(),
    );
    await root.act(() => undefined);
    await root.act(() => undefined);
    const image = () =>
      findAll(
        root.tree,
        (n) =>
          n.props.className === 'rt-gallery-image' ||
          n.props.className === 'rt-gallery-image rt-gallery-none',
      );
    expect(image().map((n) => [n.tag, n.props.src])).toEqual([
      ['img', `/api/apps/app/files/${HASH}/thumbnail`],
    ]);
    await root.act(() => (image()[0]!.props.onError as () => unknown)());
    expect(image().map((n) => [n.tag, n.props['aria-label']])).toEqual([['span', 'Fern']]);
  });

  it('refuses a value that is not a reference, and reads a reference as its file name', () => {
    const store = createMemoryDataStore({ records: [] });
    const collection = app().collections[0]!;
    expect(() =>
      store.getSnapshot().create(collection, { name: 'X', photo: 'https://example.com/a.png' }),
    ).toThrow('Choose a photo for Photo.');
    expect(formatValue(photoRef, fields[1]!)).toBe('fern.png');
  });
});
