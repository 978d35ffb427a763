// First: IndexedDB must exist before Dexie loads.
import { fakeBrowser } from '../test-support/fake-browser';
import {
  blankDefinition,
  createVisitorRecord,
  hasDefinition,
  readDefinition,
  readVisitorData,
  type RecordCollection,
} from '@pipit/app-definition';
import { type AppSummary, createId, documentName } from '@pipit/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { markAnonymousData } from './visitor-data/anonymous-data';
import { endAccount } from './core/account-end';
import { isDeviceDocumentOpen, openDeviceDocument } from './device/device-documents';
import { anonymousDataName, localDatabaseName } from './core/document-names';
import { openDocument } from './core/documents';
import { localDb } from './core/local-db';
import {
  adoptDemoApps,
  createLocalApp,
  localApp,
  localApps,
  mergeServerApps,
} from './app-document/local-apps';
import { mergeAnonymousVisitorData } from './visitor-data/synced-data';

/*
 * How this device's copies meet: documents kept on the device only, the local app list against
 * the server's, the demo's app adopted at sign-up, and anonymous visitor data merged into the
 * account's. Real yjs and y-indexeddb over fake-indexeddb; no network.
 */

beforeEach(() => {
  fakeBrowser({ online: false });
});

const NOTES: RecordCollection = {
  id: 'notes',
  name: 'Notes',
  fields: [{ id: 'text', name: 'Text', type: 'text', required: true, default: null, options: [] }],
};

async function titleOnDevice(scope: Parameters<typeof openDocument>[1], appId: string) {
  const opened = openDocument(documentName({ kind: 'app', appId }), scope, { connect: false });
  await opened.whenLocal;
  try {
    return readDefinition(opened.doc).meta.title;
  } finally {
    opened.release();
  }
}

function summary(id: string, more: Partial<AppSummary> = {}): AppSummary {
  return {
    id,
    owner: { id: 'someone', username: 'someone', displayName: 'Someone' },
    role: 'owner',
    title: 'From the server',
    description: '',
    icon: null,
    visibility: 'private',
    archived: false,
    publishedVersion: null,
    createdAt: 10,
    updatedAt: 20,
    ...more,
  };
}

describe('documents kept on this device only', () => {
  it('are shared while open, close with their last user, and keep their data', async () => {
    const name = anonymousDataName(createId());
    const a = openDeviceDocument(name);
    const b = openDeviceDocument(name);
    expect(b.doc).toBe(a.doc);
    await a.whenLocal;
    createVisitorRecord(a.doc, NOTES, { text: 'kept' });
    a.release();
    expect(isDeviceDocumentOpen(name)).toBe(true);
    b.release();
    expect(isDeviceDocumentOpen(name)).toBe(false);
    const again = openDeviceDocument(name);
    await again.whenLocal;
    expect(again.doc).not.toBe(a.doc);
    expect(readVisitorData(again.doc).records.map((r) => r.values.text)).toEqual(['kept']);
    again.release();
  });
});

