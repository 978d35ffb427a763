import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { checkMessage } from '../../src/collab/update-guard';
import {
  decodeUpdate,
  deletesAhead,
  misplacedPartWay,
  planIntegration,
  repeatsAClient,
  structOf,
} from '../../src/collab/yjs-integration';
import { createLogger } from '../../src/logger';
import { craft, type CraftedStruct } from '../support/crafted-updates';
import { updateMessage } from '../support/raw-sync';

/*
 * What Yjs will do with an update, worked out before it is applied (yjs-integration.ts), against
 * what Yjs then does: which structs it keeps aside, where each client's clock ends, where an item
 * that starts part-way lands. The guard judged items where they said they go, and Yjs
 * put one elsewhere.
 */

const logger = createLogger('silent');
const LIMITS = { documentBytes: 5_000_000, documentItems: 150_000 };

/** Whether the update guard refuses the update for a document holding `doc`. */
function guardRefuses(doc: Y.Doc, update: Uint8Array): boolean {
  try {
    checkMessage({
      documentName: 'app/x',
      message: updateMessage('app/x', update),
      document: doc,
      usage: { bytes: 0, items: 0 },
      readOnly: false,
      limits: LIMITS,
      logger,
    });
    return false;
  } catch {
    return true;
  }
}

/** A copy of a document that keeps nothing aside. */
function copyOf(doc: Y.Doc): Y.Doc {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  return copy;
}

/** Two sections of one update for the same client, in Yjs's first format. */
function twoSections(client: number, first: [number, string], second: [number, string]) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 2);
  for (const [clock, text] of [first, second]) {
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint(e, client);
    encoding.writeVarUint(e, clock);
    encoding.writeUint8(e, 4);
    encoding.writeVarUint(e, 1);
    encoding.writeVarString(e, 'notes');
    encoding.writeVarString(e, text);
  }
  encoding.writeVarUint(e, 0);
  return encoding.toUint8Array(e);
}

describe('what Yjs does with an update', () => {
  it('reads a client listed twice once, the last time: refused', () => {
    const update = twoSections(5, [0, 'judged'], [6, 'applied']);
    const decoded = decodeUpdate(update);
    // Y.decodeUpdate reads both sections; applying it keeps only the second.
    expect(decoded.structs).toHaveLength(2);
    expect(decoded.sections).toEqual([5, 5]);
    expect(repeatsAClient(decoded)).toBe(true);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, update);
    expect(doc.getText('notes').toString()).toBe('');
    expect(doc.store.pendingStructs).not.toBeNull();
    expect(guardRefuses(new Y.Doc(), update)).toBe(true);
    // One section per client, as Yjs writes them, is read as it is.
    const own = new Y.Doc();
    own.getText('notes').insert(0, 'abc');
    expect(repeatsAClient(decodeUpdate(Y.encodeStateAsUpdate(own)))).toBe(false);
  });

  it('keeps aside items that wait for each other, and a struct the document has that waits', () => {
    // C's item placed after D's, and D's after C's: neither can go first.
    const C = 10;
    const D = 20;
    const cycle = Y.mergeUpdates([
      craft([[C, 0, [{ text: 'c', origin: [D, 0] }]]]),
      craft([[D, 0, [{ text: 'd', origin: [C, 0] }]]]),
    ]);
    const doc = new Y.Doc();
    expect(planIntegration(decodeUpdate(cycle), doc).waiting.size).toBe(2);
    Y.applyUpdate(doc, cycle);
    expect(doc.store.pendingStructs).not.toBeNull();

    // The document has C's first item; resent, it names a part nobody has, so Yjs keeps it — and
    // C's next item, new — aside.
    const server = new Y.Doc();
    Y.applyUpdate(server, craft([[C, 0, [{ text: 'a' }]]]));
    const known = craft([
      [
        C,
        0,
        [
          { text: 'a', origin: [99, 0] },
          { text: 'b', origin: [C, 0] },
        ],
      ],
    ]);
    const plan = planIntegration(decodeUpdate(known), server);
    expect(plan.waiting.size).toBe(2);
    expect(plan.stateAfter(C)).toBe(1);
    Y.applyUpdate(server, known);
    expect(server.store.pendingStructs).not.toBeNull();
    expect(Y.getState(server.store, C)).toBe(1);
  });

  it('finds an item that lands part-way in another map than the one it names', () => {
    const server = new Y.Doc();
    const bob = new Y.Doc();
    bob.clientID = 100;
    bob.getMap('records').set('bob', new Y.Map([['authorId', 'bob']]));
    const eve = new Y.Doc();
    eve.clientID = 200;
    eve.getMap('records').set('eve', new Y.Map([['authorId', 'eve']]));
    Y.applyUpdate(server, Y.encodeStateAsUpdate(bob));
    Y.applyUpdate(server, Y.encodeStateAsUpdate(eve));
    const eveRecord = (server.getMap('records').get('eve') as Y.Map<unknown>)._item!.id;
    const at = Y.getState(server.store, 100) - 1;
    const parent: [number, number] = [eveRecord.client, eveRecord.clock];
    const crafted = (key: string) => craft([[100, at, [{ any: ['x', 'eve'], parent, key }]]]);
    // Named in Eve's record, it lands next to Bob's last item, in his.
    const plan = planIntegration(decodeUpdate(crafted('updatedAt')), server);
    expect([...plan.offsets.values()]).toEqual([1]);
    expect(misplacedPartWay(plan, server)).not.toBeNull();
    expect(guardRefuses(server, crafted('updatedAt'))).toBe(true);
    // What Yjs would do: live, Eve's key is written and Bob's author deleted; read again, Bob's
    // record's author is Eve.
    const live = copyOf(server);
    Y.applyUpdate(live, crafted('updatedAt'));
    expect((live.getMap('records').get('bob') as Y.Map<unknown>).get('authorId')).toBeUndefined();
    const reread = copyOf(live);
    expect((reread.getMap('records').get('bob') as Y.Map<unknown>).get('authorId')).toBe('eve');
  });

  it('lets through a device resending what the server has part of, in any list or map', () => {
    const device = new Y.Doc();
    device.clientID = 7;
    const server = new Y.Doc();
    device.getText('notes').insert(0, 'abc');
    device.getMap('m').set('k', 1);
    Y.applyUpdate(server, Y.encodeStateAsUpdate(device));
    const before = Y.encodeStateVector(device);
    device.getMap('m').set('k', 2);
    device.getText('notes').insert(3, 'def');
    // The server has what came before, plus the first part of what follows.
    Y.applyUpdate(server, Y.encodeStateAsUpdate(device, before));
    // Since the server had one character: 'bc', the key's first value, and the rest.
    const once = new Y.Doc();
    Y.applyUpdate(once, craft([[7, 0, [{ text: 'a' }]]]));
    const resent = Y.encodeStateAsUpdate(device, Y.encodeStateVector(once));
    const plan = planIntegration(decodeUpdate(resent), server);
    expect(misplacedPartWay(plan, server)).toBeNull();
    expect(guardRefuses(server, resent)).toBe(false);
  });
});

