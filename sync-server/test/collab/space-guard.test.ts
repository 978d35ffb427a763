import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { checkSpaceUpdate, type SpaceRecordRule } from '../../src/collab/space-guard';
import { decodeUpdate } from '../../src/collab/yjs-integration';
import { craft } from '../support/crafted-updates';
import { createSpaceRules, RULES_FRESH_MS } from '../../src/collab/space-rules';
import type { Storage } from '../../src/storage/types';

/*
 * The record rules of a shared space, judged from each update's content (space-guard.ts), with
 * real Y.Docs: Ada's and Ben's devices edit their copies through Yjs's own API, and the server's
 * document takes what the check lets through. Edits no app would make (someone else's record, its
 * author, another root, a part that waits) are made the same way on a device, or by hand. The
 * seeded properties at the end play random legitimate sessions in every order and expect each
 * update to be let through.
 */

const ADA = 'ada-user-id';
const BEN = 'ben-user-id';
/** What the server applies is marked so a device does not send it back as its own. */
const FROM_SERVER = Symbol('from the server');

/** The collection the tests share; any other is not shared in the app (the strictest rule). */
const SHARED = 'tasks';

class Device {
  readonly doc = new Y.Doc();
  /** One update per local transaction, as a provider sends them. */
  queue: Uint8Array[] = [];
  constructor(
    readonly userId: string,
    clientId: number,
  ) {
    this.doc.clientID = clientId;
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== FROM_SERVER) this.queue.push(update);
    });
  }

  get records() {
    return this.doc.getMap<Y.Map<unknown>>('records');
  }

  record(id: string): Y.Map<unknown> {
    const record = this.records.get(id);
    if (!record) throw new Error(`no record ${id}`);
    return record;
  }

  /** Adds a record the way the app does; returns the one update it makes. */
  create(
    id: string,
    options: { collectionId?: string; authorId?: string; extra?: Record<string, unknown> } = {},
  ): Uint8Array {
    return this.edit(() => {
      const record = new Y.Map<unknown>();
      record.set('collectionId', options.collectionId ?? SHARED);
      const values = new Y.Map<unknown>();
      values.set('title', `Task ${id}`);
      record.set('values', values);
      record.set('createdAt', 1);
      record.set('updatedAt', 1);
      record.set('authorId', options.authorId ?? this.userId);
      for (const [key, value] of Object.entries(options.extra ?? {})) record.set(key, value);
      this.records.set(id, record);
    });
  }

  /** Changes a field of a record, as the app's update does. */
  setField(id: string, field: string, value: unknown): Uint8Array {
    return this.edit(() => {
      const record = this.record(id);
      (record.get('values') as Y.Map<unknown>).set(field, value);
      record.set('updatedAt', Date.now());
    });
  }

  remove(id: string): Uint8Array {
    return this.edit(() => this.records.delete(id));
  }

  /** Runs `change` in one transaction; returns its update (and takes it off the queue). */
  edit(change: () => void): Uint8Array {
    const before = this.queue.length;
    this.doc.transact(change);
    const made = this.queue.splice(before);
    return made.length === 1 ? made[0]! : Y.mergeUpdates(made);
  }

  /** Everything the server lacks, as a provider sends it on reconnecting (its deletions included). */
  diffFor(server: Server): Uint8Array {
    return Y.encodeStateAsUpdate(this.doc, Y.encodeStateVector(server.doc));
  }

  receive(server: Server): void {
    Y.applyUpdate(
      this.doc,
      Y.encodeStateAsUpdate(server.doc, Y.encodeStateVector(this.doc)),
      FROM_SERVER,
    );
  }
}

class Server {
  readonly doc = new Y.Doc();
  constructor(
    readonly rule: SpaceRecordRule,
    readonly recordLimit?: number,
  ) {}

  ruleOf = (collectionId: string): SpaceRecordRule =>
    collectionId === SHARED ? this.rule : 'author';

  judge(update: Uint8Array, userId: string) {
    return checkSpaceUpdate({
      doc: this.doc,
      decoded: decodeUpdate(update),
      userId,
      ruleOf: this.ruleOf,
      ...(this.recordLimit !== undefined ? { recordLimit: this.recordLimit } : {}),
    });
  }

