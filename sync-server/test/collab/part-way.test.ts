import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { judgePartWay, refusedOnCopy } from '../../src/collab/part-way';
import { decodeUpdate, misplacedPartWay, planIntegration } from '../../src/collab/yjs-integration';
import { craft, deletion, textOfTwo, typeOf } from '../support/crafted-updates';

/*
 * 50,000-frame runs of the sync fuzz suite made Yjs throw midway through applying an
 * update that decodes, printed with its stack by y-protocols after part of the update changed the
 * document: `Cannot read properties of undefined (reading 'origin')` in Item.integrate, and
 * `Unexpected case` in Item.gc. Both start an item part-way through, after what the document has
 * of its client: with garbage as its left neighbour, or linked into another type's list. These are
 * the shapes, made byte by byte as a hostile client would; the guard tries such updates on a copy
 * of the document. Yjs's own updates, in any order, are never refused.
 */

const C = 1_234;
const D = 99;
const E = 7;

/** What the guard says of `update` for a document holding `doc`. */
function refused(doc: Y.Doc, update: Uint8Array): boolean {
  // As the update guard judges it: where each part-way item lands, then what it asks for.
  const decoded = decodeUpdate(update);
  const plan = planIntegration(decoded, doc);
  if (misplacedPartWay(plan, doc)) return true;
  const verdict = judgePartWay(decoded, plan, doc);
  return verdict === 'refuse' || (verdict === 'try-on-copy' && refusedOnCopy(doc, update));
}

/** Applies the updates in turn as Yjs would; whether one of them throws. */
function yjsThrows(updates: Uint8Array[]): boolean {
  const doc = new Y.Doc();
  try {
    for (const update of updates) Y.applyUpdate(doc, update);
    return false;
  } catch {
    return true;
  }
}

/** Applies the updates the guard lets through; the index of the first it refuses, or -1. */
function firstRefused(updates: Uint8Array[]): number {
  const doc = new Y.Doc();
  for (const [index, update] of updates.entries()) {
    if (refused(doc, update)) return index;
    Y.applyUpdate(doc, update);
  }
  return -1;
}

const garbage = craft([[C, 0, [{ gc: 10 }]]]);
const overlapping = craft([[C, 8, [{ text: 'abcd' }]]]);

