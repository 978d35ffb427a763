import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import type { Collection } from '@pipit/app-definition';
import { createId, documentName, type SpaceSummary } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { craft, type CraftedStruct } from '../support/crafted-updates';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider } from '../support/provider';
import { definitionOf, publishDefinition, verifyEmail } from '../support/publishing';
import { RawSyncClient, updateMessage } from '../support/raw-sync';
import { spaceRecord, storedSpaceRecords } from '../support/space-records';

/*
 * Found by a review: a Yjs client id is chosen by the client. A member (Eve)
 * wrote under another member's (Bob's) client id at the clocks he had not sent yet — garbage, or an
 * item in her own record — and when Bob's record made offline at those clocks arrived, the server
 * had "them" already and dropped it; with garbage, Bob's own device deleted it too. Now the first
 * account to write under a client id in a document owns it there, and parts under someone else's
 * are refused (collab/client-owners.ts, DocumentStore.claimClients).
 */

describe.each(ENGINES)('writing under another person’s client id (%s)', (engine) => {
  let h: AccountsHarness;
  let bob: { client: ApiClient; userId: string };
  let eve: { client: ApiClient; userId: string };
  let collectionId: string;
  let name: string;

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50 });
    const suffix = engine.slice(0, 2);
    const maker = await h.signup(`maker_${suffix}`);
    await verifyEmail(h, maker);
    const bobClient = await h.signup(`bob_${suffix}`);
    bob = { client: bobClient, userId: await verifyEmail(h, bobClient) };
    const eveClient = await h.signup(`eve_${suffix}`);
    eve = { client: eveClient, userId: await verifyEmail(h, eveClient) };
    const definition = definitionOf({ title: 'Chores' }, 'household-shopping-list');
    collectionId = definition.collections.find(
      (c: Collection) => c.sharing === 'space' && c.recordRule === 'author',
    )!.id;
    const appId = await publishDefinition(h, maker, definition);
    const made = await bob.client.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Our flat',
    });
    name = documentName({ kind: 'space', spaceId: made.body.space.id });
    const added = await bob.client.request(
      'PUT',
      `/api/spaces/${made.body.space.id}/members/eve_${suffix}`,
      { body: { role: 'member' } },
    );
    expect(added.status).toBe(201);
  }, 60_000);
  afterAll(() => h.close());

  it.each<[string, (values: Y.Item, length: number) => CraftedStruct]>([
    ['garbage', (_values, length) => ({ gc: length })],
    [
      'an item in her own record',
      (values, length) => ({
        any: Array.from({ length }, (_, i) => i),
        parent: [values.id.client, values.id.clock],
        key: 'notes',
      }),
    ],
  ])('refuses %s at his next clocks; his record made offline arrives', async (_, squatOf) => {
    const eveSide = connectProvider({ url: h.pipit.url, name, cookie: eve.client.cookie });
    const bobDoc = new Y.Doc();
    const bobOnline = connectProvider({
      url: h.pipit.url,
      name,
      cookie: bob.client.cookie,
      doc: bobDoc,
    });
    let raw: RawSyncClient | null = null;
    try {
      expect(await eveSide.ready).toBe(true);
      const eveRecordId = createId();
      eveSide.doc.getMap('records').set(eveRecordId, spaceRecord(collectionId, eve.userId, 'Hers'));
      await acknowledged(eveSide.provider);
      expect(await bobOnline.ready).toBe(true);
      bobDoc.getMap('records').set(createId(), spaceRecord(collectionId, bob.userId, 'Online'));
      await acknowledged(bobOnline.provider);
      bobOnline.destroy();

      // Offline, Bob adds a record under the same client id.
      const bobClient = bobDoc.clientID;
      const before = Y.getState(bobDoc.store, bobClient);
      const offline = createId();
      bobDoc.getMap('records').set(offline, spaceRecord(collectionId, bob.userId, 'Made offline'));
      const length = Y.getState(bobDoc.store, bobClient) - before;

      // Eve, seeing his client id and clock in her copy, writes there first.
      await vi.waitFor(() => expect(Y.getState(eveSide.doc.store, bobClient)).toBe(before));
      const values = (
        (eveSide.doc.getMap('records').get(eveRecordId) as Y.Map<unknown>).get(
          'values',
        ) as Y.Map<unknown>
      )._item!;
      raw = await RawSyncClient.open(h.pipit.url, name, { cookie: eve.client.cookie });
      const squat = craft([[bobClient, before, [squatOf(values, length)]]]);
      const answer = await raw.sendAndAnswer(name, updateMessage(name, squat));
      expect(answer).toMatchObject({ type: 'close-message', reason: 'update_rejected' });
      expect(h.pipit.logs.findLast((l) => l.msg === 'refused a sync message')).toMatchObject({
        why: "writes under someone else's client id",
        client: bobClient,
      });

      // Bob back online: his record arrives, and is stored.
      const bobBack = connectProvider({
        url: h.pipit.url,
        name,
        cookie: bob.client.cookie,
        doc: bobDoc,
      });
      try {
        expect(await bobBack.ready).toBe(true);
        await acknowledged(bobBack.provider);
        await vi.waitFor(async () =>
          expect(Object.keys(await storedSpaceRecords(h.pipit.server.storage, name))).toContain(
            offline,
          ),
        );
        expect(bobDoc.getMap('records').has(offline)).toBe(true);
      } finally {
        bobBack.destroy();
      }
    } finally {
      raw?.close();
      eveSide.destroy();
      bobOnline.destroy();
    }
  });

  it('claims a client id named in presence before anyone else hears of it', async () => {
    // Bob opens the space: his presence names his client id before he writes anything.
    const bobSide = connectProvider({ url: h.pipit.url, name, cookie: bob.client.cookie });
    const eveSide = connectProvider({ url: h.pipit.url, name, cookie: eve.client.cookie });
    let raw: RawSyncClient | null = null;
    try {
      expect(await Promise.all([bobSide.ready, eveSide.ready])).toEqual([true, true]);
      bobSide.provider.awareness!.setLocalStateField('user', { id: bob.userId, name: 'Bob' });
      const bobClient = bobSide.doc.clientID;
      await vi.waitFor(() =>
        expect(eveSide.provider.awareness!.getStates().has(bobClient)).toBe(true),
      );
      // Eve, who heard it, writes under it first: refused, it is his.
      raw = await RawSyncClient.open(h.pipit.url, name, { cookie: eve.client.cookie });
      const first = craft([[bobClient, 0, [{ any: [1], parent: 'records', key: createId() }]]]);
      expect(await raw.sendAndAnswer(name, updateMessage(name, first))).toMatchObject({
        type: 'close-message',
        reason: 'update_rejected',
      });
      // His first record goes through.
      const his = createId();
      bobSide.doc.getMap('records').set(his, spaceRecord(collectionId, bob.userId, 'Mine'));
      await acknowledged(bobSide.provider);
      expect(Object.keys(await storedSpaceRecords(h.pipit.server.storage, name))).toContain(his);
    } finally {
      raw?.close();
      bobSide.destroy();
      eveSide.destroy();
    }
  });

  it('decides between two writers of one new client id in the database, once', async () => {
    // Two accounts claim the same client id at once (two instances would race the same way):
    // exactly one owns it.
    const client = 7_000_000 + Math.floor(Math.random() * 1_000_000);
    const claims = await Promise.all(
      [bob.userId, eve.userId].map((userId) =>
        h.pipit.server.storage.documents.claimClients(name, userId, [client]),
      ),
    );
    const owners = claims.map((owners) => owners.get(client));
    expect(owners[0]).toBe(owners[1]);
    expect([bob.userId, eve.userId]).toContain(owners[0]);
    // Claiming it again, beside a new one and twice in one list: the owner stays, the new one is
    // the claimer's, in one answer.
    const fresh = client + 1;
    const again = await h.pipit.server.storage.documents.claimClients(name, eve.userId, [
      client,
      fresh,
      fresh,
    ]);
    expect(again).toEqual(
      new Map([
        [client, owners[0]],
        [fresh, eve.userId],
      ]),
    );
    // Deleting the document forgets who wrote what.
    const other = `app/${createId()}`;
    await h.pipit.server.storage.documents.claimClients(other, bob.userId, [client]);
    await h.pipit.server.storage.documents.delete(other);
    expect(
      (await h.pipit.server.storage.documents.claimClients(other, eve.userId, [client])).get(
        client,
      ),
    ).toBe(eve.userId);
  });
});
