import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import type { Collection } from '@pipit/app-definition';
import { createId, documentName, type SpaceSummary } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { definitionOf, publishDefinition, verifyEmail } from '../support/publishing';
import { RawSyncClient, updateMessage } from '../support/raw-sync';
import { spaceRecord, storedSpaceRecords } from '../support/space-records';
import { sleep } from '../support/timing';

/*
 * Found by a review: a connection is granted when it authenticates, but joins
 * its document only once the document is loaded. A decision made in between — a member removed,
 * made a reader, a session ended — closed the connections it found open, and this one was not
 * among them: once loaded, it wrote as before, for as long as the socket stayed open. Now a
 * connection granted before a decision this instance carried out is checked again as it joins
 * and before its messages (collab/authenticate.ts, AccessEpoch). Here the space's load is slowed
 * (a busy database, a large space), so the decision always falls in between.
 */

const LOAD_DELAY_MS = 1_000;

describe.each(ENGINES)('a grant that goes stale while its document loads (%s)', (engine) => {
  let h: AccountsHarness;
  let bob: ApiClient;
  let eve: { client: ApiClient; userId: string; username: string };
  let collectionId: string;
  let spaceId: string;
  let name: string;
  let slowLoads = false;

  /** Eve's socket, her space's document asked for while it will load slowly. */
  async function eveOpensTheSpace(client: ApiClient) {
    await vi.waitFor(() => expect(h.pipit.server.hocuspocus.documents.has(name)).toBe(false), {
      timeout: 15_000,
    });
    const raw = await RawSyncClient.open(
      h.pipit.url,
      documentName({ kind: 'user', userId: eve.userId }),
      { cookie: client.cookie },
    );
    slowLoads = true;
    expect(await raw.authenticate(name)).toMatchObject({ type: 'authenticated' });
    return raw;
  }

  /** Her update after the decision: how the server answered, and whether it was stored. */
  async function eveWrites(raw: RawSyncClient) {
    const doc = new Y.Doc();
    const id = createId();
    doc.getMap('records').set(id, spaceRecord(collectionId, eve.userId, 'After the decision'));
    const answer = await raw.sendAndAnswer(name, updateMessage(name, Y.encodeStateAsUpdate(doc)));
    slowLoads = false;
    return { answer, stored: id in (await storedSpaceRecords(h.pipit.server.storage, name)) };
  }

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50 });
    const suffix = engine.slice(0, 2);
    const maker = await h.signup(`maker_${suffix}`);
    await verifyEmail(h, maker);
    bob = await h.signup(`bob_${suffix}`);
    const eveClient = await h.signup(`eve_${suffix}`);
    eve = { client: eveClient, userId: await verifyEmail(h, eveClient), username: `eve_${suffix}` };
    const definition = definitionOf({ title: 'Chores' }, 'household-shopping-list');
    collectionId = definition.collections.find(
      (c: Collection) => c.sharing === 'space' && c.recordRule === 'anyone',
    )!.id;
    const appId = await publishDefinition(h, maker, definition);
    const made = await bob.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Our flat',
    });
    spaceId = made.body.space.id;
    name = documentName({ kind: 'space', spaceId });
    const documents = h.pipit.server.storage.documents;
    const load = documents.loadWithLog.bind(documents);
    documents.loadWithLog = async (loading) => {
      const stored = await load(loading);
      if (slowLoads && loading === name) {
        // A slow load on purpose: the decision falls while it runs (see above).
        await sleep(LOAD_DELAY_MS);
      }
      return stored;
    };
  }, 60_000);
  afterAll(() => h.close());

  const setRole = (role: 'member' | 'reader') =>
    bob.request('PUT', `/api/spaces/${spaceId}/members/${eve.username}`, { body: { role } });

  it('closes the connection of a member removed while it loaded; nothing she sends is stored', async () => {
    expect((await setRole('member')).status).toBe(201);
    const raw = await eveOpensTheSpace(eve.client);
    try {
      const removed = await bob.request('DELETE', `/api/spaces/${spaceId}/members/${eve.username}`);
      expect(removed.status).toBe(200);
      const { answer, stored } = await eveWrites(raw);
      expect(answer).toMatchObject({ type: 'close-message', reason: 'forbidden' });
      expect(stored).toBe(false);
    } finally {
      raw.close();
    }
  });

  it('closes, with role_changed, the connection of a member made a reader while it loaded', async () => {
    expect((await setRole('member')).status).toBe(201);
    const raw = await eveOpensTheSpace(eve.client);
    try {
      expect((await setRole('reader')).status).toBe(200);
      const { answer, stored } = await eveWrites(raw);
      expect(answer).toMatchObject({ type: 'close-message', reason: 'role_changed' });
      expect(stored).toBe(false);
    } finally {
      raw.close();
    }
  });

  it('closes the connection of a session ended while it loaded ("sign out everywhere else")', async () => {
    expect((await setRole('member')).status).toBe(200);
    // A copy of Eve's session (a stolen cookie) opens the space; Eve ends every other session.
    const elsewhere = await h.login(eve.username);
    const raw = await eveOpensTheSpace(eve.client);
    try {
      const ended = await elsewhere.post<{ ended: number }>('/api/account/sessions/revoke-others');
      expect(ended.body.ended).toBeGreaterThanOrEqual(1);
      const { answer, stored } = await eveWrites(raw);
      expect(answer).toMatchObject({ type: 'close-message', reason: 'forbidden' });
      expect(stored).toBe(false);
    } finally {
      raw.close();
    }
  });

  it('lets a connection whose grant still holds write as before', async () => {
    const me = await h.login(eve.username);
    const raw = await eveOpensTheSpace(me);
    try {
      // A decision about someone else, carried out while she loads.
      const other = await h.signup(`other_${engine.slice(0, 2)}`);
      void other;
      expect(
        (
          await bob.request('PUT', `/api/spaces/${spaceId}/members/other_${engine.slice(0, 2)}`, {
            body: { role: 'member' },
          })
        ).status,
      ).toBe(201);
      expect(
        (await bob.request('DELETE', `/api/spaces/${spaceId}/members/other_${engine.slice(0, 2)}`))
          .status,
      ).toBe(200);
      const { answer, stored } = await eveWrites(raw);
      expect(answer).toMatchObject({ type: 'sync-status', applied: true });
      expect(stored).toBe(true);
    } finally {
      raw.close();
    }
  });
});
