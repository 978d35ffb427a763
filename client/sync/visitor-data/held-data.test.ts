// First: IndexedDB must exist before y-indexeddb opens it.
import { fakeBrowser } from '../../test-support/fake-browser';
import { APP_TEMPLATES, readVisitorData, type ReadDefinition } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openDeviceDocument } from '../device/device-documents';
import { anonymousDataName, deviceKeeps } from '../core/document-names';
import { localDb } from '../core/local-db';
import { heldOnDevice, noteHeld } from './held-changes';
import { HeldDataStore, openAnonymousDataAhead } from './visitor-data';
import { openVisitorDataStore } from './document-store';

/*
 * An anonymous visitor's first visit to an installed app (visitor-data.ts): no Yjs and no database
 * until their first change, which is shown at once from memory, kept in order, and written into
 * the document on this device as it was made — even if the page moves on before the document opens.
 */

const template = APP_TEMPLATES.find((t) => t.id === 'household-shopping-list');
if (!template) throw new Error('the household shopping list template is missing');
const definition = template.build() as unknown as ReadDefinition;
const items = definition.collections[0]!;
const itemName = items.fields[0]!.id;

beforeEach(() => {
  fakeBrowser({ online: false });
});

/** What this device keeps for the app's anonymous visitor, read from a fresh open. */
async function onDevice(appId: string) {
  const reader = openDeviceDocument(anonymousDataName(appId));
  await reader.whenLocal;
  const data = readVisitorData(reader.doc);
  reader.release();
  return data;
}

describe('a first visit’s data', () => {
  it('needs no database until the first change, then keeps every change as it was made', async () => {
    const appId = createId();
    const store = new HeldDataStore(appId);
    expect(store.getView()).toMatchObject({ phase: 'ready', sync: { kind: 'local' } });
    expect(store.getView().data.records).toEqual([]);
    expect(await deviceKeeps(anonymousDataName(appId))).toBe(false);

    const seen: number[] = [];
    store.subscribe(() => seen.push(store.getView().data.records.length));
    const data = store.getView().data;
    const milk = data.create(items, { [itemName]: 'Milk' });
    const tea = store.getView().data.create(items, { [itemName]: 'Tea' });
    store.getView().data.update(items, milk, { [itemName]: 'Oat milk' });
    store.getView().data.remove(tea);
    store.getView().data.setCounter('cups', 2.6);
    // Shown at once, from memory, as the document will hold it.
    const shown = store.getView().data;
    expect(shown.records.map((r) => [r.id, r.values[itemName]])).toEqual([[milk, 'Oat milk']]);
    expect(shown.counters).toEqual({ cups: 3 });
    expect(seen.length).toBeGreaterThanOrEqual(5);
    // Not claimed as stored on this device before it is.
    expect(store.getView().sync).toEqual({ kind: 'local', pending: 5 });
    // Noted on this device at once, so a page closed now loses none of them.
    expect(heldOnDevice(appId).map((change) => change.kind)).toEqual([
      'create',
      'create',
      'update',
      'remove',
      'counter',
    ]);

    await store.whenWritten();
    const kept = await onDevice(appId);
    expect(kept.records).toEqual(shown.records);
    expect(kept.counters).toEqual({ cups: 3 });
    expect(await deviceKeeps(anonymousDataName(appId))).toBe(true);
    // Noted for the merge into an account at the next sign-in.
    await vi.waitFor(async () => expect(await localDb().anonymousData.get(appId)).toBeDefined());

    // From now on the document's store answers, and a change goes straight into it.
    await vi.waitFor(() => expect(store.getView().data).not.toBe(shown));
    expect(store.getView().sync).toEqual({ kind: 'local' });
    store.getView().data.create(items, { [itemName]: 'Bread' });
    store.dispose();
    await vi.waitFor(async () =>
      expect((await onDevice(appId)).records.map((r) => r.values[itemName])).toEqual([
        'Oat milk',
        'Bread',
      ]),
    );
  });

  it('still writes the changes held when the page moves on before the document opens', async () => {
    const appId = createId();
    const store = new HeldDataStore(appId);
    const id = store.getView().data.create(items, { [itemName]: 'Coffee' });
    store.dispose();
    await store.whenWritten();
    await vi.waitFor(async () =>
      expect((await onDevice(appId)).records.map((r) => r.id)).toEqual([id]),
    );
  });

  it('refuses a change its rules refuse, at once, and then holds nothing', async () => {
    const appId = createId();
    const store = new HeldDataStore(appId);
    expect(() => store.getView().data.setCounter('', 1)).toThrow('That counter cannot be saved.');
    expect(() => store.getView().data.update(items, 'nope', { [itemName]: 'x' })).toThrow();
    expect(store.getView().data.records).toEqual([]);
    await store.whenWritten();
    expect(await deviceKeeps(anonymousDataName(appId))).toBe(false);
    store.dispose();
  });
});

describe('opening an anonymous visitor’s data ahead', () => {
  it('opens the document when this device keeps one, and makes no database when it does not', async () => {
    const empty = createId();
    await openAnonymousDataAhead(empty);
    expect(await deviceKeeps(anonymousDataName(empty))).toBe(false);

    const kept = createId();
    const store = new HeldDataStore(kept);
    store.getView().data.create(items, { [itemName]: 'Rice' });
    await store.whenWritten();
    store.dispose();
    await openAnonymousDataAhead(kept);
    // Resolved once read: the records are there to draw.
    const { loadedDeviceDocument } = await import('../device/device-documents');
    const doc = loadedDeviceDocument(anonymousDataName(kept));
    expect(doc && readVisitorData(doc).records.map((r) => r.values[itemName])).toEqual(['Rice']);
  });
});

describe('a first visit’s changes noted on this device', () => {
  it('are written at the next open when the page closed before they were stored', async () => {
    const appId = createId();
    // As a first visit leaves them when its page closes while the document's code loads.
    const first = new HeldDataStore(appId);
    const id = first.getView().data.create(items, { [itemName]: 'Jam' });
    first.getView().data.setCounter('jars', 2);
    const noted = heldOnDevice(appId);
    first.dispose();
    await first.whenWritten();
    await vi.waitFor(() => expect(heldOnDevice(appId)).toEqual([]), { timeout: 4000 });
    const otherApp = createId();
    noteHeld(otherApp, noted);
    expect(await deviceKeeps(anonymousDataName(otherApp))).toBe(false);

    // The next visit: the note alone says this device keeps data, and the open writes it.
    await openAnonymousDataAhead(otherApp);
    const store = await openVisitorDataStore({ kind: 'app', appId: otherApp, accountId: null });
    await vi.waitFor(() =>
      expect(store.getView().data.records.map((r) => [r.id, r.values[itemName]])).toEqual([
        [id, 'Jam'],
      ]),
    );
    expect(store.getView().data.counters).toEqual({ jars: 2 });
    store.dispose();
    await vi.waitFor(() => expect(heldOnDevice(otherApp)).toEqual([]), { timeout: 4000 });
    expect((await onDevice(otherApp)).records.map((r) => r.id)).toEqual([id]);
  });

  it('leaves alone what is not a change', () => {
    const appId = createId();
    localStorage.setItem(`pipit:held-changes:${appId}`, '{"not":"a list"}');
    expect(heldOnDevice(appId)).toEqual([]);
    localStorage.setItem(`pipit:held-changes:${appId}`, '[1, null, {"kind":"drop"}]');
    expect(heldOnDevice(appId)).toEqual([]);
  });
});