  /** Applies the update when the check lets it through; returns the refusal otherwise. */
  take(update: Uint8Array, userId: string) {
    const before = Y.encodeStateAsUpdate(this.doc);
    const refusal = this.judge(update, userId);
    // The check is pure: judging changes nothing.
    expect(Y.encodeStateAsUpdate(this.doc)).toEqual(before);
    if (!refusal) Y.applyUpdate(this.doc, update, FROM_SERVER);
    return refusal;
  }

  /**
   * A device of `userId` holding what the server holds, with a client id of its own: each refused
   * update is made on a fresh one, since the device that made it would build on it afterwards.
   */
  device(userId: string): Device {
    const device = new Device(userId, (this.devices += 1) + 1_000);
    device.receive(this);
    return device;
  }
  private devices = 0;

  records() {
    return this.doc.getMap<Y.Map<unknown>>('records').toJSON() as Record<
      string,
      { authorId?: string; collectionId?: string; values?: Record<string, unknown> }
    >;
  }
}

/** Ada and Ben on one server, Ada's record `a1` in the shared collection synced to both. */
function space(rule: SpaceRecordRule, recordLimit?: number) {
  const server = new Server(rule, recordLimit);
  const ada = new Device(ADA, 101);
  const ben = new Device(BEN, 202);
  expect(server.take(ada.create('a1'), ADA)).toBeNull();
  ben.receive(server);
  return { server, ada, ben };
}

const RULES: SpaceRecordRule[] = ['anyone', 'author'];

