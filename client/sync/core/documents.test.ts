// First: IndexedDB must exist before Dexie loads.
import { fakeBrowser } from '../../test-support/fake-browser';
import {
  createApp,
  createVisitorRecord,
  readDefinition,
  readVisitorData,
  setMeta,
} from '@pipit/app-definition';
import { WebSocketStatus } from '@hocuspocus/provider';
import { createId, documentName } from '@pipit/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endAccount } from './account-end';
import { openDocument, openDocumentAhead, type OpenDocument } from './documents';
import { localAppKey, localDb, type LocalApp } from './local-db';
import { syncSocket } from './socket';

/*
 * The document registry on real yjs and y-indexeddb over fake-indexeddb: one Y.Doc per document
 * however many open it, closing once let go, each account's copy apart, the changes not yet sent
 * (what the sync badge reads), and read-only from what this device knows.
 */

let browser: ReturnType<typeof fakeBrowser>;
beforeEach(() => {
  browser = fakeBrowser({ online: false });
});
afterEach(() => {
  vi.useRealTimers();
});

const appName = () => documentName({ kind: 'app', appId: createId() });
const account = () => ({ kind: 'account', accountId: createId() }) as const;
let ids = 0;
const newId = () => `id${++ids}`;

async function openLoaded(...args: Parameters<typeof openDocument>): Promise<OpenDocument> {
  const opened = openDocument(...args);
  await opened.whenLocal;
  return opened;
}

function row(accountId: string, appId: string, more: Partial<LocalApp> = {}): LocalApp {
  return {
    key: localAppKey(accountId, appId),
    accountId,
    id: appId,
    title: 'Before',
    description: '',
    icon: null,
    role: 'owner',
    archived: false,
    published: false,
    createdAt: 1,
    updatedAt: 1,
    registered: true,
    pending: 0,
    ...more,
  };
}

