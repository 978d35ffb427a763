import * as Y from 'yjs';

type DecodedUpdate = ReturnType<typeof Y.decodeUpdate>;
type Struct = DecodedUpdate['structs'][number];

/** Where a struct starts and ends in its client's clocks, and whether it is garbage (Y.GC). */
interface Span {
  clock: number;
  end: number;
  gc: boolean;
}

/** Each client's structs of an update, in clock order (Yjs writes them so), skips left out. */
function spansOf(structs: readonly Struct[]): Map<number, Span[]> {
  const spans = new Map<number, Span[]>();
  for (const struct of structs) {
    if (struct instanceof Y.Skip) continue;
    const { client, clock } = struct.id;
    let list = spans.get(client);
    if (!list) spans.set(client, (list = []));
    list.push({ clock, end: clock + struct.length, gc: struct instanceof Y.GC });
  }
  return spans;
}

/**
 * Whether garbage among `spans` (in clock order, none overlapping another) ends strictly inside
 * `item`: after its first clock and before its last, where Yjs would start the item part-way.
 */
function endsInside(spans: readonly Span[] | undefined, item: Span): boolean {
  if (!spans) return false;
  let low = 0;
  let high = spans.length;
  // The first span that ends after the item's first clock.
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (spans[middle]!.end <= item.clock) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < spans.length && spans[index]!.end < item.end; index += 1) {
    if (spans[index]!.gc) return true;
  }
  return false;
}

/** The same, over the structs the document holds for the item's client. */
function documentEndsInside(doc: Y.Doc, client: number, item: Span): boolean {
  const structs = doc.store.clients.get(client);
  const last = structs?.at(-1);
  if (!structs || !last) return false;
  const state = last.id.clock + last.length;
  // Nothing of it is new to the document (Yjs skips it whole), or it starts where the document ends.
  if (state >= item.end || state <= item.clock) return false;
  // A document's structs of one client cover its clocks from 0 without a gap.
  for (let index = Y.findIndexSS(structs, item.clock); index < structs.length; index += 1) {
    const struct = structs[index]!;
    const end = struct.id.clock + struct.length;
    if (end >= item.end) break;
    if (struct instanceof Y.GC) return true;
  }
  return false;
}

/**
 * Whether applying the update could make Yjs integrate an item part-way through with garbage
 * (a Y.GC) as its left neighbour: `Item.integrate` then reads `.right` of the GC, which has none,
 * and throws midway through the transaction (`reading 'origin'`), after changing part of the
 * document; y-protocols prints the error with its stack. Yjs starts an item part-way when what
 * the document has of its client ends inside it; it checks that neighbour for garbage when the
 * item starts at its first clock, not then. Yjs's own updates never have an item overlapping its
 * client's garbage with a different end: this is a crafted update (found by the sync fuzz suite),
 * and is refused when
 *
 * - an item of the update has the document's garbage ending inside it;
 * - an item kept aside until a missing part arrives has garbage of the update ending inside it;
 * - an item kept aside has the document's garbage ending inside it (garbage collected after it
 *   was kept aside) and the update brings some part it waits for, which would apply it.
 *
 * Garbage kept aside is applied after the update's items, and merging what waits slices it at the
 * right place: neither starts an item part-way. Each check is a binary search per item.
 */
export function overlapsGarbage(decoded: DecodedUpdate, doc: Y.Doc): boolean {
  for (const struct of decoded.structs) {
    if (!(struct instanceof Y.Item)) continue;
    const { client, clock } = struct.id;
    const item: Span = { clock, end: clock + struct.length, gc: false };
    if (documentEndsInside(doc, client, item)) return true;
  }
  const pending = doc.store.pendingStructs;
  if (!pending) return false;
  const updateSpans = spansOf(decoded.structs);
  const bringsMissing = [...pending.missing].some(([client, clock]) =>
    (updateSpans.get(client) ?? []).some((span) => span.end > clock),
  );
  for (const [client, spans] of spansOf(Y.decodeUpdateV2(pending.update).structs)) {
    for (const item of spans) {
      if (item.gc) continue;
      if (endsInside(updateSpans.get(client), item)) return true;
      if (bringsMissing && documentEndsInside(doc, client, item)) return true;
    }
  }
  return false;
}
