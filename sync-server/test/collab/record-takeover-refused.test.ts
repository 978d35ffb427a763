import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Collection } from '@pipit/app-definition';
import { createId, documentName, type SpaceSummary } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { craft } from '../support/crafted-updates';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider } from '../support/provider';
import { definitionOf, publishDefinition, verifyEmail } from '../support/publishing';
import { RawSyncClient, updateMessage } from '../support/raw-sync';
import { spaceRecord, type StoredRecord, storedSpaceRecords } from '../support/space-records';

/*
 * A member took over another member's record under the `author` rule with one
 * crafted struct. Bob adds a chore, so his client's last item is that record's `authorId`. Eve
 * sends one struct with Bob's client id, clock = Bob's state − 1, length 2, naming her own record
 * and its key `updatedAt`. The guard judged it where it said it goes; Yjs integrates the part the
 * server lacks next to Bob's last item — inside Bob's record — and deletes that item. Live, Bob's
 * record lost its author; stored and read again, its author was Eve. Here the bytes go over the
 * real socket, and the outcome is read from storage.
 */

describe.each(ENGINES)('a member cannot take over a record part-way (%s)', (engine) => {
  let h: AccountsHarness;
  let bob: { client: ApiClient; userId: string };
  let eve: { client: ApiClient; userId: string };
  let collectionId: string;
  let name: string;

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50 });
    const suffix = engine.slice(0, 2);
    const creator = await h.signup(`maker_${suffix}`);
    await verifyEmail(h, creator);
    const bobClient = await h.signup(`bob_${suffix}`);
    bob = { client: bobClient, userId: await verifyEmail(h, bobClient) };
    const eveClient = await h.signup(`eve_${suffix}`);
    eve = { client: eveClient, userId: await verifyEmail(h, eveClient) };
    const definition = definitionOf({ title: 'Chores' }, 'household-shopping-list');
    collectionId = definition.collections.find(
      (c: Collection) => c.sharing === 'space' && c.recordRule === 'author',
    )!.id;
    const appId = await publishDefinition(h, creator, definition);
    const made = await bob.client.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Our flat',
    });
    expect(made.status).toBe(201);
    const spaceId = made.body.space.id;
    name = documentName({ kind: 'space', spaceId });
    const added = await bob.client.request('PUT', `/api/spaces/${spaceId}/members/eve_${suffix}`, {
      body: { role: 'member' },
    });
    expect(added.status).toBe(201);
  }, 60_000);
  afterAll(() => h.close());

  it('refuses a struct that says it goes in her record but lands in his', async () => {
    const bobSide = connectProvider({ url: h.pipit.url, name, cookie: bob.client.cookie });
    const eveSide = connectProvider({ url: h.pipit.url, name, cookie: eve.client.cookie });
    let raw: RawSyncClient | null = null;
    try {
      expect(await eveSide.ready).toBe(true);
      const eveRecordId = createId();
      eveSide.doc.getMap('records').set(eveRecordId, spaceRecord(collectionId, eve.userId));
      await acknowledged(eveSide.provider);

      expect(await bobSide.ready).toBe(true);
      const bobRecordId = createId();
      bobSide.doc.getMap('records').set(bobRecordId, spaceRecord(collectionId, bob.userId));
      await acknowledged(bobSide.provider);
      const before = await storedSpaceRecords(h.pipit.server.storage, name);
      expect(before[bobRecordId]).toMatchObject({ authorId: bob.userId });

      const bobClient = bobSide.doc.clientID;
      const bobState = Y.getState(bobSide.doc.store, bobClient);
      const eveRecord = (eveSide.doc.getMap('records').get(eveRecordId) as Y.Map<unknown>)._item!;
      // One struct of two values under Bob's client: the first is his last item (the record's
      // authorId), the second is new. It names Eve's record and its key `updatedAt`.
      const crafted = craft([
        [
          bobClient,
          bobState - 1,
          [
            {
              any: [2, eve.userId],
              parent: [eveRecord.id.client, eveRecord.id.clock],
              key: 'updatedAt',
            },
          ],
        ],
      ]);

      raw = await RawSyncClient.open(h.pipit.url, name, { cookie: eve.client.cookie });
      const answer = await raw.sendAndAnswer(name, updateMessage(name, crafted));
      expect(answer).toMatchObject({ type: 'close-message', reason: 'update_rejected' });
      // Refused twice over: Bob's client id is his (client-owners.ts), and the struct's new half
      // would land elsewhere than it says (yjs-integration.ts, tested alone in space-guard.test.ts).
      const line = h.pipit.logs.findLast((l) => l.msg === 'refused a sync message');
      expect(line).toMatchObject({
        documentName: name,
        why: "writes under someone else's client id",
      });

      // Bob's record keeps its author, live and as stored; Bob may still edit it.
      const live = h.pipit.server.hocuspocus.documents.get(name)!;
      const liveRecords = live.getMap('records').toJSON() as Record<string, StoredRecord>;
      expect(liveRecords[bobRecordId]).toMatchObject({ authorId: bob.userId });
      const bobRecord = bobSide.doc.getMap('records').get(bobRecordId) as Y.Map<unknown>;
      bobRecord.set('updatedAt', 3);
      await acknowledged(bobSide.provider);
      const after = await storedSpaceRecords(h.pipit.server.storage, name);
      expect(after[bobRecordId]).toMatchObject({ authorId: bob.userId, updatedAt: 3 });
      expect(after[eveRecordId]).toEqual(before[eveRecordId]);
    } finally {
      raw?.close();
      bobSide.destroy();
      eveSide.destroy();
    }
  });
});