describe('the document registry', () => {
  it('gives everyone who opens a document the same Y.Doc, and closes it once all let go', async () => {
    const name = appName();
    const scope = account();
    const a = await openLoaded(name, scope, { connect: false });
    const b = await openLoaded(name, scope, { connect: false });
    expect(b.doc).toBe(a.doc);
    a.release();
    a.release(); // a second release of one handle changes nothing
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.advanceTimersByTime(10_000);
    // b still holds it: the same document again.
    const c = openDocument(name, scope, { connect: false });
    expect(c.doc).toBe(a.doc);
    b.release();
    c.release();
    vi.advanceTimersByTime(10_000);
    vi.useRealTimers();
    const d = await openLoaded(name, scope, { connect: false });
    expect(d.doc).not.toBe(a.doc);
    d.release();
  });

  it('reads a document opened ahead from the device, for its first user to take over loaded', async () => {
    const name = appName();
    const scope = account();
    const writer = await openLoaded(name, scope, { connect: false });
    createApp(writer.doc, newId, { title: 'Read ahead' });
    writer.release();
    endAccount(scope.accountId); // closed: the next open reads the device's copy

    openDocumentAhead(name, scope);
    const user = openDocument(name, scope, { connect: false });
    expect(user.isLocal()).toBe(false);
    await user.whenLocal;
    expect(user.isLocal()).toBe(true);
    expect(readDefinition(user.doc).meta.title).toBe('Read ahead');
    user.release();

    endAccount(scope.accountId);
  });

  it('closes a document opened ahead when nobody comes for it, as any document let go', () => {
    const name = appName();
    const scope = account();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    openDocumentAhead(name, scope);
    const soon = openDocument(name, scope, { connect: false });
    const aheadDoc = soon.doc; // the document opened ahead, still open
    soon.release();
    vi.advanceTimersByTime(10_000);
    vi.useRealTimers();
    const later = openDocument(name, scope, { connect: false });
    expect(later.doc).not.toBe(aheadDoc);
    later.release();
    endAccount(scope.accountId);
  });

  it('keeps a document with unsent changes open after its last user lets go (online)', async () => {
    browser.navigator.onLine = true;
    const name = appName();
    const scope = account();
    const a = await openLoaded(name, scope, { connect: false });
    createApp(a.doc, newId, { title: 'Unsent' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    a.release();
    vi.advanceTimersByTime(30_000);
    vi.useRealTimers();
    const again = openDocument(name, scope, { connect: false });
    expect(again.doc).toBe(a.doc);
    again.release();
  });

  it('keeps each account’s copy apart, and a closed document’s changes on the device', async () => {
    const name = appName();
    const [ada, bo] = [account(), account()];
    const first = await openLoaded(name, ada, { connect: false });
    createApp(first.doc, newId, { title: 'Ada’s' });
    const other = await openLoaded(name, bo, { connect: false });
    expect(other.doc).not.toBe(first.doc);
    expect(readDefinition(other.doc).meta.title).not.toBe('Ada’s');
    // Signing out closes Ada's documents (not Bo's); the next open loads Ada's from the device.
    endAccount(ada.accountId);
    const reopened = await openLoaded(name, ada, { connect: false });
    expect(reopened.doc).not.toBe(first.doc);
    expect(readDefinition(reopened.doc).meta.title).toBe('Ada’s');
    expect(openDocument(name, bo, { connect: false }).doc).toBe(other.doc);
    endAccount(ada.accountId);
    endAccount(bo.accountId);
  });
});

describe('changes not sent yet', () => {
  it('counts this device’s edits, not what loads from the device, and says offline', async () => {
    const name = appName();
    const scope = account();
    const opened = await openLoaded(name, scope, { connect: false });
    expect(opened.sync()).toEqual({ kind: 'offline', pending: 0 });
    const listener = vi.fn();
    opened.subscribe(listener);
    createApp(opened.doc, newId, { title: 'Counted' });
    setMeta(opened.doc, { title: 'Counted twice' });
    expect(opened.sync()).toEqual({ kind: 'offline', pending: 2 });
    expect(listener).toHaveBeenCalled();
    browser.navigator.onLine = true;
    window.dispatchEvent(new Event('online'));
    // Online, not connected yet: the badge reads "connecting" with the same count.
    expect(opened.sync()).toEqual({ kind: 'connecting', pending: 2 });
    browser.navigator.onLine = false;
    endAccount(scope.accountId);
    const reopened = await openLoaded(name, scope, { connect: false });
    expect(readDefinition(reopened.doc).meta.title).toBe('Counted twice');
    // Loading the stored copy is not a change of this device's: nothing counted for it.
    expect(reopened.sync()).toEqual({ kind: 'offline', pending: 0 });
    endAccount(scope.accountId);
  });

  it('says offline as soon as the browser is, while the socket still claims to be connected', async () => {
    browser.navigator.onLine = true;
    const scope = account();
    const name = appName();
    const opened = await openLoaded(name, scope, { connect: true });
    createApp(opened.doc, newId, { title: 'Sent' });
    // Connected and let in, as far as the socket knows (no server here: set as it would be).
    const socket = syncSocket(scope.accountId);
    socket.status = WebSocketStatus.Connected;
    const provider = [...socket.configuration.providerMap.values()].find(
      (candidate) => candidate.configuration.name === name,
    );
    provider!.authenticatedHandler('read-write');
    window.dispatchEvent(new Event('online'));
    expect(opened.sync().kind).toBe('syncing');
    // The network goes: the close the socket is asked for has not landed, it still says connected.
    browser.navigator.onLine = false;
    window.dispatchEvent(new Event('offline'));
    expect(socket.status).toBe(WebSocketStatus.Connected);
    expect(opened.sync()).toEqual({ kind: 'offline', pending: 1 });
    opened.release();
    endAccount(scope.accountId);
  });

  it('keeps an app’s count and listing in its row on the device, and reads it back on opening', async () => {
    const scope = account();
    const appId = createId();
    const name = documentName({ kind: 'app', appId });
    const key = localAppKey(scope.accountId, appId);
    await localDb().apps.put(row(scope.accountId, appId));
    const opened = await openLoaded(name, scope, { connect: false });
    createApp(opened.doc, newId, { title: 'Groceries', description: 'Weekly' });
    setMeta(opened.doc, { title: 'Groceries, weekly' });
    setMeta(opened.doc, { description: 'Every Saturday' });
    // The row follows (at most twice a second past the first change).
    await vi.waitFor(async () => {
      const stored = await localDb().apps.get(key);
      expect(stored).toMatchObject({
        pending: 3,
        title: 'Groceries, weekly',
        description: 'Every Saturday',
      });
    });
    endAccount(scope.accountId);
    // A new tab: the count comes back from the row, before any server says otherwise.
    const reopened = await openLoaded(name, scope, { connect: false });
    expect(reopened.sync()).toEqual({ kind: 'offline', pending: 3 });
    endAccount(scope.accountId);
  });

  it('counts nothing in the demo, which never syncs', async () => {
    const opened = await openLoaded(appName(), { kind: 'demo' }, { connect: false });
    createApp(opened.doc, newId, { title: 'Demo' });
    expect(opened.sync()).toEqual({ kind: 'local' });
    opened.release();
  });
});

describe('read-only', () => {
  it('holds for a viewer from this device’s row, offline and before any server answer', async () => {
    const scope = account();
    const viewerApp = createId();
    const editorApp = createId();
    await localDb().apps.bulkPut([
      row(scope.accountId, viewerApp, { role: 'viewer' }),
      row(scope.accountId, editorApp, { role: 'editor' }),
    ]);
    const viewing = openDocument(documentName({ kind: 'app', appId: viewerApp }), scope, {
      connect: true,
    });
    const editing = openDocument(documentName({ kind: 'app', appId: editorApp }), scope, {
      connect: true,
    });
    await Promise.all([viewing.whenLocal, editing.whenLocal]);
    expect(viewing.isReadOnly()).toBe(true);
    expect(editing.isReadOnly()).toBe(false);
    // Unconnected (the socket never opens here), so nothing is replaced either.
    expect(viewing.isReplaced()).toBe(false);
    endAccount(scope.accountId);
  });

  it('removes changes refused for good, and tells only the person who made them', async () => {
    const olive = account();
    const cole = account();
    const appId = createId();
    const name = documentName({ kind: 'app', appId });
    await localDb().apps.bulkPut([
      row(olive.accountId, appId, { role: 'editor' }),
      row(cole.accountId, appId, { role: 'editor' }),
    ]);
    const opened = await openLoaded(name, olive, { connect: true });
    createApp(opened.doc, newId, { title: 'Made offline' });
    // The server answers this connection as it answers a viewer's: read-only (the provider's own
    // handler for the server's "authenticated" message).
    const provider = [...syncSocket(olive.accountId).configuration.providerMap.values()].find(
      (candidate) => candidate.configuration.name === name,
    );
    provider!.authenticatedHandler('readonly');
    await vi.waitFor(() => expect(opened.isReplaced()).toBe(true));
    expect(opened.refusedChanges()).toBe(1);
    opened.release();

    // The next person on this device opens the same app: someone else's note is not theirs.
    const other = await openLoaded(name, cole, { connect: false });
    expect(other.refusedChanges()).toBe(0);
    other.release();
    // Opened again, olive's document still says what was removed, until she has read it.
    const again = await openLoaded(name, olive, { connect: false });
    expect(again.refusedChanges()).toBe(1);
    again.forgetRefusedChanges();
    expect(again.refusedChanges()).toBe(0);
    again.release();
    endAccount(olive.accountId);
    endAccount(cole.accountId);
  });

  it('removes a space’s changes a reader can never send (made a reader while adding), never showing them saved', async () => {
    const ben = account();
    const name = documentName({ kind: 'space', spaceId: createId() });
    const opened = await openLoaded(name, ben, { connect: true });
    createVisitorRecord(opened.doc, { id: 'items', name: 'Items', fields: [] }, {}, { id: 'r1' });
    expect(opened.sync().kind).not.toBe('saved');
    const provider = [...syncSocket(ben.accountId).configuration.providerMap.values()].find(
      (candidate) => candidate.configuration.name === name,
    );
    provider!.authenticatedHandler('readonly');
    await vi.waitFor(() => expect(opened.isReplaced()).toBe(true));
    expect(opened.refusedChanges()).toBe(1);
    opened.release();
    // Opened again, the device's copy no longer holds what the server refused.
    const again = await openLoaded(name, ben, { connect: false });
    expect(readVisitorData(again.doc).records).toEqual([]);
    again.release();
    endAccount(ben.accountId);
  });
});
