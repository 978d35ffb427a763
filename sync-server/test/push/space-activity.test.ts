import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Collection } from '@pipit/app-definition';
import { createId, documentName, type SpaceSummary } from '@pipit/protocol';
import type { Job } from '../../src/scheduler';
import type { ApiClient } from '../support/api-client';
import { errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { testClock } from '../support/clock';
import { ACTIVITY_BATCH_MS, ACTIVITY_GRACE_MS } from '../../src/activity/activity';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { definitionOf, publishDefinition, verifyEmail } from '../support/publishing';
import {
  type PushServiceStandIn,
  startPushServiceStandIn,
  type StandInSubscription,
} from '../support/push-service';

/*
 * A space's activity from its members' side, on the real server with each engine: Ben adds items
 * in the space's document over the socket, as the app does; the server finds what Yjs integrated
 * and keeps it for everyone who turned the space's activity on; the batch's job sends each of
 * them one notification through the push-service stand-in, whose decrypted text is checked.
 * Batches are an hour long here, so the scheduler never runs one by itself during the test: each
 * is run by calling its handler, as the scheduler would.
 */

const HOUR = 60 * 60 * 1000;

interface Person {
  client: ApiClient;
  userId: string;
  username: string;
  device: StandInSubscription;
}

describe.each(ENGINES)('space activity on %s', (engine) => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  let appId: string;
  let spaceId: string;
  let itemsId: string;
  let nameField: string;
  let doneField: string;
  const people = {} as Record<'ana' | 'ben' | 'cleo' | 'dora', Person>;
  let ben: TestProvider;
  const server = () => h.pipit.server;

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer(engine, {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
      activityBatchMs: HOUR,
      storeDebounceMs: 50,
    });
    const suffix = engine.slice(0, 2);
    const definition = definitionOf({ title: 'Household' }, 'household-shopping-list');
    const items = definition.collections.find(
      (c: Collection) => c.sharing === 'space' && c.recordRule === 'anyone',
    )!;
    itemsId = items.id;
    nameField = items.fields.find((f) => f.type === 'text')!.id;
    doneField = items.fields.find((f) => f.type === 'boolean')!.id;
    const creator = await h.signup(`creator_act_${suffix}`);
    await verifyEmail(h, creator);
    appId = await publishDefinition(h, creator, definition);
    for (const name of ['ana', 'ben', 'cleo', 'dora'] as const) {
      const username = `${name}_act_${suffix}`;
      const client = await h.signup(username);
      const userId = await verifyEmail(h, client);
      await client.request('PATCH', '/api/account/profile', {
        body: { displayName: name[0]!.toUpperCase() + name.slice(1) },
      });
      const publicKey = (await client.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
      const device = push.subscribe({ applicationServerKey: publicKey });
      const subscribed = await client.post('/api/push/subscriptions', {
        appId,
        deviceId: createId(),
        subscription: device,
      });
      expect(subscribed.status).toBe(201);
      people[name] = { client, userId, username, device };
    }
    const made = await people.ana.client.post<{ space: SpaceSummary }>(
      `/api/apps/${appId}/spaces`,
      { name: 'Our flat' },
    );
    expect(made.status).toBe(201);
    spaceId = made.body.space.id;
    for (const name of ['ben', 'cleo', 'dora'] as const) {
      const added = await people.ana.client.request(
        'PUT',
        `/api/spaces/${spaceId}/members/${people[name].username}`,
        { body: { role: 'member' } },
      );
      expect(added.status).toBe(201);
    }
    ben = connectProvider({
      url: h.pipit.url,
      name: documentName({ kind: 'space', spaceId }),
      cookie: people.ben.client.cookie,
    });
    expect(await ben.ready).toBe(true);
  }, 60_000);
  afterAll(async () => {
    ben?.destroy();
    await h.close();
    await push.close();
  });

  const choose = (who: Person, body: unknown) =>
    who.client.request('PUT', `/api/spaces/${spaceId}/notifications`, { body });
  const texts = (who: Person) =>
    push.deliveredTo(who.device).map((d) => JSON.parse(d.payload) as Record<string, unknown>);
  /** The batch's job for one recipient, as the scheduler hands it to its handler. */
  const job = (who: Person, id: string): Job<'activity'> => ({
    id,
    kind: 'activity',
    key: `activity:${spaceId}:${who.userId}:test`,
    attempt: 1,
    payload: { spaceId, userId: who.userId, windowEnd: Date.now() + 2 * HOUR },
  });
  const records = () => ben.doc.getMap<Y.Map<unknown>>('records');
  async function benAdds(...names: string[]) {
    const ids: string[] = [];
    for (const name of names) {
      const id = createId();
      ids.push(id);
      ben.doc.transact(() => {
        const record = new Y.Map<unknown>();
        record.set('collectionId', itemsId);
        record.set(
          'values',
          new Y.Map<unknown>([
            [nameField, name],
            [doneField, false],
          ]),
        );
        record.set('createdAt', Date.now());
        record.set('updatedAt', Date.now());
        record.set('authorId', people.ben.userId);
        records().set(id, record);
      });
    }
    await acknowledged(ben.provider);
    await server().spaceActivity.settled();
    return ids;
  }

  it('is off until chosen, and only people in the space may choose', async () => {
    const read = await people.ana.client.get(`/api/spaces/${spaceId}/notifications`);
    expect(read.body).toEqual({ spaceId, enabled: false, showNames: true, devices: 1 });
    const outsider = await h.signup(`out_act_${engine.slice(0, 2)}`);
    const refused = await outsider.request('PUT', `/api/spaces/${spaceId}/notifications`, {
      body: { enabled: true, showNames: true },
    });
    expect(refused.status).toBe(404);
    const bad = await choose(people.ana, { enabled: 'yes', showNames: true });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('validation_failed');
    expect(
      await server().storage.spaceActivity.getPreference(spaceId, people.ana.userId),
    ).toBeNull();

    for (const name of ['ana', 'ben', 'dora'] as const) {
      const on = await choose(people[name], { enabled: true, showNames: true });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ enabled: true, showNames: true });
    }
    expect((await choose(people.cleo, { enabled: false, showNames: true })).status).toBe(200);
    const listed = await people.ana.client.get<{ spaces: unknown[] }>(
      '/api/account/space-notifications',
    );
    expect(listed.body.spaces).toEqual([
      { spaceId, spaceName: 'Our flat', appId, appTitle: expect.any(String), showNames: true },
    ]);
  });

  it('tells Ana of Ben’s burst in one notification, and Ben nothing of his own', async () => {
    await benAdds('Eggs', 'Milk', 'Tea');
    if (engine === 'sqlite') {
      // One batch for the burst, opened by its first change.
      const open = await server().storage.spaceActivity.openWindow(spaceId, people.ana.userId, 0);
      expect(open).toBeGreaterThan(Date.now());
      expect(open).toBeLessThanOrEqual(Date.now() + HOUR);
      const queued = await server().storage.jobs.get(
        `activity:${spaceId}:${people.ana.userId}:${open}`,
      );
      expect(queued?.kind).toBe('activity');
    }
    await server().spaceActivity.deliver(job(people.ana, 'job-ana-1'));
    await server().spaceActivity.deliver(job(people.ben, 'job-ben-1'));
    await server().spaceActivity.deliver(job(people.cleo, 'job-cleo-1'));
    expect(texts(people.ana)).toEqual([
      {
        title: 'Our flat',
        body: 'Ben added 3 items to Our flat',
        path: `/apps/${appId}/pwa`,
        tag: expect.stringMatching(/^s-[A-Za-z0-9_-]{22}$/),
        appId,
      },
    ]);
    expect(texts(people.ben)).toEqual([]);
    // Turned off: nothing.
    expect(texts(people.cleo)).toEqual([]);
    // The same job again (a worker that died after sending), then another instance's: nothing more.
    await server().spaceActivity.deliver(job(people.ana, 'job-ana-1'));
    await server().spaceActivity.deliver(job(people.ana, 'job-ana-2'));
    expect(texts(people.ana)).toHaveLength(1);
  });

  it('names a single item, tells a completion, and keeps names from who prefers none', async () => {
    const [eggs] = await benAdds('Bread');
    await server().spaceActivity.deliver(job(people.ana, 'job-ana-3'));
    expect(texts(people.ana).at(-1)).toMatchObject({ body: 'Ben added Bread to Our flat' });
    expect(await choose(people.ana, { enabled: true, showNames: false })).toMatchObject({
      status: 200,
    });
    ben.doc.transact(() => {
      (records().get(eggs!)!.get('values') as Y.Map<unknown>).set(doneField, true);
    });
    await acknowledged(ben.provider);
    await server().spaceActivity.settled();
    await server().spaceActivity.deliver(job(people.ana, 'job-ana-4'));
    expect(texts(people.ana).at(-1)).toMatchObject({ body: 'Ben completed an item' });
    expect(await choose(people.ana, { enabled: true, showNames: true })).toMatchObject({
      status: 200,
    });
  });

  it('sends two instances racing for one batch one notification', async () => {
    await benAdds('Jam', 'Honey');
    const before = texts(people.ana).length;
    await Promise.all([
      server().spaceActivity.deliver(job(people.ana, 'job-a')),
      server().spaceActivity.deliver(job(people.ana, 'job-b')),
    ]);
    expect(texts(people.ana)).toHaveLength(before + 1);
    expect(texts(people.ana).at(-1)).toMatchObject({ body: 'Ben added 2 items to Our flat' });
  });

  it('tells someone who left nothing, and forgets their choice', async () => {
    await benAdds('Rice');
    const left = await people.dora.client.request(
      'DELETE',
      `/api/spaces/${spaceId}/members/${people.dora.username}`,
    );
    expect(left.status).toBeLessThan(300);
    await server().spaceActivity.deliver(job(people.dora, 'job-dora-1'));
    expect(texts(people.dora)).toEqual([]);
    expect(
      await server().storage.spaceActivity.getPreference(spaceId, people.dora.userId),
    ).toBeNull();
    const after = await people.dora.client.get(`/api/spaces/${spaceId}/notifications`);
    expect(after.status).toBe(404);
  });
});

