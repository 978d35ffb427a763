import fc from 'fast-check';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';
import { awarenessMessage, frame, MESSAGE, updateMessage } from './raw-sync';

/*
 * The broken frames of the sync fuzz suite (fuzz-sync.test.ts): Yjs updates real, broken and
 * waiting on missing parts, how they are carried, and frames broken at the message level.
 */

/** Real updates made by a fresh client (ids from the generator, so every run builds the same). */
function realUpdates(clientId: number, typed: string) {
  const text = `x${typed}`;
  const doc = new Y.Doc();
  doc.clientID = clientId;
  doc.getMap('records').set(`r${clientId}`, text);
  const first = Y.encodeStateAsUpdate(doc);
  const afterFirst = Y.encodeStateVector(doc);
  doc.getText('notes').insert(0, text);
  doc.getArray('entries').push([text, clientId]);
  const second = Y.encodeStateAsUpdate(doc, afterFirst);
  const afterSecond = Y.encodeStateVector(doc);
  doc.getText('notes').delete(0, Math.max(1, Math.floor(text.length / 2)));
  const deletes = Y.encodeStateAsUpdate(doc, afterSecond);
  const other = new Y.Doc();
  other.clientID = clientId + 1;
  other.getMap(`evil-${clientId % 7}`).set('x', text);
  other.getXmlFragment('prosemirror').insert(0, [new Y.XmlText(text)]);
  return {
    whole: Y.encodeStateAsUpdate(doc),
    first,
    /** Needs `first`, which the server never got: waits for a missing part. */
    missingDependency: second,
    deletes,
    otherRoots: Y.encodeStateAsUpdate(other),
  };
}

/** An update that only deletes ranges of clients nobody knows. */
function unknownDeletes(ranges: Array<[client: number, clock: number, len: number]>) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, ranges.length);
  for (const [client, clock, len] of ranges) {
    encoding.writeVarUint(e, client);
    encoding.writeVarUint(e, 1);
    encoding.writeVarUint(e, clock);
    encoding.writeVarUint(e, len);
  }
  return encoding.toUint8Array(e);
}

const bytes = (max: number) => fc.uint8Array({ maxLength: max });

/** A Yjs update: real, broken, or waiting on parts the server never had. */
export const yjsUpdate: fc.Arbitrary<{ kind: string; update: Uint8Array }> = fc
  .record({
    clientId: fc.integer({ min: 100_000, max: 2 ** 31 }),
    text: fc.string({ maxLength: 40 }),
    choice: fc.constantFrom(
      'whole',
      'first',
      'missing-dependency',
      'deletes-alone',
      'other-roots',
      'corrupted',
      'truncated',
      'unknown-deletes',
      'random',
    ),
    flips: fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 3 }),
    cut: fc.nat(),
    ranges: fc.array(fc.tuple(fc.nat(2 ** 31), fc.nat(2 ** 20), fc.integer({ min: 1, max: 1e6 })), {
      minLength: 1,
      maxLength: 4,
    }),
    random: bytes(256),
  })
  .map(({ clientId, text, choice, flips, cut, ranges, random }) => {
    const real = realUpdates(clientId, text);
    switch (choice) {
      case 'whole':
        return { kind: choice, update: real.whole };
      case 'first':
        return { kind: choice, update: real.first };
      case 'missing-dependency':
        return { kind: choice, update: real.missingDependency };
      case 'deletes-alone':
        return { kind: choice, update: real.deletes };
      case 'other-roots':
        return { kind: choice, update: real.otherRoots };
      case 'corrupted': {
        const bad = real.whole.slice();
        for (const [at, value] of flips) bad[at % bad.length] = value;
        return { kind: choice, update: bad };
      }
      case 'truncated':
        return { kind: choice, update: real.whole.slice(0, cut % real.whole.length) };
      case 'unknown-deletes':
        return { kind: choice, update: unknownDeletes(ranges) };
      default:
        return { kind: 'random', update: random };
    }
  });

