import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Collection } from '@pipit/app-definition';
import { createId, documentName, type SpaceSummary } from '@pipit/protocol';
import type { SpaceRecordRule } from '../../src/collab/space-guard';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider, refused, type TestProvider } from '../support/provider';
import { definitionOf, publishDefinition, verifyEmail } from '../support/publishing';
import { spaceRecord, storedSpaceRecords } from '../support/space-records';

/*
 * Who may do what to the records of a shared space, over the real socket: every role (the space's
 * owner, a member, a reader, someone outside it, and the app's creator, who is not in it) × the
 * collection's record rule × each thing one does to a record. Each cell opens the space's document
 * as that person, does it through the provider as the app would (or as a modified client would,
 * for what the app never offers), and reads the outcome from storage, not from any connection's
 * memory: stored when allowed; otherwise the document's connection closed (a reader's write is
 * ignored instead) and the stored records as they were.
 */

type Role = 'owner' | 'member' | 'reader' | 'outsider' | 'creator';
type Operation = 'read' | 'create' | 'edit own' | 'edit other’s' | 'delete own' | 'delete other’s';
type Outcome = 'allowed' | 'refused' | 'ignored' | 'not opened';

const ROLES: Role[] = ['owner', 'member', 'reader', 'outsider', 'creator'];
const RULES: SpaceRecordRule[] = ['anyone', 'author'];
const OPERATIONS: Operation[] = [
  'read',
  'create',
  'edit own',
  'edit other’s',
  'delete own',
  'delete other’s',
];

/** What each cell must come to. */
function expected(role: Role, rule: SpaceRecordRule, operation: Operation): Outcome {
  if (role === 'outsider' || role === 'creator') return 'not opened';
  if (operation === 'read') return 'allowed';
  if (role === 'reader') return 'ignored';
  if (operation.endsWith('other’s') && rule === 'author') return 'refused';
  return 'allowed';
}

const CELLS = ROLES.flatMap((role) =>
  RULES.flatMap((rule) =>
    OPERATIONS.map((operation) => ({
      role,
      rule,
      operation,
      outcome: expected(role, rule, operation),
    })),
  ),
);

const closeReason = (side: TestProvider) =>
  new Promise<string>((resolve) =>
    side.provider.on('close', ({ event }: { event: { reason: string } }) => resolve(event.reason)),
  );
const refusalReason = (side: TestProvider) =>
  new Promise<string>((resolve) =>
    side.provider.on('authenticationFailed', ({ reason }: { reason: string }) => resolve(reason)),
  );

describe.each(ENGINES)('who may change which record of a shared space (%s)', (engine) => {
  let h: AccountsHarness;
  const people = {} as Record<Role, { client: ApiClient; userId: string }>;
  const collectionOf = {} as Record<SpaceRecordRule, string>;
  let spaceId: string;
  let name: string;

  /** The records each cell works on: its person's own, and someone else's, in its collection. */
  const own = (role: Role, rule: SpaceRecordRule) => `own-${role}-${rule}`;
  const others = (role: Role, rule: SpaceRecordRule) => `other-${role}-${rule}`;

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50 });
    const suffix = engine.slice(0, 2);
    for (const role of ROLES) {
      const client = await h.signup(`${role}_${suffix}`);
      people[role] = { client, userId: await verifyEmail(h, client) };
    }
    const definition = definitionOf({ title: 'Household' }, 'household-shopping-list');
    for (const rule of RULES) {
      const found = definition.collections.find(
        (c: Collection) => c.sharing === 'space' && c.recordRule === rule,
      );
      collectionOf[rule] = found!.id;
    }
    const appId = await publishDefinition(h, people.creator.client, definition);

    const owner = people.owner.client;
    const made = await owner.post<{ space: SpaceSummary }>(`/api/apps/${appId}/spaces`, {
      name: 'Our flat',
    });
    expect(made.status).toBe(201);
    spaceId = made.body.space.id;
    name = documentName({ kind: 'space', spaceId });
    for (const role of ['member', 'reader'] as const) {
      const added = await owner.request('PUT', `/api/spaces/${spaceId}/members/${role}_${suffix}`, {
        body: { role },
      });
      expect(added.status).toBe(201);
    }
    // Every cell's records, there before anyone opens the space: each person's own (a reader's
    // from when they could write) and someone else's.
    const seed = new Y.Doc();
    seed.transact(() => {
      const records = seed.getMap('records');
      for (const role of ROLES) {
        const someoneElse = role === 'owner' ? people.member : people.owner;
        for (const rule of RULES) {
          records.set(
            own(role, rule),
            spaceRecord(collectionOf[rule], people[role].userId, 'mine'),
          );
          records.set(
            others(role, rule),
            spaceRecord(collectionOf[rule], someoneElse.userId, 'theirs'),
          );
        }
      }
    });
    await h.pipit.server.storage.documents.store(name, Y.encodeStateAsUpdate(seed));
    seed.destroy();
  }, 60_000);
  afterAll(() => h.close());

  it.each(CELLS)(
    '$role, $rule: $operation is $outcome',
    async ({ role, rule, operation, outcome }) => {
      const person = people[role];
      const before = await storedSpaceRecords(h.pipit.server.storage, name);
      const side = connectProvider({ url: h.pipit.url, name, cookie: person.client.cookie });
      try {
        const whyRefused = refusalReason(side);
        const opened = await side.ready;
        if (outcome === 'not opened') {
          expect(opened).toBe(false);
          expect(await whyRefused).toBe('forbidden');
          expect(await storedSpaceRecords(h.pipit.server.storage, name)).toEqual(before);
          return;
        }
        expect(opened).toBe(true);
        const records = side.doc.getMap<Y.Map<unknown>>('records');
        if (operation === 'read') {
          expect(records.toJSON()).toEqual(before);
          return;
        }
        const created = createId();
        const target = operation.endsWith('own') ? own(role, rule) : others(role, rule);
        if (operation !== 'create') expect(records.get(target)).toBeInstanceOf(Y.Map);
        const closed = closeReason(side);
        const ignored = refused(side.provider);
        side.doc.transact(() => {
          if (operation === 'create') {
            records.set(created, spaceRecord(collectionOf[rule], person.userId, 'new'));
          } else if (operation.startsWith('edit')) {
            const record = records.get(target)!;
            (record.get('values') as Y.Map<unknown>).set('name', `changed by ${role}`);
            record.set('updatedAt', 2);
          } else {
            records.delete(target);
          }
        });

        if (outcome === 'allowed') {
          await acknowledged(side.provider);
          const after = await storedSpaceRecords(h.pipit.server.storage, name);
          if (operation === 'create') {
            expect(after[created]).toMatchObject({
              authorId: person.userId,
              collectionId: collectionOf[rule],
            });
          } else if (operation.startsWith('edit')) {
            expect(after[target]?.values?.name).toBe(`changed by ${role}`);
          } else {
            expect(after[target]).toBeUndefined();
          }
          return;
        }
        if (outcome === 'refused') {
          expect(await closed).toBe('update_rejected');
          // One short line saying which record and why, no stack.
          const line = h.pipit.logs.findLast((l) => l.msg === 'refused a sync message');
          expect(line).toMatchObject({ documentName: name, reason: 'update_rejected' });
          expect(line).toMatchObject({ recordId: target });
          expect(line?.err).toBeUndefined();
        } else {
          await ignored;
        }
        expect(await storedSpaceRecords(h.pipit.server.storage, name)).toEqual(before);
      } finally {
        side.destroy();
      }
    },
  );
});