describe('space activity on the in-process queue', () => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  const clock = testClock();

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer('sqlite', {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
      clock,
      schedulerPollMs: 50,
    });
  });
  afterAll(async () => {
    await h.close();
    await push.close();
  });

  it('sends a batch by itself once its window ends, one notification for the burst', async () => {
    const definition = definitionOf({ title: 'Household' }, 'household-shopping-list');
    const items = definition.collections.find(
      (c: Collection) => c.sharing === 'space' && c.recordRule === 'anyone',
    )!;
    const nameField = items.fields.find((f) => f.type === 'text')!.id;
    const creator = await h.signup('creator_q');
    await verifyEmail(h, creator);
    const appId = await publishDefinition(h, creator, definition);
    const ana = await h.signup('ana_q');
    await verifyEmail(h, ana);
    const ben = await h.signup('ben_q');
    const benId = await verifyEmail(h, ben);
    await ben.request('PATCH', '/api/account/profile', { body: { displayName: 'Ben' } });
    const publicKey = (await ana.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
    const device = push.subscribe({ applicationServerKey: publicKey });
    await ana.post('/api/push/subscriptions', {
      appId,
      deviceId: createId(),
      subscription: device,
    });
    const made = await ana.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Our flat',
    });
    const spaceId = made.body.space.id;
    await ana.request('PUT', `/api/spaces/${spaceId}/members/ben_q`, { body: { role: 'member' } });
    const on = await ana.request('PUT', `/api/spaces/${spaceId}/notifications`, {
      body: { enabled: true, showNames: true },
    });
    expect(on.status).toBe(200);

    const side = connectProvider({
      url: h.pipit.url,
      name: documentName({ kind: 'space', spaceId }),
      cookie: ben.cookie,
    });
    try {
      expect(await side.ready).toBe(true);
      for (const name of ['Eggs', 'Milk', 'Tea']) {
        side.doc.transact(() => {
          const record = new Y.Map<unknown>();
          record.set('collectionId', items.id);
          record.set('values', new Y.Map<unknown>([[nameField, name]]));
          record.set('createdAt', Date.now());
          record.set('updatedAt', Date.now());
          record.set('authorId', benId);
          side.doc.getMap('records').set(createId(), record);
        });
      }
      await acknowledged(side.provider);
      await h.pipit.server.spaceActivity.settled();
      expect(push.deliveredTo(device)).toEqual([]);
      // Past the window's end and its grace: the scheduler runs the batch's job by itself.
      const due = Date.now() + ACTIVITY_BATCH_MS + ACTIVITY_GRACE_MS + 1_000;
      await clock.later(due - Date.now(), async () => {
        await expect.poll(() => push.deliveredTo(device).length, { timeout: 10_000 }).toBe(1);
      });
      expect(JSON.parse(push.deliveredTo(device)[0]!.payload)).toMatchObject({
        title: 'Our flat',
        body: 'Ben added 3 items to Our flat',
        path: `/apps/${appId}/pwa`,
      });
      // Told, then deleted: nothing waits any more.
      await expect.poll(() => h.pipit.server.storage.spaceActivity.anyWaiting()).toBe(false);
    } finally {
      side.destroy();
    }
  });
});