describe.each(RULES)("a shared collection whose rule is '%s'", (rule) => {
  const othersAllowed = rule === 'anyone';

  it('lets anyone add records of their own, and their author change and delete them', () => {
    const { server, ada, ben } = space(rule);
    expect(server.take(ben.create('b1'), BEN)).toBeNull();
    ada.receive(server);
    expect(server.take(ada.setField('a1', 'title', 'Milk'), ADA)).toBeNull();
    expect(server.take(ben.setField('b1', 'title', 'Bread'), BEN)).toBeNull();
    expect(server.take(ada.remove('a1'), ADA)).toBeNull();
    expect(Object.keys(server.records())).toEqual(['b1']);
    expect(server.records().b1).toMatchObject({ authorId: BEN, values: { title: 'Bread' } });
  });

  it(`${othersAllowed ? 'lets' : 'refuses'} Ben changing a field of Ada's record`, () => {
    const { server, ben } = space(rule);
    const update = ben.setField('a1', 'title', 'Ben was here');
    const refusal = server.take(update, BEN);
    if (othersAllowed) expect(refusal).toBeNull();
    else expect(refusal).toEqual({ why: "changes someone else's record", recordId: 'a1' });
    expect(server.records().a1!.values!.title).toBe(othersAllowed ? 'Ben was here' : 'Task a1');
  });

  it(`${othersAllowed ? 'lets' : 'refuses'} Ben setting one field twice in one update`, () => {
    const { server, ben } = space(rule);
    const update = ben.edit(() => {
      const values = ben.record('a1').get('values') as Y.Map<unknown>;
      values.set('title', 'one');
      values.set('title', 'two');
    });
    // The second write is placed after the first, in the same update: found through it.
    expect(server.take(update, BEN) === null).toBe(othersAllowed);
  });

  it(`${othersAllowed ? 'lets' : 'refuses'} Ben deleting Ada's record`, () => {
    const { server, ben } = space(rule);
    const refusal = server.take(ben.remove('a1'), BEN);
    if (othersAllowed) expect(refusal).toBeNull();
    else expect(refusal).toEqual({ why: "deletes someone else's record", recordId: 'a1' });
    expect('a1' in server.records()).toBe(!othersAllowed);
  });

  it(`${othersAllowed ? 'lets' : 'refuses'} Ben deleting one field of Ada's record`, () => {
    const { server, ben } = space(rule);
    const update = ben.edit(() =>
      (ben.record('a1').get('values') as Y.Map<unknown>).delete('title'),
    );
    expect(server.take(update, BEN) === null).toBe(othersAllowed);
  });

  it("refuses an overwrite of Ada's record under its key, by Ben or by Ada", () => {
    const { server, ada, ben } = space(rule);
    // Set again under the same key: placed after Ada's entry, so it would replace her record.
    const byBen = ben.create('a1');
    expect(server.take(byBen, BEN)).toEqual({ why: 'replaces a record', recordId: 'a1' });
    const byAda = ada.create('a1');
    expect(server.take(byAda, ADA)).toEqual({ why: 'replaces a record', recordId: 'a1' });
    expect(server.records().a1).toMatchObject({ authorId: ADA });
  });

  it("refuses a change of a record's author or collection, even by its author", () => {
    const { server, ben } = space(rule);
    const ada = () => server.device(ADA);
    const steal = ben.edit(() => ben.record('a1').set('authorId', BEN));
    // The new value is placed after the old one: its parent is not in the update, only its origin.
    const [struct] = decodeUpdate(steal).structs as Y.Item[];
    expect(struct).toMatchObject({ parent: null, parentSub: null });
    expect(struct!.origin).not.toBeNull();
    expect(server.take(steal, BEN)).toEqual({ why: "changes a record's authorId", recordId: 'a1' });
    // Ada cannot either: not another author, not another collection, not without them.
    const edits: Array<[change: (record: Y.Map<unknown>) => void, why: string]> = [
      [(record) => record.set('authorId', BEN), "changes a record's authorId"],
      [(record) => record.set('collectionId', 'other'), "changes a record's collectionId"],
      [(record) => record.delete('authorId'), "removes a record's author or collection"],
      [(record) => record.delete('collectionId'), "removes a record's author or collection"],
      [(record) => record.set('owner', ADA), "changes a record's owner"],
    ];
    for (const [change, why] of edits) {
      const device = ada();
      const update = device.edit(() => change(device.record('a1')));
      expect(server.take(update, ADA)).toEqual({ why, recordId: 'a1' });
    }
    expect(server.records().a1).toMatchObject({ authorId: ADA, collectionId: SHARED });
  });

  it('refuses a new record that names someone else as its author, or none, or odd keys', () => {
    const { server } = space(rule);
    const ben = () => server.device(BEN);
    const record = (entries: Record<string, unknown>) => {
      const map = new Y.Map<unknown>();
      for (const [key, value] of Object.entries(entries)) map.set(key, value);
      return map;
    };
    const attempts: Array<[made: (device: Device) => Uint8Array, why: string]> = [
      [(d) => d.create('b1', { authorId: ADA }), "a new record's authorId is not allowed"],
      [(d) => d.create('b1', { authorId: '' }), "a new record's authorId is not allowed"],
      [(d) => d.create('b1', { collectionId: '' }), "a new record's collectionId is not allowed"],
      [
        (d) => d.edit(() => d.records.set('b1', record({ collectionId: SHARED }))),
        'a new record does not name its author',
      ],
      [
        (d) => d.edit(() => d.records.set('b1', record({ authorId: BEN }))),
        'a new record has no collection',
      ],
      [(d) => d.create('b1', { extra: { owner: BEN } }), 'a record has an unknown key'],
      [(d) => d.edit(() => d.doc.getMap('records').set('b1', 'text')), 'a record is not a map'],
    ];
    for (const [made, why] of attempts) {
      expect(server.take(made(ben()), BEN)).toEqual({ why, recordId: 'b1' });
    }
    expect(Object.keys(server.records())).toEqual(['a1']);
  });

  it('refuses anything outside the records', () => {
    const { server } = space(rule);
    const counters = server.device(BEN);
    const update = counters.edit(() => counters.doc.getMap('counters').set('c1', 3));
    expect(server.take(update, BEN)).toEqual({ why: 'writes outside the records' });
    const notes = server.device(BEN);
    const text = notes.edit(() => notes.doc.getText('notes').insert(0, 'hi'));
    expect(server.take(text, BEN)).toEqual({ why: 'writes outside the records' });
    expect(server.doc.share.has('counters') || server.doc.share.has('notes')).toBe(false);
  });

  it('refuses an update that waits for a part the server does not have', () => {
    const { server, ben } = space(rule);
    ben.create('b1');
    // The edit alone: its record's creation never reached the server.
    const edit = ben.setField('b1', 'title', 'Bread');
    expect(server.take(edit, BEN)).toEqual({ why: 'waits for a missing part' });
    // A deletion of parts the server does not have.
    const removal = ben.remove('b1');
    expect(server.take(removal, BEN)).toEqual({ why: 'deletes what the server does not have' });
    // Yjs itself would keep both aside until the missing part came.
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(server.doc));
    Y.applyUpdate(other, edit);
    expect(other.store.pendingStructs).not.toBeNull();
  });

  it("judges a part Yjs integrates part-way where it lands: Ben's struct in Ada's record", () => {
    // Ada's last item is her record's authorId. Ben sends one struct under Ada's
    // client, starting at her last clock, naming his own record and its key `updatedAt`: Yjs
    // puts its new part next to Ada's authorId, in her record, and deletes that.
    const { server, ben } = space(rule);
    expect(server.take(ben.create('b1'), BEN)).toBeNull();
    const benRecord = (server.doc.getMap('records').get('b1') as Y.Map<unknown>)._item!.id;
    const adaClock = Y.getState(server.doc.store, 101);
    const crafted = craft([
      [
        101,
        adaClock - 1,
        [{ any: [2, BEN], parent: [benRecord.client, benRecord.clock], key: 'updatedAt' }],
      ],
    ]);
    expect(server.take(crafted, BEN)).toEqual({
      why: "changes a record's authorId",
      recordId: 'a1',
    });
    expect(server.records().a1).toMatchObject({ authorId: ADA });
  });

  it('refuses what Yjs would keep aside: a known part naming a missing one, a loop', () => {
    const { server, ben } = space(rule);
    expect(server.take(ben.create('b1'), BEN)).toBeNull();
    const benClock = Y.getState(server.doc.store, 202);
    const entry = (server.doc.getMap('records').get('b1') as Y.Map<unknown>)._item!;
    // Ben's last part resent as naming a part nobody has: Yjs keeps it, and his new part after
    // it, aside — to apply them later, after the document changed.
    const resent = craft([
      [
        202,
        benClock - 1,
        [
          { any: ['x'], origin: [999, 0] },
          { any: [1], parent: [entry.id.client, entry.id.clock], key: 'updatedAt' },
        ],
      ],
    ]);
    expect(server.take(resent, BEN)).toEqual({ why: 'waits for a missing part' });
    // Two parts of new clients, each placed after the other.
    const loop = Y.mergeUpdates([
      craft([[7_001, 0, [{ any: [1], origin: [7_002, 0] }]]]),
      craft([[7_002, 0, [{ any: [1], origin: [7_001, 0] }]]]),
    ]);
    expect(server.take(loop, BEN)).toEqual({ why: 'waits for a missing part' });
    expect(server.doc.store.pendingStructs).toBeNull();
  });

  it('refuses an update that would let Yjs apply what a stored space keeps aside', () => {
    const { server, ben } = space(rule);
    // A part stored before this rule, waiting for client 7_003's first part.
    const aside = craft([[7_004, 0, [{ any: [1], origin: [7_003, 0] }]]]);
    Y.applyUpdate(server.doc, aside);
    expect(server.doc.store.pendingStructs).not.toBeNull();
    // Anything else goes on as before; the part it waits for is refused.
    expect(server.take(ben.setField('a1', 'title', 'x'), BEN) === null).toBe(rule === 'anyone');
    const missing = craft([[7_003, 0, [{ any: [1], parent: 'records', key: 'z1' }]]]);
    expect(server.take(missing, BEN)).toEqual({ why: 'waits for a missing part' });
  });

  it('refuses a hand-made part whose neighbour is unknown, and one placed by a loop', () => {
    const { server, ben } = space(rule);
    const update = ben.setField('a1', 'title', 'x');
    const decoded = decodeUpdate(update);
    const item = decoded.structs.find(
      (struct): struct is Y.Item => struct instanceof Y.Item && struct.origin !== null,
    )!;
    // Its neighbour moved to an id nobody has: the check cannot find its place.
    item.origin = Y.createID(999, 5);
    expect(
      checkSpaceUpdate({ doc: server.doc, decoded, userId: BEN, ruleOf: server.ruleOf }),
    ).toEqual({ why: 'waits for a missing part' });
    // Placed after itself.
    item.origin = item.id;
    expect(
      checkSpaceUpdate({ doc: server.doc, decoded, userId: BEN, ruleOf: server.ruleOf }),
    ).toEqual({ why: 'refers to itself' });
  });

  it('treats a collection the app does not share as the strictest rule', () => {
    const { server, ada, ben } = space(rule);
    expect(server.take(ada.create('a2', { collectionId: 'private-notes' }), ADA)).toBeNull();
    ben.receive(server);
    expect(server.take(ben.setField('a2', 'title', 'x'), BEN)).toMatchObject({
      why: "changes someone else's record",
    });
    expect(server.take(ada.setField('a2', 'title', 'mine'), ADA)).toBeNull();
  });

  it('lets through an edit of a record deleted meanwhile: it lands nowhere', () => {
    const { server, ada, ben } = space(rule);
    // Made while Ben's device could still change it (offline, before the deletion arrived).
    const edit = ben.setField('a1', 'title', 'late');
    expect(server.take(ada.remove('a1'), ADA)).toBeNull();
    expect(server.take(edit, BEN)).toBeNull();
    expect(server.records()).toEqual({});
  });

  it('lets through a record made and deleted while offline, sent as one update', () => {
    const { server, ben } = space(rule);
    ben.create('b1');
    ben.setField('b1', 'title', 'soon gone');
    ben.remove('b1');
    expect(server.take(ben.diffFor(server), BEN)).toBeNull();
    expect(Object.keys(server.records())).toEqual(['a1']);
  });

  it('ignores deletions of what is deleted already (a reconnecting device resends them all)', () => {
    const { server, ada, ben } = space(rule);
    expect(server.take(ada.create('a2'), ADA)).toBeNull();
    expect(server.take(ada.remove('a2'), ADA)).toBeNull();
    ben.receive(server);
    expect(server.take(ben.diffFor(server), BEN)).toBeNull();
    // Ada's whole state again, deletions included, from Ben: nothing new, nothing refused.
    expect(server.take(Y.encodeStateAsUpdate(ben.doc), BEN)).toBeNull();
  });
});

