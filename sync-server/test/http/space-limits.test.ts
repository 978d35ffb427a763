import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import type { Collection } from '@pipit/app-definition';
import { createId, documentName, SPACE_LIMITS, type SpaceSummary } from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  ROOMY_RATE_LIMITS,
  startAccountsServer,
} from '../support/engines';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { definitionOf, publishDefinition, verifyEmail } from '../support/publishing';
import { spaceRecord, storedSpaceRecords } from '../support/space-records';
import { sleep } from '../support/timing';

/*
 * Every space limit could be passed by racing on PostgreSQL — 26/20 people by
 * adding, 26/20 by accepting links, 26/20 open links, 56/50 spaces, 5,030/5,000 records. The
 * routes checked, then wrote. Here each limit is raced with concurrent requests (and, for
 * records, concurrent sockets) on both engines, and the outcome is read back from storage.
 * Point 9's space items too: adding someone who cannot see the app, a removed member's links, and
 * making spaces without end.
 */

const RECORD_LIMIT = 12;

describe.each(ENGINES)('space limits hold under racing requests (%s)', (engine) => {
  let h: AccountsHarness;
  let owner: ApiClient;
  let creator: ApiClient;
  let appId: string;
  let collectionId: string;
  /** People beyond the limits: more than a space holds. */
  const people: Array<{ client: ApiClient; username: string; userId: string }> = [];
  const suffix = engine.slice(0, 2);
  const RACERS = SPACE_LIMITS.membersPerSpace + 5;

  const makeSpace = (client: ApiClient, name = 'Our flat') =>
    client.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, { name });

  beforeAll(async () => {
    h = await startAccountsServer(engine, {
      storeDebounceMs: 50,
      // Each update waits for its own write to the log before it is applied, as when the
      // database is slow: the window in which others' updates are judged without it is widest.
      resourceLimits: { spaceRecords: RECORD_LIMIT, logWaitingBytes: 1 },
      rateLimits: {
        ...ROOMY_RATE_LIMITS,
        spacesCreatedPerAccount: { limit: SPACE_LIMITS.spacesPerPerson + 10, windowMs: 3_600_000 },
      },
    });
    creator = await h.signup(`maker_${suffix}`);
    await verifyEmail(h, creator);
    owner = await h.signup(`owner_${suffix}`);
    const definition = definitionOf({ title: 'Chores' }, 'household-shopping-list');
    collectionId = definition.collections.find(
      (c: Collection) => c.sharing === 'space' && c.recordRule === 'anyone',
    )!.id;
    appId = await publishDefinition(h, creator, definition);
    for (let i = 0; i < RACERS; i++) {
      const username = `racer${i}_${suffix}`;
      const client = await h.signup(username);
      const me = await client.get<{ account: { id: string } }>('/api/auth/session');
      people.push({ client, username, userId: me.body.account.id });
    }
  }, 120_000);
  afterAll(() => h.close());

  it(`adds at most ${SPACE_LIMITS.membersPerSpace} people, added by the owner all at once`, async () => {
    const id = (await makeSpace(owner)).body.space.id;
    const answers = await Promise.all(
      people.map((p) =>
        owner.request('PUT', `/api/spaces/${id}/members/${p.username}`, {
          body: { role: 'member' },
        }),
      ),
    );
    const added = answers.filter((a) => a.status === 201).length;
    expect(added).toBe(SPACE_LIMITS.membersPerSpace - 1);
    expect(answers.filter((a) => errorCode(a) === 'limit_reached')).toHaveLength(RACERS - added);
    expect(await h.pipit.server.storage.spaces.memberCount(id)).toBe(SPACE_LIMITS.membersPerSpace);
  });

  it(`lets at most ${SPACE_LIMITS.membersPerSpace} people in with one link, all accepting at once`, async () => {
    const id = (await makeSpace(owner)).body.space.id;
    const link = await owner.post<{ token: string }>(`/api/spaces/${id}/invites`, {
      role: 'member',
    });
    expect(link.status).toBe(201);
    const answers = await Promise.all(
      people.map((p) => p.client.post(`/api/space-invites/${link.body.token}/accept`)),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(SPACE_LIMITS.membersPerSpace - 1);
    expect(await h.pipit.server.storage.spaces.memberCount(id)).toBe(SPACE_LIMITS.membersPerSpace);
  });

  it(`keeps at most ${SPACE_LIMITS.invitesPerSpace} open links, asked for all at once`, async () => {
    const id = (await makeSpace(owner)).body.space.id;
    const answers = await Promise.all(
      Array.from({ length: SPACE_LIMITS.invitesPerSpace + 6 }, () =>
        owner.post(`/api/spaces/${id}/invites`, { role: 'reader' }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(SPACE_LIMITS.invitesPerSpace);
    expect(await h.pipit.server.storage.spaces.openInvites(id, Date.now())).toHaveLength(
      SPACE_LIMITS.invitesPerSpace,
    );
  });

  it(`makes at most ${SPACE_LIMITS.spacesPerPerson} spaces for one person, all at once`, async () => {
    const busy = await h.signup(`busy_${suffix}`);
    const answers = await Promise.all(
      Array.from({ length: SPACE_LIMITS.spacesPerPerson + 6 }, (_, i) =>
        makeSpace(busy, `Space ${i}`),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(SPACE_LIMITS.spacesPerPerson);
    const me = await busy.get<{ account: { id: string } }>('/api/auth/session');
    expect(await h.pipit.server.storage.spaces.countForUser(me.body.account.id)).toBe(
      SPACE_LIMITS.spacesPerPerson,
    );
  });

  it(`stores at most ${RECORD_LIMIT} records, added by many people at the same moment`, async () => {
    const id = (await makeSpace(owner)).body.space.id;
    const name = documentName({ kind: 'space', spaceId: id });
    const writers = people.slice(0, RECORD_LIMIT);
    for (const p of writers) {
      const added = await owner.request('PUT', `/api/spaces/${id}/members/${p.username}`, {
        body: { role: 'member' },
      });
      expect(added.status).toBe(201);
    }
    const sides: TestProvider[] = writers.map((p) =>
      connectProvider({ url: h.pipit.url, name, cookie: p.client.cookie }),
    );
    try {
      expect(await Promise.all(sides.map((s) => s.ready))).toEqual(sides.map(() => true));
      // The space holds two short of its limit; everyone adds one at once.
      const first = sides[0]!;
      first.doc.transact(() => {
        for (let i = 0; i < RECORD_LIMIT - 2; i++) {
          first.doc
            .getMap('records')
            .set(createId(), spaceRecord(collectionId, writers[0]!.userId));
        }
      });
      await acknowledged(first.provider);
      for (const side of sides) await waitForRecords(side.doc, RECORD_LIMIT - 2);
      // Everyone adds one in the same turn; each is stored or refused.
      const outcomes = sides.map((side) => handled(side));
      for (const [i, side] of sides.entries()) {
        side.doc.getMap('records').set(createId(), spaceRecord(collectionId, writers[i]!.userId));
      }
      const settled = await Promise.all(outcomes);
      expect(settled.filter((o) => o === 'stored')).toHaveLength(2);
      expect(settled.filter((o) => o === 'update_rejected')).toHaveLength(RECORD_LIMIT - 2);
      expect(Object.keys(await storedSpaceRecords(h.pipit.server.storage, name)).length).toBe(
        RECORD_LIMIT,
      );
    } finally {
      sides.forEach((s) => s.destroy());
    }
  });

  it('refuses adding someone who may not see the app any more', async () => {
    const id = (await makeSpace(owner)).body.space.id;
    const privateApp = await publishDefinition(
      h,
      creator,
      definitionOf({ title: 'Private' }, 'household-shopping-list'),
    );
    const theirs = await owner.post<{ space: SpaceSummary }>(`/api/apps/${privateApp}/spaces`, {
      name: 'Soon private',
    });
    expect(theirs.status).toBe(201);
    const made = await creator.request('PUT', `/api/apps/${privateApp}/visibility`, {
      body: { visibility: 'private' },
    });
    expect(made.status).toBe(200);
    const outsider = people[0]!;
    const refused = await owner.request(
      'PUT',
      `/api/spaces/${theirs.body.space.id}/members/${outsider.username}`,
      { body: { role: 'member' } },
    );
    expect(refused.status).toBe(403);
    expect(errorCode(refused)).toBe('forbidden');
    expect(await h.pipit.server.storage.spaces.memberCount(theirs.body.space.id)).toBe(1);
    // The public app's space is unaffected.
    const added = await owner.request('PUT', `/api/spaces/${id}/members/${outsider.username}`, {
      body: { role: 'member' },
    });
    expect(added.status).toBe(201);
  });

  it('keeps someone the owner removed from coming back with a link', async () => {
    const id = (await makeSpace(owner)).body.space.id;
    const link = await owner.post<{ token: string }>(`/api/spaces/${id}/invites`, {
      role: 'member',
    });
    const [removed, leaver] = people as [(typeof people)[0], (typeof people)[0]];
    for (const p of [removed, leaver]) {
      expect((await p.client.post(`/api/space-invites/${link.body.token}/accept`)).status).toBe(
        201,
      );
    }
    const kicked = await owner.request('DELETE', `/api/spaces/${id}/members/${removed.username}`);
    expect(kicked.status).toBe(200);
    const left = await leaver.client.request(
      'DELETE',
      `/api/spaces/${id}/members/${leaver.username}`,
    );
    expect(left.status).toBe(200);
    const again = await removed.client.post(`/api/space-invites/${link.body.token}/accept`);
    expect(again.status).toBe(403);
    expect((again.body as unknown as { error: { message: string } }).error.message).toMatch(
      /removed you/,
    );
    // Leaving by oneself is not being removed.
    expect((await leaver.client.post(`/api/space-invites/${link.body.token}/accept`)).status).toBe(
      201,
    );
    // The owner adds the removed one again by name: in.
    const readded = await owner.request('PUT', `/api/spaces/${id}/members/${removed.username}`, {
      body: { role: 'reader' },
    });
    expect(readded.status).toBe(201);
  });
});

/** Resolves with how the server took the provider's next change: stored, or why it closed. */
function handled(side: TestProvider): Promise<string> {
  return new Promise((resolve) => {
    side.provider.on('close', ({ event }: { event: { reason: string } }) => resolve(event.reason));
    // Its change is made after this is called: unsynced first, then acknowledged.
    side.provider.on('unsyncedChanges', ({ number }: { number: number }) => {
      if (number === 0) resolve('stored');
    });
  });
}

/** Resolves once the document holds `count` records (the others' edits arrived). */
async function waitForRecords(doc: Y.Doc, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (doc.getMap('records').size < count) {
    if (Date.now() > deadline) throw new Error('the records never arrived');
    await sleep(20);
  }
}

describe('making spaces is bounded', () => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer('sqlite', {
      rateLimits: { ...ROOMY_RATE_LIMITS, spacesCreatedPerAccount: { limit: 3, windowMs: 60_000 } },
    });
  });
  afterAll(() => h.close());

  it('refuses the fourth space made and deleted in a minute, but not the same one asked again', async () => {
    const creator = await h.signup('maker_rl');
    await verifyEmail(h, creator);
    const appId = await publishDefinition(h, creator, definitionOf({}, 'household-shopping-list'));
    const someone = await h.signup('looper_rl');
    const make = (id: string) =>
      someone.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, { id, name: 'Loop' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = createId();
      ids.push(id);
      expect((await make(id)).status).toBe(201);
      expect((await someone.request('DELETE', `/api/spaces/${id}`)).status).toBe(200);
    }
    const fourth = await make(createId());
    expect(fourth.status).toBe(429);
    expect(errorCode(fourth)).toBe('rate_limited');
    // A device registering a space it made (the same id) is answered, not counted.
    expect(errorCode(await make(ids[0]!))).toBe('not_found');
  });
});
