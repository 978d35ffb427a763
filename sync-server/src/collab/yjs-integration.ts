import * as Y from 'yjs';

/*
 * What Yjs will do with an update, worked out before it touches the document. An update declares
 * where each item goes (its parent, or the neighbours it was placed between), but Yjs does not
 * always put it there: an item of a client starting below what the document has of that client is
 * integrated part-way, next to the document's last item of that client, wherever that is; a
 * client listed twice in one update is read once, the last time; items that wait for a missing
 * part are kept aside and applied later. Every rule the server holds about an update (who may write
 * which record, what a document may hold) is judged against what Yjs will do, never against what
 * the update declares (docs/decisions/0011-space-record-rules-from-update-content.md).
 */

/** One struct of an update: an item, garbage, or a gap (Skip). */
export type Struct = ReturnType<typeof Y.decodeUpdate>['structs'][number];
/** An update's deletions, by client. */
type DeleteSet = ReturnType<typeof Y.decodeUpdate>['ds'];

/** An update as `Y.decodeUpdate` reads it, with the clients of its sections in the order read. */
export interface DecodedUpdate {
  structs: Struct[];
  ds: DeleteSet;
  /** Each section's client, as Yjs reads them: a client twice is an update Yjs reads otherwise. */
  sections: number[];
}

/**
 * Decodes an update as `Y.decodeUpdate` does, noting the client of each of its sections. Throws
 * what `Y.decodeUpdate` throws on a malformed update.
 */
export function decodeUpdate(update: Uint8Array): DecodedUpdate {
  const sections: number[] = [];
  readSections = sections;
  try {
    const { structs, ds } = Y.decodeUpdateV2(update, SectionDecoder);
    return { structs, ds, sections };
  } finally {
    readSections = null;
  }
}

/** Where SectionDecoder notes the sections of the update being decoded (decoding is synchronous). */
let readSections: number[] | null = null;

/**
 * Yjs's first-format decoder, noting each section's client: it reads a client once per section
 * header and nowhere else (its delete set reads clients directly), so its calls are the sections.
 * One class for every update: a class made per call cost a third of the decoding's time.
 */
class SectionDecoder extends Y.UpdateDecoderV1 {
  override readClient(): number {
    const client = super.readClient();
    readSections?.push(client);
    return client;
  }
}

/**
 * Whether the update lists a client in more than one section. `Y.decodeUpdate` reads every section,
 * but applying it keeps only the last one of each client: what is judged would not be what is
 * applied. Yjs never writes one.
 */
export function repeatsAClient(decoded: DecodedUpdate): boolean {
  return new Set(decoded.sections).size !== decoded.sections.length;
}

/** The document's struct holding `id`, or null when the document does not have it yet. */
export function structOf(doc: Y.Doc, id: Y.ID): Y.Item | Y.GC | null {
  if (id.clock >= Y.getState(doc.store, id.client)) return null;
  const structs = doc.store.clients.get(id.client)!;
  return structs[Y.findIndexSS(structs, id.clock)]!;
}

/** What Yjs does with an update's structs (`planIntegration`). */
export interface IntegrationPlan {
  /**
   * Each struct Yjs integrates now, with where in it it starts: 0, or part-way through (the
   * document has its first part). Structs it skips (the document has all of them) and structs it
   * keeps aside are not here.
   */
  offsets: Map<Struct, number>;
  /** Structs Yjs keeps aside until a part the document lacks arrives. */
  waiting: Set<Struct>;
  /** Each client's next clock once the update's structs are integrated. */
  stateAfter(client: number): number;
}

/** The client of a part `struct` needs that the document does not have now, as Yjs checks it. */
function missingOf(struct: Struct, stateOf: (client: number) => number): number | null {
  if (!(struct instanceof Y.Item)) return null;
  const { client } = struct.id;
  const parent = struct.parent instanceof Y.ID ? struct.parent : null;
  // Yjs's order (Item.getMissing): it decides which client's structs are tried next.
  for (const ref of [struct.origin, struct.rightOrigin, parent]) {
    if (ref && ref.client !== client && ref.clock >= stateOf(ref.client)) return ref.client;
  }
  return null;
}

/**
 * Plays Yjs's `integrateStructs` (yjs/src/utils/encoding.js) on clocks alone: the same order of
 * clients (highest first), the same stack of structs waiting for another client's, the same
 * test of what is missing, and the same rule for what is kept aside (a struct that waits takes
 * every later struct of its client with it). Reads the document, changes nothing. Assumes one
 * section per client (`repeatsAClient` refuses the rest).
 */