describe('the records one space may hold', () => {
  it('refuses a new record past the limit, counting the ones the same update deletes', () => {
    const { server, ada } = space('anyone', 2);
    expect(server.take(ada.create('a2'), ADA)).toBeNull();
    expect(server.take(server.device(ADA).create('a3'), ADA)).toEqual({
      why: 'the space holds as many records as it may',
    });
    // One deleted and one added in the same update: still two.
    const swap = ada.edit(() => {
      ada.remove('a2');
      ada.create('a4');
    });
    expect(server.take(swap, ADA)).toBeNull();
    expect(Object.keys(server.records()).sort()).toEqual(['a1', 'a4']);
  });
});

/*
 * Random legitimate sessions: Ada and Ben each add records, change and delete the ones their app
 * lets them (their own under `author`, any under `anyone`), send their updates one by one as a
 * provider does or all at once as on reconnecting, and receive the server's. The steps come in a
 * random order — offline stretches, edits of a record deleted meanwhile, concurrent edits of one
 * field — and every update must be let through, and both devices end with the server's records.
 */
const step = fc.record({
  who: fc.constantFrom(0, 1),
  kind: fc.constantFrom('create', 'edit', 'edit', 'delete', 'send', 'reconnect', 'receive'),
  pick: fc.nat(20),
});
const RUNS = { seed: 20_261_126, numRuns: 150 };