/*
 * Three devices edit lists, texts and nested maps, sync with each other, and send the server what
 * it lacks since some state it had before (so parts of it are the server's already, or wait);
 * crafted structs name random parts, known or not, at clocks around the server's. For each update,
 * the plan is compared with what Yjs does on a copy of the server's document.
 */
const CLIENTS = [11, 22, 33] as const;
const step = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      who: fc.nat(2),
      what: fc.constantFrom('text', 'delete', 'map', 'nested', 'array'),
      pick: fc.nat(50),
    }),
  },
  fc.record({ kind: fc.constant('sync' as const), who: fc.nat(2), from: fc.nat(2) }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      who: fc.nat(2),
      since: fc.nat(20),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('craft' as const),
      // Never a device's own: a device's edits under a clock someone else wrote are a different
      // matter (the server cannot tell two writers of one client apart).
      client: fc.constantFrom(44, 55),
      around: fc.integer({ min: -3, max: 2 }),
      structs: fc.array(
        fc.record({
          length: fc.integer({ min: 1, max: 3 }),
          ref: fc.constantFrom('origin', 'parent', 'root', 'map'),
          pick: fc.nat(200),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  },
  fc.record({
    kind: fc.constant('merge' as const),
    who: fc.nat(2),
    since: fc.nat(20),
    also: fc.nat(2),
    alsoSince: fc.nat(20),
  }),
);

function edit(doc: Y.Doc, what: string, pick: number) {
  const text = doc.getText('t');
  const map = doc.getMap<unknown>('m');
  switch (what) {
    case 'text': {
      // At the end half the time: Yjs merges one client's typing into one struct, which a later
      // send starting earlier then resends part of.
      const at = pick % 2 === 0 ? text.length : pick % (text.length + 1);
      text.insert(at, String.fromCharCode(97 + (pick % 26)).repeat(1 + (pick % 3)));
      break;
    }
    case 'delete':
      if (text.length > 0) text.delete(pick % text.length, 1 + (pick % 2));
      break;
    case 'map':
      map.set(`k${pick % 4}`, pick);
      break;
    case 'nested': {
      const inner = map.get('inner');
      if (inner instanceof Y.Map) inner.set(`k${pick % 3}`, pick);
      else map.set('inner', new Y.Map([['k0', pick]]));
      break;
    }
    case 'array':
      doc.getArray('a').push([pick]);
      break;
  }
}

/** Every id some device holds, as [client, clock]. */
function idsOf(docs: Y.Doc[]): Array<[number, number]> {
  const ids: Array<[number, number]> = [];
  for (const doc of docs) {
    for (const [client, structs] of doc.store.clients) {
      for (const struct of structs) ids.push([client, struct.id.clock]);
    }
  }
  return ids;
}

describe('the plan against Yjs', () => {
  test.prop([fc.array(step, { minLength: 10, maxLength: 60, size: 'max' })], {
    seed: 37,
    numRuns: 300,
  })('what waits, where clocks end and where part-way items land are what Yjs does', (steps) =>
    play(steps),
  );
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

function play(steps: Step[]) {
  const devices = CLIENTS.map((client) => {
    const doc = new Y.Doc();
    doc.clientID = client;
    return doc;
  });
  let server = new Y.Doc();
  const history: Uint8Array[] = [Y.encodeStateVector(server)];
  for (const s of steps) {
    let update: Uint8Array;
    let honest = true;
    if (s.kind === 'edit') {
      edit(devices[s.who]!, s.what, s.pick);
      continue;
    } else if (s.kind === 'sync') {
      Y.applyUpdate(devices[s.who]!, Y.encodeStateAsUpdate(devices[s.from]!));
      continue;
    } else if (s.kind === 'send') {
      const since = history[s.since % history.length]!;
      update = Y.encodeStateAsUpdate(devices[s.who]!, since);
    } else if (s.kind === 'merge') {
      // Two devices' updates at once, as a device passing on another's edits sends them.
      update = Y.mergeUpdates([
        Y.encodeStateAsUpdate(devices[s.who]!, history[s.since % history.length]),
        Y.encodeStateAsUpdate(devices[s.also]!, history[s.alsoSince % history.length]),
      ]);
    } else {
      honest = false;
      const ids = idsOf([server, ...devices]);
      const refOf = (pick: number): [number, number] =>
        ids.length > 0 && pick % 5 !== 0 ? ids[pick % ids.length]! : [55, pick % 3];
      const clock = Math.max(0, Y.getState(server.store, s.client) + s.around);
      const structs = s.structs.map(({ ref, length, pick }): CraftedStruct => {
        if (ref === 'origin') return { text: 'x'.repeat(length), origin: refOf(pick) };
        if (ref === 'parent') return { text: 'x'.repeat(length), parent: refOf(pick) };
        if (ref === 'map') {
          return { any: Array.from({ length }, () => 1), parent: 'm', key: 'k1' };
        }
        return { text: 'x'.repeat(length), parent: 't' };
      });
      update = craft([[s.client, clock, structs]]);
    }
    const decoded = decodeUpdate(update);
    const plan = planIntegration(decoded, server);
    const misplaced = misplacedPartWay(plan, server);
    const copy = copyOf(server);
    let threw = false;
    try {
      Y.applyUpdate(copy, update);
    } catch {
      threw = true;
    }
    if (honest) {
      expect(threw).toBe(false);
      expect(misplaced).toBeNull();
    }
    // Whatever Yjs throws on, the guard refuses.
    if (threw) {
      expect(guardRefuses(server, update)).toBe(true);
      continue;
    }
    expect(copy.store.pendingStructs !== null).toBe(plan.waiting.size > 0);
    expect(copy.store.pendingDs !== null).toBe(deletesAhead(decoded, plan));
    for (const struct of decoded.structs) {
      const { client } = struct.id;
      expect(Y.getState(copy.store, client)).toBe(plan.stateAfter(client));
    }
    for (const [struct, offset] of plan.offsets) {
      if (offset === 0 || !(struct instanceof Y.Item)) continue;
      const start = struct.id.clock + offset;
      // The structs holding its first clock and the one before (one, once Yjs merged them).
      const landed = structOf(copy, Y.createID(struct.id.client, start));
      const left = structOf(copy, Y.createID(struct.id.client, start - 1));
      const crossed =
        landed instanceof Y.Item &&
        left instanceof Y.Item &&
        (left.parent !== landed.parent || left.parentSub !== landed.parentSub);
      if (crossed) expect(misplaced).not.toBeNull();
    }
    const refused = guardRefuses(server, update);
    if (misplaced) expect(refused).toBe(true);
    // Yjs's own updates, resent from any earlier state and merged, are never refused.
    if (honest) expect(refused).toBe(false);
    // The server takes what the guard lets through (and, to compare plans, nothing that waits).
    if (!refused && plan.waiting.size === 0 && !deletesAhead(decoded, plan)) {
      server = copy;
      history.push(Y.encodeStateVector(server));
    }
  }
}