export function planIntegration(decoded: DecodedUpdate, doc: Y.Doc): IntegrationPlan {
  const offsets = new Map<Struct, number>();
  const waiting = new Set<Struct>();
  const state = new Map<number, number>();
  const stateOf = (client: number) => state.get(client) ?? Y.getState(doc.store, client);
  const plan: IntegrationPlan = { offsets, waiting, stateAfter: stateOf };

  const refs = new Map<number, { i: number; refs: Struct[] }>();
  for (const struct of decoded.structs) {
    const own = refs.get(struct.id.client);
    if (own) own.refs.push(struct);
    else refs.set(struct.id.client, { i: 0, refs: [struct] });
  }
  let ids = [...refs.keys()].sort((a, b) => a - b);
  const nextTarget = () => {
    while (ids.length > 0) {
      const target = refs.get(ids.at(-1)!)!;
      if (target.i < target.refs.length) return target;
      ids.pop();
    }
    return null;
  };
  let target = nextTarget();
  if (target === null) return plan;

  const stack: Struct[] = [];
  const keepStackAside = () => {
    for (const struct of stack) {
      const client = struct.id.client;
      const rest = refs.get(client);
      if (rest) {
        for (const kept of rest.refs.slice(rest.i - 1)) waiting.add(kept);
        refs.delete(client);
        // Emptied, as Yjs empties it: the client being read may be this one.
        rest.i = 0;
        rest.refs = [];
      } else {
        waiting.add(struct);
      }
      ids = ids.filter((id) => id !== client);
    }
    stack.length = 0;
  };

  let head = target.refs[target.i++]!;
  for (;;) {
    if (!(head instanceof Y.Skip)) {
      const offset = stateOf(head.id.client) - head.id.clock;
      if (offset < 0) {
        stack.push(head);
        keepStackAside();
      } else {
        const missing = missingOf(head, stateOf);
        if (missing !== null) {
          stack.push(head);
          const theirs = refs.get(missing);
          if (!theirs || theirs.i === theirs.refs.length) {
            keepStackAside();
          } else {
            head = theirs.refs[theirs.i++]!;
            continue;
          }
        } else if (offset === 0 || offset < head.length) {
          offsets.set(head, offset);
          state.set(head.id.client, head.id.clock + head.length);
        }
      }
    }
    if (stack.length > 0) {
      head = stack.pop()!;
    } else if (target !== null && target.i < target.refs.length) {
      head = target.refs[target.i++]!;
    } else {
      target = nextTarget();
      if (target === null) break;
      head = target.refs[target.i++]!;
    }
  }
  return plan;
}

/** Where an item lands: its parent type (compared by identity) and key (null in a list). */
interface Place {
  parent: unknown;
  parentSub: string | null;
}
/** Yjs turns the item into garbage: its parent or a neighbour was collected, or it has no parent. */
const COLLECTED = 'collected';

/**
 * The place an item of the update names, found as Yjs's Item.getMissing finds it: its parent, or
 * its left neighbour's (else its right one's) parent and key. Null when it names a part the
 * document does not have.
 */
function declaredPlace(item: Y.Item, doc: Y.Doc): Place | typeof COLLECTED | null {
  const left = item.origin ? structOf(doc, item.origin) : undefined;
  const right = item.rightOrigin ? structOf(doc, item.rightOrigin) : undefined;
  if (left === null || right === null) return null;
  if (left instanceof Y.GC || right instanceof Y.GC) return COLLECTED;
  const parent: unknown = item.parent;
  if (parent === null) {
    const neighbour = left ?? right;
    if (!neighbour) return COLLECTED;
    return { parent: neighbour.parent, parentSub: neighbour.parentSub };
  }
  if (parent instanceof Y.ID) {
    const holder = structOf(doc, parent);
    if (holder === null) return null;
    if (!(holder instanceof Y.Item) || !(holder.content instanceof Y.ContentType)) return COLLECTED;
    return { parent: holder.content.type, parentSub: item.parentSub };
  }
  const root = typeof parent === 'string' ? doc.share.get(parent) : undefined;
  return root ? { parent: root, parentSub: item.parentSub } : null;
}

/**
 * The first item Yjs would integrate part-way somewhere else than where it says it goes, or null.
 * Yjs places such an item right after the document's struct before the part it lacks (Item.
 * integrate with an offset), keeping the parent and key the item names: when that struct is in
 * another type or under another key, the item is linked into a list it does not belong to — live,
 * it writes the key it names and deletes that struct's value; stored and read again, it is that
 * struct's neighbour and writes there (a member taking over another's record). Garbage
 * before the part makes Yjs throw midway. A client resending what the server has part of (the
 * honest case) continues the same list, so is never refused.
 */
export function misplacedPartWay(plan: IntegrationPlan, doc: Y.Doc): Y.Item | null {
  for (const [struct, offset] of plan.offsets) {
    if (offset === 0 || !(struct instanceof Y.Item)) continue;
    const declared = declaredPlace(struct, doc);
    // Yjs turns it into garbage wherever it lands.
    if (declared === COLLECTED) continue;
    const left = structOf(doc, Y.createID(struct.id.client, struct.id.clock + offset - 1));
    if (!(left instanceof Y.Item)) return struct;
    if (declared === null || declared.parent !== left.parent) return struct;
    if (declared.parentSub !== left.parentSub) return struct;
  }
  return null;
}

/**
 * Whether the update deletes a part no client has written yet, as far as the document will know
 * once the update's structs are in: Yjs keeps such a deletion aside and applies it to whatever
 * later arrives with those clocks.
 */
export function deletesAhead(decoded: DecodedUpdate, plan: IntegrationPlan): boolean {
  for (const [client, ranges] of decoded.ds.clients) {
    const known = plan.stateAfter(client);
    if (ranges.some((range) => range.len > 0 && range.clock + range.len > known)) return true;
  }
  return false;
}