describe.each(RULES)("random legitimate sessions under '%s'", (rule) => {
  test.prop([fc.array(step, { minLength: 1, maxLength: 40 })], RUNS)(
    'every update is let through, in every order',
    (steps) => {
      const server = new Server(rule);
      const devices = [new Device(ADA, 11), new Device(BEN, 22)] as const;
      let made = 0;
      const deliver = (device: Device, update: Uint8Array) => {
        const refusal = server.take(update, device.userId);
        expect(refusal, JSON.stringify(steps)).toBeNull();
      };
      for (const { who, kind, pick } of steps) {
        const device = devices[who];
        const mine = [...device.records.entries()]
          .filter(([, record]) => rule === 'anyone' || record.get('authorId') === device.userId)
          .map(([id]) => id);
        const target = mine.length > 0 ? mine[pick % mine.length]! : null;
        switch (kind) {
          case 'create':
            device.create(`r${(made += 1)}`, { collectionId: pick % 4 === 0 ? 'notes' : SHARED });
            break;
          case 'edit':
            // The app offers changes only under the collection's rule, with `notes` not shared.
            if (
              target &&
              (rule === 'anyone' || device.record(target).get('authorId') === device.userId)
            ) {
              const shared = device.record(target).get('collectionId') === SHARED;
              if (shared || device.record(target).get('authorId') === device.userId) {
                device.setField(target, `f${pick % 3}`, pick);
              }
            }
            break;
          case 'delete':
            if (target) {
              const record = device.record(target);
              if (
                record.get('collectionId') === SHARED ||
                record.get('authorId') === device.userId
              ) {
                device.remove(target);
              }
            }
            break;
          case 'send':
            for (const update of device.queue.splice(0)) deliver(device, update);
            break;
          case 'reconnect':
            device.queue = [];
            deliver(device, device.diffFor(server));
            device.receive(server);
            break;
          case 'receive':
            device.receive(server);
            break;
        }
      }
      for (const device of devices) {
        device.queue = [];
        deliver(device, device.diffFor(server));
      }
      for (const device of devices) {
        device.receive(server);
        expect(device.records.toJSON()).toEqual(server.records());
      }
    },
  );
});

