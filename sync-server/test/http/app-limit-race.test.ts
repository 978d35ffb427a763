import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, PLAN_LIMITS } from '@pipit/protocol';
import { errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { importFile, pipitFileWithImages } from '../support/portable';

/*
 * Every count-then-insert must be atomic; a review found the plan's
 * apps counted, then written, by registrations and imports alike. Racing them with room for one
 * made several. Now apps.insert and commitImport count under the owner's hold (kysely/shared.ts
 * holdRow), and the answer of the one that loses is the same `limit_reached` as before.
 */

describe.each(ENGINES)('the plan’s apps when registrations and imports race (%s)', (engine) => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer(engine);
  });
  afterAll(() => h.close());

  /** A person who owns `count` apps already, and their id. */
  async function personOwning(username: string, count: number) {
    const client = await h.signup(username);
    const me = await client.get<{ account: { id: string } }>('/api/auth/session');
    const userId = me.body.account.id;
    for (let i = 0; i < count; i++) {
      await h.pipit.server.storage.apps.insert({
        id: createId(),
        ownerId: userId,
        title: `App ${i}`,
        description: '',
        icon: null,
        createdAt: i,
        forkedFrom: null,
        forkedFromPublic: false,
      });
    }
    return { client, userId };
  }

  it('makes one app of five registered at once with room for one', async () => {
    const { client, userId } = await personOwning(
      `many_${engine.slice(0, 2)}`,
      PLAN_LIMITS.apps - 1,
    );
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        client.post('/api/apps', { id: createId(), title: `Raced ${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => errorCode(a) === 'limit_reached')).toHaveLength(4);
    expect(await h.pipit.server.storage.apps.countOwned(userId)).toBe(PLAN_LIMITS.apps);
    // The same device asking again for the app it made is answered, full or not.
    const made = answers.find((a) => a.status === 201)!.body as { app: { id: string } };
    const again = await client.post('/api/apps', { id: made.app.id, title: 'Raced' });
    expect(again.status).toBe(200);
  });

  it('makes at most the room left when imports and registrations race', async () => {
    const { client, userId } = await personOwning(
      `mixed_${engine.slice(0, 2)}`,
      PLAN_LIMITS.apps - 2,
    );
    const answers = await Promise.all([
      importFile(client, pipitFileWithImages([], 'Imported one'), '?copy=1'),
      importFile(client, pipitFileWithImages([], 'Imported two'), '?copy=1'),
      client.post('/api/apps', { id: createId(), title: 'Registered one' }),
      client.post('/api/apps', { id: createId(), title: 'Registered two' }),
    ]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => errorCode(a) === 'limit_reached')).toHaveLength(2);
    expect(await h.pipit.server.storage.apps.countOwned(userId)).toBe(PLAN_LIMITS.apps);
  });
});