describe('the local app list', () => {
  it('creates an app on the device: its document, and a row with one change to send', async () => {
    const accountId = createId();
    const id = await createLocalApp(accountId, blankDefinition('Field notes'));
    expect(await titleOnDevice({ kind: 'account', accountId }, id)).toBe('Field notes');
    expect(await localApp(accountId, id)).toMatchObject({
      title: 'Field notes',
      role: 'owner',
      registered: false,
      pending: 1,
    });
    // The demo's apps never sync: nothing to send.
    const demoId = await createLocalApp('demo', blankDefinition('Draft'));
    expect(await localApp('demo', demoId)).toMatchObject({ pending: 0 });
    await localDb().apps.clear();
  });

  it('takes the server’s listing, keeping what this device has not sent yet', async () => {
    const accountId = createId();
    const synced = await createLocalApp(accountId, blankDefinition('Synced here'));
    const unsent = await createLocalApp(accountId, blankDefinition('Renamed here'));
    const removed = await createLocalApp(accountId, blankDefinition('Deleted elsewhere'));
    const local = await createLocalApp(accountId, blankDefinition('Never registered'));
    await localDb().apps.where('accountId').equals(accountId).modify({ pending: 0 });
    await localDb().apps.update(`${accountId}:${unsent}`, { pending: 2 });
    await localDb().apps.bulkUpdate(
      [synced, unsent, removed].map((id) => ({
        key: `${accountId}:${id}`,
        changes: { registered: true },
      })),
    );
    const elsewhere = createId();
    await mergeServerApps(accountId, [
      summary(synced, { title: 'Renamed on the server', publishedVersion: 3 }),
      summary(unsent, { title: 'Older server title' }),
      summary(elsewhere, { title: 'Made on another device', role: 'editor' }),
    ]);
    const rows = new Map((await localApps(accountId)).map((row) => [row.id, row]));
    expect(rows.get(synced)).toMatchObject({ title: 'Renamed on the server', published: true });
    expect(rows.get(unsent)).toMatchObject({ title: 'Renamed here', pending: 2 });
    expect(rows.get(elsewhere)).toMatchObject({ title: 'Made on another device', role: 'editor' });
    // Registered but no longer listed: gone from the device, its document too.
    expect(rows.has(removed)).toBe(false);
    expect(
      await titleOnDevice({ kind: 'account', accountId }, removed).catch(() => 'unreadable'),
    ).not.toBe('Deleted elsewhere');
    // Not registered yet: the server cannot know it, so it stays.
    expect(rows.get(local)).toMatchObject({ registered: false });
    endAccount(accountId);
  });

  it('gives the demo’s apps to a new account, to be sent, and empties the demo', async () => {
    const demoId = await createLocalApp('demo', blankDefinition('Made before signing up'));
    const accountId = createId();
    expect(await adoptDemoApps(accountId)).toEqual([demoId]);
    expect(await localApps('demo')).toEqual([]);
    expect(await localApp(accountId, demoId)).toMatchObject({
      title: 'Made before signing up',
      registered: false,
      pending: 1,
    });
    expect(await titleOnDevice({ kind: 'account', accountId }, demoId)).toBe(
      'Made before signing up',
    );
    // The demo's copy on the device is gone (read apart from the registry, which may still hold it).
    const leftover = new Y.Doc();
    const name = documentName({ kind: 'app', appId: demoId });
    const persistence = new IndexeddbPersistence(
      localDatabaseName({ kind: 'demo' }, name),
      leftover,
    );
    await persistence.whenSynced;
    expect(hasDefinition(leftover)).toBe(false);
    await persistence.destroy();
    endAccount(accountId);
  });
});

describe('anonymous visitor data at sign-in', () => {
  async function anonymousNotes(appId: string, ...texts: string[]) {
    const opened = openDeviceDocument(anonymousDataName(appId));
    await opened.whenLocal;
    for (const text of texts) createVisitorRecord(opened.doc, NOTES, { text });
    await markAnonymousData(appId);
    opened.release();
  }

  async function accountNotes(appId: string, accountId: string) {
    const opened = openDocument(
      documentName({ kind: 'data', appId, userId: accountId }),
      { kind: 'account', accountId },
      { connect: false },
    );
    await opened.whenLocal;
    const texts = readVisitorData(opened.doc).records.map((r) => String(r.values.text));
    opened.release();
    return texts.sort();
  }

  it('joins the account’s data once, and the anonymous copy goes', async () => {
    const appId = createId();
    const accountId = createId();
    await anonymousNotes(appId, 'first', 'second');
    expect(await mergeAnonymousVisitorData(accountId)).toEqual([appId]);
    expect(await accountNotes(appId, accountId)).toEqual(['first', 'second']);
    expect(await localDb().anonymousData.get(appId)).toBeUndefined();
    const left = openDeviceDocument(anonymousDataName(appId));
    await left.whenLocal;
    expect(readVisitorData(left.doc).records).toEqual([]);
    left.release();
    // Nothing left to merge: a second run changes nothing.
    expect(await mergeAnonymousVisitorData(accountId)).toEqual([]);
    expect(await accountNotes(appId, accountId)).toEqual(['first', 'second']);
    endAccount(accountId);
  });

  it('waits while the anonymous copy is open in this tab', async () => {
    const appId = createId();
    const accountId = createId();
    await anonymousNotes(appId, 'in use');
    const inUse = openDeviceDocument(anonymousDataName(appId));
    expect(await mergeAnonymousVisitorData(accountId, appId)).toEqual([]);
    expect(await localDb().anonymousData.get(appId)).toBeDefined();
    inUse.release();
    expect(await mergeAnonymousVisitorData(accountId, appId)).toEqual([appId]);
    expect(await accountNotes(appId, accountId)).toEqual(['in use']);
    endAccount(accountId);
  });
});
