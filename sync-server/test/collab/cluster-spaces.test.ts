import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentName, type SpaceSummary } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type TestCluster, startTestCluster } from '../support/cluster';
import { connectProvider, type TestProvider } from '../support/provider';
import { createPublishedApp } from '../support/published-apps';

const closedWith = (client: TestProvider) =>
  new Promise<string>((resolve) =>
    client.provider.on('close', ({ event }: { event: { reason: string } }) =>
      resolve(event.reason),
    ),
  );

describe('shared spaces on several instances (docs/product/spaces.md)', () => {
  let cluster: TestCluster;
  let owner: ApiClient;
  let member: ApiClient;
  let appId: string;
  const providers: TestProvider[] = [];

  /** A space of the owner's, made through instance 0, with the member in it. */
  async function space() {
    const made = await owner.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Our flat',
    });
    expect(made.status).toBe(201);
    const id = made.body.space.id;
    const added = await owner.request('PUT', `/api/spaces/${id}/members/member_s`, {
      body: { role: 'member' },
    });
    expect(added.status).toBe(201);
    return id;
  }

  /** The member's connection to the space's document, on instance 1. */
  async function memberOnInstance1(spaceId: string) {
    const side = connectProvider({
      url: cluster.instances[1]!.pipit.url,
      name: documentName({ kind: 'space', spaceId }),
      cookie: member.cookie,
    });
    providers.push(side);
    expect(await side.ready).toBe(true);
    return side;
  }

  beforeAll(async () => {
    cluster = await startTestCluster(2, { storeDebounceMs: 50 });
    owner = await cluster.signup('owner_s');
    member = await cluster.signup('member_s', 1);
    appId = await createPublishedApp(cluster.instances[0]!.pipit.server.storage, owner);
  }, 60_000);
  afterEach(() => {
    for (const p of providers.splice(0)) p.destroy();
  });
  afterAll(() => cluster.close());

  it('closes a removed member’s connection on every instance', async () => {
    const id = await space();
    const side = await memberOnInstance1(id);
    const reason = closedWith(side);
    const removed = await owner.request('DELETE', `/api/spaces/${id}/members/member_s`);
    expect(removed.status).toBe(200);
    expect(await reason).toBe('forbidden');
  });

  it('closes every connection to a deleted space on every instance', async () => {
    const id = await space();
    const side = await memberOnInstance1(id);
    const reason = closedWith(side);
    expect((await owner.request('DELETE', `/api/spaces/${id}`)).status).toBe(200);
    expect(await reason).toBe('forbidden');
  });
});
