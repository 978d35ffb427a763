import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

/*
 * Yjs updates made byte by byte, as a hostile client would: shapes Yjs itself never writes.
 */

export type CraftedStruct =
  | { gc: number }
  | {
      text: string;
      parent?: string | [client: number, clock: number];
      origin?: [client: number, clock: number];
    }
  | {
      /** Values of a map entry or list (Yjs's "any" content): one clock each. */
      any: unknown[];
      parent?: string | [client: number, clock: number];
      /** The map key the values are written under (only with `parent`). */
      key?: string;
      origin?: [client: number, clock: number];
    };

/** An update in Yjs's first format: `clients` maps a client to its first clock and structs. */
export function craft(clients: Array<[client: number, clock: number, structs: CraftedStruct[]]>) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, clients.length);
  for (const [client, clock, structs] of clients) {
    encoding.writeVarUint(e, structs.length);
    encoding.writeVarUint(e, client);
    encoding.writeVarUint(e, clock);
    for (const struct of structs) {
      if ('gc' in struct) {
        encoding.writeUint8(e, 0);
        encoding.writeVarUint(e, struct.gc);
        continue;
      }
      // Content 4: a string, 8: "any" values; 0x80: an origin follows; 0x20: a map key follows.
      const key = 'any' in struct && !struct.origin ? struct.key : undefined;
      const content = 'any' in struct ? 8 : 4;
      encoding.writeUint8(e, content | (struct.origin ? 0x80 : 0) | (key ? 0x20 : 0));
      if (struct.origin) {
        encoding.writeVarUint(e, struct.origin[0]);
        encoding.writeVarUint(e, struct.origin[1]);
      } else if (typeof struct.parent === 'string' || struct.parent === undefined) {
        encoding.writeVarUint(e, 1);
        encoding.writeVarString(e, struct.parent ?? 'notes');
      } else {
        encoding.writeVarUint(e, 0);
        encoding.writeVarUint(e, struct.parent[0]);
        encoding.writeVarUint(e, struct.parent[1]);
      }
      if (key) encoding.writeVarString(e, key);
      if ('any' in struct) {
        encoding.writeVarUint(e, struct.any.length);
        for (const value of struct.any) encoding.writeAny(e, value as never);
      } else {
        encoding.writeVarString(e, struct.text);
      }
    }
  }
  // No deletions.
  encoding.writeVarUint(e, 0);
  return encoding.toUint8Array(e);
}

/** A delete set of one range, in the same format (no structs). */
export function deletion(client: number, clock: number, length: number) {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 1);
  encoding.writeVarUint(e, client);
  encoding.writeVarUint(e, 1);
  encoding.writeVarUint(e, clock);
  encoding.writeVarUint(e, length);
  return encoding.toUint8Array(e);
}

/** Yjs's own two updates: `owner` makes a text in a map entry, `writer` types 10 characters in it. */
export function textOfTwo(owner: number, writer: number): [Uint8Array, Uint8Array] {
  const doc = new Y.Doc();
  doc.clientID = owner;
  const text = new Y.Text();
  doc.getMap('meta').set('k', text);
  const first = Y.encodeStateAsUpdate(doc);
  doc.clientID = writer;
  text.insert(0, '0123456789');
  return [first, Y.encodeStateAsUpdate(doc, Y.encodeStateVectorFromUpdate(first))];
}

/** Yjs's own update: `client` makes an empty text in a map entry of its own. */
export function typeOf(client: number): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = client;
  doc.getMap('other').set('q', new Y.Text());
  return Y.encodeStateAsUpdate(doc);
}