describe("a space's rules, from its app's published version", () => {
  const definition = (rules: Record<string, [sharing: string, rule?: string]>) =>
    JSON.stringify({
      collections: Object.entries(rules).map(([id, [sharing, recordRule]]) => ({
        id,
        sharing,
        ...(recordRule ? { recordRule } : {}),
      })),
    });

  function stand(versions: string[], publishedVersion: number | null = versions.length) {
    const reads = { apps: 0, versions: 0 };
    const app = { id: 'app1', publishedVersion };
    let time = 0;
    const storage = {
      apps: {
        get: (id: string) => {
          reads.apps += 1;
          return Promise.resolve(id === app.id ? app : null);
        },
      },
      publishing: {
        version: (appId: string, number: number) => {
          reads.versions += 1;
          const definitionJson = appId === app.id ? versions[number - 1] : undefined;
          return Promise.resolve(definitionJson === undefined ? null : { definitionJson });
        },
      },
    } as unknown as Pick<Storage, 'apps' | 'publishing'>;
    const rules = createSpaceRules({
      storage,
      appOfSpace: (spaceId) => Promise.resolve(spaceId === 's1' ? app.id : null),
      now: () => time,
    });
    return { rules, reads, app, pass: (ms: number) => (time += ms) };
  }

  it("reads each collection's rule; a private or unknown collection is the strictest", async () => {
    const { rules } = stand([
      definition({
        tasks: ['space', 'anyone'],
        notes: ['space', 'author'],
        diary: ['private', 'anyone'],
        old: ['space'],
      }),
    ]);
    expect(rules.peek('s1')).toBeNull();
    const ruleOf = await rules.load('s1');
    // A shared collection without a rule (never published so) is the strictest too.
    expect(['tasks', 'notes', 'diary', 'old', 'gone'].map((id) => ruleOf(id))).toEqual([
      'anyone',
      'author',
      'author',
      'author',
      'author',
    ]);
    expect(rules.peek('s1')).toBe(ruleOf);
  });

  it('is the strictest for an unpublished app, a missing space or a broken version', async () => {
    expect((await stand(['{}'], null).rules.load('s1'))('tasks')).toBe('author');
    expect(
      (await stand([definition({ tasks: ['space', 'anyone'] })]).rules.load('s9'))('tasks'),
    ).toBe('author');
    expect((await stand(['not json']).rules.load('s1'))('tasks')).toBe('author');
  });

  it('follows a newly published version once the kept rules are older than a while', async () => {
    const versions = [definition({ tasks: ['space', 'anyone'] })];
    const { rules, reads, app, pass } = stand(versions);
    await rules.load('s1');
    versions.push(definition({ tasks: ['space', 'author'] }));
    app.publishedVersion = 2;
    pass(RULES_FRESH_MS - 1);
    expect(rules.peek('s1')!('tasks')).toBe('anyone');
    expect(reads).toEqual({ apps: 1, versions: 1 });
    pass(2);
    // The kept rules answer at once; the new ones are read meanwhile.
    expect(rules.peek('s1')!('tasks')).toBe('anyone');
    await vi.waitFor(() => expect(rules.peek('s1')!('tasks')).toBe('author'));
    // A version already read is not read again.
    app.publishedVersion = 1;
    pass(RULES_FRESH_MS + 1);
    rules.peek('s1');
    await vi.waitFor(() => expect(rules.peek('s1')!('tasks')).toBe('anyone'));
    expect(reads).toEqual({ apps: 3, versions: 2 });
  });
});
