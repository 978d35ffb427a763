import * as Y from 'yjs';

/** A document update as `Y.decodeUpdate` reads it. */
type DecodedUpdate = ReturnType<typeof Y.decodeUpdate>;
type Struct = DecodedUpdate['structs'][number];

/**
 * Past this many, a value's nodes are not counted further: the caller refuses it anyway (the
 * document's item limit is far below).
 */
const NODE_COUNT_CAP = 10_000_000;

/**
 * The JS values a stored JSON value becomes: each object, array and entry is one. An array item
 * of 2.4 million empty objects is one Yjs struct in 4.8 MB, and 2.4 million objects in memory.
 */
function nodesIn(value: unknown): number {
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && nodes < NODE_COUNT_CAP) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    nodes += 1;
    const children = Array.isArray(next) ? next : Object.values(next as Record<string, unknown>);
    nodes += children.length;
    for (const child of children)
      if (child !== null && typeof child === 'object') stack.push(child);
  }
  return nodes;
}

/**
 * What one struct costs in memory, in items: one, plus every JS value its content holds (JSON and
 * "any" values, embeds and formats; text and bytes cost what their bytes do). A type is an object
 * of its own: two.
 */
function costOf(struct: Struct): number {
  if (!(struct instanceof Y.Item)) return struct instanceof Y.Skip ? 0 : 1;
  const content: unknown = struct.content;
  if (content instanceof Y.ContentAny || content instanceof Y.ContentJSON) {
    let nodes = 0;
    for (const value of content.arr) nodes += nodesIn(value);
    return 1 + nodes;
  }
  if (content instanceof Y.ContentEmbed) return 1 + nodesIn(content.embed);
  if (content instanceof Y.ContentFormat) return 1 + nodesIn(content.value);
  if (content instanceof Y.ContentType) return 2;
  return 1;
}

/** What an update would add to a document. */
export interface UpdateGrowth {
  /** Items, as `costOf` counts them, of the parts the document does not have yet. */
  items: number;
  /** It holds a subdocument (a whole Y.Doc per item): Pipit has none, so it is refused. */
  hasSubdocument: boolean;
}

/**
 * `clockOf(client)` is the document's next clock for that client (its state vector). Parts it
 * has already are not counted (a provider resends what it is not sure arrived); each deleted range
 * counts two, for the item it may split in three. Whether any of it waits for a missing part is
 * `planIntegration`'s (yjs-integration.ts).
 */
export function growthOf(
  decoded: DecodedUpdate,
  clockOf: (client: number) => number,
): UpdateGrowth {
  const covered = new Map<number, number>();
  const coveredOf = (client: number) => covered.get(client) ?? clockOf(client);
  let items = 0;
  let hasSubdocument = false;
  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) continue;
    const { client, clock } = struct.id;
    if (clock + struct.length <= coveredOf(client)) continue;
    items += costOf(struct);
    if (struct instanceof Y.Item && struct.content instanceof Y.ContentDoc) hasSubdocument = true;
    covered.set(client, Math.max(coveredOf(client), clock + struct.length));
  }
  let ranges = 0;
  for (const deleted of decoded.ds.clients.values()) ranges += deleted.length;
  return { items: items + 2 * ranges, hasSubdocument };
}

/** The bytes of the parts a document keeps aside until what they need arrives. */
export function waitingBytes(doc: Y.Doc): number {
  return (
    (doc.store.pendingStructs?.update.byteLength ?? 0) + (doc.store.pendingDs?.byteLength ?? 0)
  );
}

/**
 * What a loaded document costs, in items as updates are counted (`costOf`), the parts waiting for
 * a missing one included: what its memory follows. A walk of every struct: for loads and stores.
 */
export function itemsOf(doc: Y.Doc): number {
  let items = 0;
  for (const structs of doc.store.clients.values()) {
    for (const struct of structs) items += costOf(struct);
  }
  // Yjs keeps what waits in its second update format.
  const pending = doc.store.pendingStructs;
  if (pending) items += Y.decodeUpdateV2(pending.update).structs.length;
  if (doc.store.pendingDs) items += growthOf(Y.decodeUpdateV2(doc.store.pendingDs), () => 0).items;
  return items;
}
