import { createId } from '@pipit/protocol';
import { afterEach, expect, it } from 'vitest';
import * as Y from 'yjs';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { RawSyncClient, updateMessage } from '../support/raw-sync';
import { sleep } from '../support/timing';

let h: AccountsHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Deleting an app while someone opens it: a connection granted while the deletion runs is closed
 * with the others, and nothing it sends is stored. (The window is widened by slowing the row's
 * deletion; in production it is one transaction.)
 */
it('closes a connection opened while its app is deleted; nothing of it is stored', async () => {
  h = await startAccountsServer('sqlite', { storeDebounceMs: 50 });
  const owner = await h.signup('owner');
  const id = createId();
  expect((await owner.post('/api/apps', { id, title: 'Doomed' })).status).toBe(201);
  expect(
    (await owner.request('PUT', `/api/apps/${id}/archived`, { body: { archived: true } })).status,
  ).toBe(200);
  const name = `app/${id}`;
  const apps = h.pipit.server.storage.apps;
  const realDelete = apps.delete.bind(apps);
  let inWindow!: () => void;
  const windowOpen = new Promise<void>((resolve) => (inWindow = resolve));
  apps.delete = async (appId, at) => {
    inWindow();
    // Deliberately slow: holds the delete open while the connection below arrives.
    await sleep(300);
    return realDelete(appId, at);
  };
  const deleting = owner.request('DELETE', `/api/apps/${id}`);
  await windowOpen;
  const raw = await RawSyncClient.open(h.pipit.url, name, { cookie: owner.cookie });
  expect((await deleting).status).toBe(200);
  await raw.next((e) => e.type === 'close-message' && e.document === name);
  const doc = new Y.Doc();
  doc.getMap('meta').set('title', 'written after the deletion');
  raw.send(updateMessage(name, Y.encodeStateAsUpdate(doc)));
  // Opened again now, it is refused as deleted.
  expect(await raw.authenticate(name)).toMatchObject({
    type: 'permission-denied',
    reason: 'deleted',
  });
  const stored = await h.pipit.server.storage.documents.loadWithLog(name);
  expect(stored.snapshot).toBeNull();
  expect(stored.log).toEqual([]);
  raw.close();
});
