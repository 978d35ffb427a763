// First: IndexedDB must exist before anything opens it.
import { fakeBrowser } from '../../test-support/fake-browser';
import { APP_TEMPLATES, type ReadDefinition } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openVisitorDataStore } from './document-store';
import { dataCopyName, dropPlainCopyAhead, plainCopyAhead, readPlainCopyAhead } from './plain-copy';
import { COPY_FROM_RECORDS } from './plain-copy-notes';
import {
  forgetPlainCopy,
  keepPlainCopy,
  readCopy,
  readPlainCopy,
  writeDueCopies,
} from './plain-copy-store';
import { openVisitorDataAhead } from './visitor-data';

/*
 * A plain copy of a person's data kept beside its document, drawn by an installed app before the
 * document is read (plain-copy.ts): written from the store after its changes, read back as the
 * store showed it, checked as anything read from the device is, and gone when asked.
 */

beforeEach(() => {
  fakeBrowser({ online: false });
});

const template = APP_TEMPLATES.find((t) => t.id === 'household-shopping-list');
if (!template) throw new Error('the household shopping list template is missing');
const definition = template.build() as unknown as ReadDefinition;
const items = definition.collections[0]!;
const itemName = items.fields[0]!.id;

/** As many records as a copy is kept for, the first named `first`. */
const many = (first: string) =>
  Array.from({ length: COPY_FROM_RECORDS }, (_, i) => record(`r${i}`, i ? `Item ${i}` : first));

const record = (id: string, name: string) => ({
  id,
  collectionId: items.id,
  values: { [itemName]: name },
  createdAt: 1,
  updatedAt: 2,
});

describe('a plain copy of a person’s data', () => {
  it('is written a moment after a change, and read back as it was', async () => {
    const name = dataCopyName(createId(), createId());
    const data = { records: many('Milk'), counters: { glasses: 2 } };
    keepPlainCopy(name, data);
    expect(await readPlainCopy(name)).toBeNull();
    await vi.waitFor(async () => expect(await readPlainCopy(name)).toEqual(data), {
      timeout: 4_000,
    });
  });

  it('is kept in a database something else made empty, by making its store', async () => {
    const made = (request: IDBOpenDBRequest | IDBRequest) =>
      new Promise<void>((resolve, reject) => {
        request.onsuccess = () => {
          if (request.result instanceof IDBDatabase) request.result.close();
          resolve();
        };
        request.onerror = () => reject(request.error ?? new Error('refused'));
      });
    // Any open without a version makes an empty version 1 when there was none.
    await made(indexedDB.deleteDatabase('pipit-plain-copies'));
    await made(indexedDB.open('pipit-plain-copies'));
    vi.resetModules();
    const fresh = await import('./plain-copy-store');
    const name = dataCopyName(createId(), createId());
    const data = { records: many('Bread'), counters: {} };
    fresh.keepPlainCopy(name, data);
    await fresh.writeDueCopies();
    expect(await fresh.readPlainCopy(name)).toEqual(data);
  });

  it('is read ahead once, and not drawn again once the document is read', async () => {
    const name = dataCopyName(createId(), createId());
    expect(await readPlainCopyAhead(name)).toBe(false);
    keepPlainCopy(name, { records: many('Tea'), counters: {} });
    await writeDueCopies();
    expect(await readPlainCopyAhead(name)).toBe(true);
    expect(plainCopyAhead(name)?.records[0]?.values[itemName]).toBe('Tea');
    dropPlainCopyAhead(name);
    expect(plainCopyAhead(name)).toBeNull();
    await forgetPlainCopy(name);
    expect(await readPlainCopy(name)).toBeNull();
    expect(await readPlainCopyAhead(name)).toBe(false);
  });

  it('is not kept for a little data, and goes when the data shrinks below it', async () => {
    const name = dataCopyName(createId(), null);
    keepPlainCopy(name, { records: [record('a', 'Tea')], counters: {} });
    await writeDueCopies();
    expect(await readPlainCopy(name)).toBeNull();
    keepPlainCopy(name, { records: many('Tea'), counters: {} });
    await writeDueCopies();
    expect(await readPlainCopyAhead(name)).toBe(true);
    dropPlainCopyAhead(name);
    keepPlainCopy(name, { records: many('Tea').slice(1), counters: {} });
    await writeDueCopies();
    expect(await readPlainCopy(name)).toBeNull();
    expect(await readPlainCopyAhead(name)).toBe(false);
  });

  it('is not written again for the version of the document it was made from', async () => {
    const name = dataCopyName(createId(), createId());
    keepPlainCopy(name, { records: many('Tea'), counters: {} }, 'v1');
    await writeDueCopies();
    // A start drew the copy, then read the document: the same version, a new object.
    keepPlainCopy(name, { records: many('Coffee'), counters: {} }, 'v1');
    await writeDueCopies();
    expect((await readPlainCopy(name))?.records[0]?.values[itemName]).toBe('Tea');
    keepPlainCopy(name, { records: many('Coffee'), counters: {} }, 'v2');
    await writeDueCopies();
    expect((await readPlainCopy(name))?.records[0]?.values[itemName]).toBe('Coffee');
  });

  it('reads as nothing when what is stored is not a person’s data, and drops values no field holds', () => {
    expect(readCopy(null)).toBeNull();
    expect(readCopy({ records: 'x', counters: {} })).toBeNull();
    expect(readCopy({ records: [{ id: 'a', values: {} }], counters: {} })).toBeNull();
    expect(readCopy({ records: [record('a', 'Milk')], counters: null })).toBeNull();
    const read = readCopy({
      records: [{ ...record('a', 'Milk'), values: { [itemName]: 'Milk', bad: { x: 1 } } }],
      counters: { glasses: 2, broken: 'two' },
    });
    expect(read).toEqual({ records: [record('a', 'Milk')], counters: { glasses: 2 } });
  });

  it('is kept by the store of an account’s data, and read ahead instead of the document', async () => {
    const appId = createId();
    const accountId = createId();
    const store = await openVisitorDataStore({ kind: 'app', appId, accountId });
    await store.whenLocal;
    const rows = Array.from({ length: COPY_FROM_RECORDS }, (_, i) => ({ [itemName]: `Item ${i}` }));
    store.getView().data.createMany!(items, rows);
    await writeDueCopies();
    store.dispose();
    const name = dataCopyName(appId, accountId);
    const copy = await readPlainCopy(name);
    expect(copy?.records).toHaveLength(COPY_FROM_RECORDS);
    expect(copy?.records.map((r) => r.values[itemName])).toContain('Item 7');
    // The next start: the copy is there to draw.
    await openVisitorDataAhead(appId, accountId);
    expect(plainCopyAhead(name)?.records).toHaveLength(COPY_FROM_RECORDS);
  });
});