describe('items that start part-way where Yjs would throw', () => {
  const cases: Array<[string, Uint8Array[], number]> = [
    ['an item overlapping garbage the document holds', [garbage, overlapping], 1],
    ['garbage arriving under an item kept aside', [overlapping, garbage], 1],
    [
      'an item continuing part-way that waits, which Yjs would apply once what it overlaps became garbage',
      [
        // E's text in a map entry, and C's 10 characters in it.
        ...textOfTwo(E, C),
        // An item overlapping C's last two, waiting for D's part.
        craft([[C, 8, [{ text: 'abcd', origin: [D, 5] }]]]),
        // E's item deleted: C's characters in it become garbage; then D's part arrives.
        deletion(E, 0, 1),
        craft([[D, 0, [{ text: '012345' }]]]),
      ],
      // Refused as it arrives: it continues part-way and waits.
      2,
    ],
    [
      'the part an item kept aside waits for, with a deletion of the type its left neighbour is in',
      [
        // C's 10 characters in E's text, in a map entry.
        ...textOfTwo(E, C),
        // C's clocks 12–21, in a type of D's the server does not have yet: kept aside.
        craft([[C, 12, [{ text: 'ZZZZZZZZZZ', parent: [D, 0] }]]]),
        // C's next five characters, D's type and the deletion of E's text, at once: the item kept
        // aside is applied after the deletion, starting at 15, linked into the deleted text's
        // list, and collecting the text throws.
        Y.mergeUpdates([
          craft([[C, 10, [{ text: 'abcde', origin: [C, 9] }]]]),
          typeOf(D),
          deletion(E, 0, 1),
        ]),
      ],
      3,
    ],
  ];

  it.each(cases)('refuses %s', (_, updates, at) => {
    // Yjs itself throws on the sequence: each is a real crash, not a guess.
    expect(yjsThrows(updates)).toBe(true);
    expect(firstRefused(updates)).toBe(at);
  });

  it('lets through an item that starts where the garbage ends, or overlaps none', () => {
    expect(firstRefused([garbage, craft([[C, 10, [{ text: 'abcd' }]]])])).toBe(-1);
    expect(firstRefused([craft([[C, 0, [{ text: 'x'.repeat(10) }]]]), overlapping])).toBe(-1);
    // Wholly inside garbage the document has: Yjs skips it.
    expect(firstRefused([garbage, craft([[C, 2, [{ text: 'ab' }]]])])).toBe(-1);
    // A client resending its edits, of which the server has the first part: tried on a copy,
    // let through.
    const device = new Y.Doc();
    device.clientID = C;
    device.getText('notes').insert(0, '0123456789');
    const first = Y.encodeStateAsUpdate(device);
    device.getText('notes').insert(10, 'ab');
    const whole = Y.encodeStateAsUpdate(device);
    const server = new Y.Doc();
    Y.applyUpdate(server, first);
    expect(refused(server, whole)).toBe(false);
    Y.applyUpdate(server, whole);
    expect(server.getText('notes').toString()).toBe('0123456789ab');
  });

  it.each([
    ['deletes', (text: Y.Text) => text.delete(0, 1), 'yz'],
    ['adds to', (text: Y.Text) => text.insert(3, '!'), 'xyz!'],
  ] as const)(
    'lets through a device passing on edits the server has part of, with one that %s a line it has not seen',
    (_, edit, after) => {
      // C types ten characters, which reach the server, then two more, which do not.
      const c = new Y.Doc();
      c.clientID = C;
      c.getText('notes').insert(0, '0123456789');
      const server = new Y.Doc();
      Y.applyUpdate(server, Y.encodeStateAsUpdate(c));
      c.getText('notes').insert(10, 'ab');
      // D writes a line, then edits it; the relaying device has the line, not the edit.
      const d = new Y.Doc();
      d.clientID = D;
      d.getText('other').insert(0, 'xyz');
      const relay = new Y.Doc();
      relay.clientID = E;
      const line = Y.encodeStateAsUpdate(d);
      Y.applyUpdate(relay, line);
      const before = Y.encodeStateVector(d);
      edit(d.getText('other'));
      const edited = Y.encodeStateAsUpdate(d, before);
      // The relay hears C and D's edit at once and passes both on in one update: C's item starts
      // where the server's part of it does, and D's edit waits for a line the server has not seen.
      const passedOn: Uint8Array[] = [];
      relay.on('update', (update: Uint8Array) => passedOn.push(update));
      Y.applyUpdate(relay, Y.mergeUpdates([Y.encodeStateAsUpdate(c), edited]));
      const [update] = passedOn;
      expect(passedOn).toHaveLength(1);
      expect(refused(server, update!)).toBe(false);
      Y.applyUpdate(server, update!);
      expect(refused(server, line)).toBe(false);
      Y.applyUpdate(server, line);
      expect(server.getText('notes').toString()).toBe('0123456789ab');
      expect(server.getText('other').toString()).toBe(after);
    },
  );

  it("never refuses Yjs's own updates, sent in any order, again and merged", () => {
    const next = (seed: number) => (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    let seed = 20;
    const random = () => (seed = next(seed)) / 2 ** 31;
    // Client ids from a seed of their own: which client Yjs integrates first depends on them, and
    // with these a device passes on edits the server has part of while another's wait.
    let idSeed = 9;
    const clientId = () => Math.floor(((idSeed = next(idSeed)) / 2 ** 31) * 2 ** 32);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    let checked = 0;
    for (let session = 0; session < 60; session += 1) {
      const peers = [new Y.Doc(), new Y.Doc(), new Y.Doc()];
      for (const peer of peers) peer.clientID = clientId();
      const sent: Uint8Array[] = [];
      for (const peer of peers) peer.on('update', (update: Uint8Array) => sent.push(update));
      const server = new Y.Doc();
      const deliver = (update: Uint8Array) => {
        expect(refused(server, update)).toBe(false);
        Y.applyUpdate(server, update);
        checked += 1;
      };
      for (let step = 0; step < 40; step += 1) {
        const peer = pick(peers);
        const records = peer.getMap<Y.Text>('records');
        const keys = [...records.keys()];
        const choice = random();
        if (choice < 0.3 || keys.length === 0) {
          const text = new Y.Text();
          records.set(`r${Math.floor(random() * 6)}`, text);
          text.insert(0, 'a new record');
        } else if (choice < 0.6) {
          const text = records.get(pick(keys))!;
          text.insert(Math.floor(random() * (text.length + 1)), 'typed');
        } else if (choice < 0.75) {
          const text = records.get(pick(keys))!;
          if (text.length > 2) text.delete(Math.floor(random() * (text.length - 2)), 2);
        } else if (choice < 0.85) {
          // Deleting a record: its text's items become garbage.
          records.delete(pick(keys));
        } else {
          // Peers catch up with each other, so their garbage differs from the server's.
          const other = pick(peers);
          Y.applyUpdate(other, Y.encodeStateAsUpdate(peer, Y.encodeStateVector(other)));
        }
        // Some updates reach the server now, out of order; others later.
        while (sent.length > 0 && random() < 0.5)
          deliver(sent.splice(Math.floor(random() * sent.length), 1)[0]!);
      }
      // The rest in a random order, each again, some merged, and each peer's whole state.
      const rest = sent.splice(0);
      for (let i = rest.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [rest[i], rest[j]] = [rest[j]!, rest[i]!];
      }
      for (const update of rest) deliver(update);
      for (const update of rest.slice(0, 5)) deliver(update);
      if (rest.length > 1) deliver(Y.mergeUpdates(rest.slice(0, 3)));
      for (const peer of peers) {
        deliver(Y.encodeStateAsUpdate(peer));
        deliver(Y.encodeStateAsUpdate(peer, Y.encodeStateVector(server)));
      }
      expect(server.store.pendingStructs).toBeNull();
    }
    expect(checked).toBeGreaterThan(1_000);
  });
});

describe('what judging a part-way item costs', () => {
  it('judges a resend of what the server has part of where it lands, without copying the document', () => {
    // The reviewer's shape: one item of the sender's own client, starting one clock before what
    // the server has, naming the item before it — 20 bytes that looked like an honest resend and
    // bought a copy of the whole document each time.
    const server = new Y.Doc();
    Y.applyUpdate(server, craft([[C, 0, [{ text: 'x'.repeat(10) }]]]));
    const resend = craft([[C, 9, [{ text: 'xy', origin: [C, 8] }]]]);
    const decoded = decodeUpdate(resend);
    const plan = planIntegration(decoded, server);
    expect([...plan.offsets.values()]).toEqual([1]);
    expect(misplacedPartWay(plan, server)).toBeNull();
    expect(judgePartWay(decoded, plan, server)).toBe('fine');
  });

  it('refuses a part-way item that would be kept aside, without a copy', () => {
    const server = new Y.Doc();
    Y.applyUpdate(server, craft([[C, 0, [{ text: 'x'.repeat(10) }]]]));
    const waiting = craft([[C, 8, [{ text: 'abcd', origin: [D, 5] }]]]);
    const decoded = decodeUpdate(waiting);
    expect(judgePartWay(decoded, planIntegration(decoded, server), server)).toBe('refuse');
  });

  it('tries on a copy only what the document kept aside and the update lets Yjs apply', () => {
    const [first, typed] = textOfTwo(E, C);
    const server = new Y.Doc();
    Y.applyUpdate(server, first);
    Y.applyUpdate(server, typed);
    // C's clocks 12–21 in a type of D's the server lacks: kept aside.
    Y.applyUpdate(server, craft([[C, 12, [{ text: 'ZZZZZZZZZZ', parent: [D, 0] }]]]));
    // C's next five: what is kept aside would start part-way once they are in. D's type arrives
    // with them, so Yjs would apply it now.
    const update = Y.mergeUpdates([
      craft([[C, 10, [{ text: 'abcde', origin: [C, 9] }]]]),
      typeOf(D),
    ]);
    const decoded = decodeUpdate(update);
    expect(judgePartWay(decoded, planIntegration(decoded, server), server)).toBe('try-on-copy');
    // An update that fills none of what it waits for: nothing kept aside is applied, nothing tried.
    const other = decodeUpdate(typeOf(77));
    expect(judgePartWay(other, planIntegration(other, server), server)).toBe('fine');
  });
});