/** How a Yjs update is carried: as an update, a sync step 2, or a sync reply (type 4). */
export const carried = (name: string, update: Uint8Array, how: 'update' | 'step-2' | 'reply') =>
  how === 'update'
    ? updateMessage(name, update)
    : frame(name, (e) => {
        encoding.writeVarUint(e, how === 'reply' ? 4 : MESSAGE.sync);
        encoding.writeVarUint(e, 1);
        encoding.writeVarUint8Array(e, update);
      });

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
};
const nameOnly = (name: string) => frame(name, () => undefined);

/** One frame broken at the message level, about document `name`. */
export function messageFrame(name: string): fc.Arbitrary<{ kind: string; message: Uint8Array }> {
  const k = (kind: string, message: Uint8Array) => ({ kind, message });
  return fc.oneof(
    bytes(512).map((b) => k('random bytes', b)),
    fc
      .constantFrom(
        Uint8Array.of(0x80),
        Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
        Uint8Array.of(),
        concat(nameOnly(name), Uint8Array.of(0x80)),
        concat(nameOnly(name), Uint8Array.of(MESSAGE.sync, 0x80)),
        concat(nameOnly(name), Uint8Array.of(MESSAGE.sync, 2, 0xff, 0xff, 0xff)),
        concat(nameOnly(name), Uint8Array.of(MESSAGE.sync, 2, 0xe8, 0x07, 1, 2, 3)),
        concat(nameOnly(name), Uint8Array.of(MESSAGE.awareness, 0x90)),
        concat(nameOnly(name), Uint8Array.of(MESSAGE.auth, 0, 0xff)),
        nameOnly(name),
      )
      .map((m) => k('truncated varint', m)),
    fc
      .tuple(
        fc.oneof(fc.integer({ min: 9, max: 300 }), fc.constantFrom(3, 5, 6, 7, 8, 2 ** 30)),
        bytes(64),
      )
      .map(([type, payload]) =>
        k(
          `message type ${type}`,
          frame(name, (e) => {
            encoding.writeVarUint(e, type);
            encoding.writeUint8Array(e, payload);
          }),
        ),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 200_000 }))
      .map(([clientId, size]) =>
        k(
          'huge presence',
          awarenessMessage(name, [[clientId, { user: { name: 'x'.repeat(size) } }]]),
        ),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 2 ** 31 }), fc.string({ maxLength: 20 }))
      .map(([clientId, text]) =>
        k(
          'broken presence',
          frame(name, (e) => {
            const inner = encoding.createEncoder();
            encoding.writeVarUint(inner, 1);
            encoding.writeVarUint(inner, clientId);
            encoding.writeVarUint(inner, 1);
            encoding.writeVarString(inner, `{${text}`);
            encoding.writeVarUint(e, MESSAGE.awareness);
            encoding.writeVarUint8Array(e, encoding.toUint8Array(inner));
          }),
        ),
      ),
    fc.constantFrom(0, 1, 2, 3).map((authType) =>
      k(
        `authentication ${authType} again`,
        frame(name, (e) => {
          encoding.writeVarUint(e, MESSAGE.auth);
          encoding.writeVarUint(e, authType);
          encoding.writeVarString(e, 'again');
        }),
      ),
    ),
    fc.oneof(bytes(64), fc.constant(new Uint8Array(2 * 1024 * 1024).fill(0xff))).map((sv) =>
      k(
        'odd state vector',
        frame(name, (e) => {
          encoding.writeVarUint(e, MESSAGE.sync);
          encoding.writeVarUint(e, 0);
          encoding.writeVarUint8Array(e, sv);
        }),
      ),
    ),
    fc.integer({ min: 3, max: 1000 }).map((syncType) =>
      k(
        `sync type ${syncType}`,
        frame(name, (e) => {
          encoding.writeVarUint(e, MESSAGE.sync);
          encoding.writeVarUint(e, syncType);
          encoding.writeVarUint8Array(e, Uint8Array.of(0, 0));
        }),
      ),
    ),
  );
}
