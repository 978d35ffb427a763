// First: IndexedDB must exist before Dexie loads.
import { fakeBrowser } from '../../test-support/fake-browser';
import { libraryMap } from '@pipit/app-definition';
import {
  createId,
  documentName,
  type LibraryEntry,
  listLibrary,
  parseLibraryEntry,
} from '@pipit/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { endAccount } from '../core/account-end';
import { openDocument } from '../core/documents';
import {
  ANONYMOUS_OWNER,
  drainLibraryInbox,
  libraryOnDevice,
  removeFromLibrary,
  restoreToLibrary,
  saveToLibrary,
} from './library';
import { mergeIntoDevice } from './library-device';
import { queueLibraryEntry } from './library-inbox';
import { startLibrarySync } from './library-sync';
import { localDb } from '../core/local-db';

/*
 * The library on this device and in a signed-in person's `user/{userId}` document: entries merge
 * field by field whatever the order, removals travel, and the two copies meet both ways. Real yjs
 * and y-indexeddb over fake-indexeddb; no network.
 */

beforeEach(() => {
  fakeBrowser({ online: false });
});

function entry(more: Partial<LibraryEntry> = {}): LibraryEntry {
  return {
    appId: createId(),
    title: 'Habits',
    icon: null,
    author: 'ada',
    version: 1,
    openedAt: 1_000,
    ...more,
  };
}

/** This device's library for one owner, as /apps lists it. */
const onDevice = libraryOnDevice;

const titles = (entries: LibraryEntry[]) => entries.map((e) => e.title).sort();

function userDocument(accountId: string) {
  return openDocument(
    documentName({ kind: 'user', userId: accountId }),
    { kind: 'account', accountId },
    { connect: false },
  );
}

describe('the library on this device', () => {
  it('saves, removes and restores an app, for someone not signed in', async () => {
    const listing = { appId: createId(), title: 'Saved', icon: null, author: 'bo', version: 2 };
    await saveToLibrary(null, listing);
    const [saved] = await onDevice(ANONYMOUS_OWNER);
    expect(saved).toMatchObject({ appId: listing.appId, title: 'Saved' });
    await removeFromLibrary(null, saved!);
    expect(await onDevice(ANONYMOUS_OWNER)).toEqual([]);
    await restoreToLibrary(null, saved!);
    expect(titles(await onDevice(ANONYMOUS_OWNER))).toEqual(['Saved']);
    await localDb().library.clear();
  });

  it('merges two copies of an entry to the same result in either order', async () => {
    const older = entry({ title: 'Old title', openedAt: 1_000, savedAt: 5_000 });
    const newer = { ...older, title: 'New title', version: 2, openedAt: 3_000 };
    const [a, b] = [createId(), createId()];
    const one = await mergeIntoDevice(a, older).then(() => mergeIntoDevice(a, newer));
    const other = await mergeIntoDevice(b, newer).then(() => mergeIntoDevice(b, older));
    expect(other).toEqual(one);
    expect(one).toMatchObject({ title: 'New title', version: 2, openedAt: 3_000, savedAt: 5_000 });
  });

  it('takes in what the installed app noted, each owner’s in their own library', async () => {
    const mine = entry({ title: 'Mine' });
    const someoneElse = createId();
    queueLibraryEntry(ANONYMOUS_OWNER, mine);
    queueLibraryEntry(someoneElse, entry({ title: 'Theirs' }));
    await drainLibraryInbox(null);
    expect(titles(await onDevice(ANONYMOUS_OWNER))).toEqual(['Mine']);
    expect(titles(await onDevice(someoneElse))).toEqual(['Theirs']);
    // Drained: a second run adds nothing twice.
    await drainLibraryInbox(null);
    expect(await onDevice(ANONYMOUS_OWNER)).toHaveLength(1);
    await localDb().library.clear();
  });
});

describe('the library of someone signed in', () => {
  it('meets the person’s document both ways, and keeps what was opened anonymously', async () => {
    const accountId = createId();
    const anonymous = entry({ title: 'Opened anonymously' });
    const deviceOnly = entry({ title: 'On this device' });
    const elsewhere = entry({ title: 'From another device' });
    await mergeIntoDevice(ANONYMOUS_OWNER, anonymous);
    await mergeIntoDevice(accountId, deviceOnly);
    const user = userDocument(accountId);
    await user.whenLocal;
    libraryMap(user.doc).set(elsewhere.appId, elsewhere);

    const stop = startLibrarySync(accountId);
    const all = ['From another device', 'On this device', 'Opened anonymously'];
    await vi.waitFor(async () => expect(titles(await onDevice(accountId))).toEqual(all));
    const inDocument = () =>
      [...libraryMap(user.doc).values()].flatMap((value) => parseLibraryEntry(value) ?? []);
    await vi.waitFor(() => expect(titles(inDocument())).toEqual(all));
    expect(await onDevice(ANONYMOUS_OWNER)).toEqual([]);

    // Another device renames an entry and removes one: both reach this device.
    const remote = new Y.Doc();
    Y.applyUpdate(remote, Y.encodeStateAsUpdate(user.doc));
    libraryMap(remote).set(elsewhere.appId, { ...elsewhere, title: 'Renamed', openedAt: 9_000 });
    libraryMap(remote).set(deviceOnly.appId, { ...deviceOnly, removedAt: 9_000 });
    Y.applyUpdate(user.doc, Y.encodeStateAsUpdate(remote, Y.encodeStateVector(user.doc)));
    await vi.waitFor(async () =>
      expect(titles(await onDevice(accountId))).toEqual(['Opened anonymously', 'Renamed']),
    );

    // And a change here reaches the document.
    await saveToLibrary(accountId, {
      appId: createId(),
      title: 'Saved here',
      icon: null,
      author: 'cy',
      version: null,
    });
    await vi.waitFor(() => expect(titles(listLibrary(inDocument()))).toContain('Saved here'));
    stop();
    user.release();
    endAccount(accountId);
  });
});
