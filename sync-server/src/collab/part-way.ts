import * as Y from 'yjs';
import type { DecodedUpdate, IntegrationPlan, Struct } from './yjs-integration';

/** The document's next clock for a client (its state vector's entry). */
const stateOf = (doc: Y.Doc, client: number) => Y.getState(doc.store, client);

/** Whether the struct is an item that starts before `state` (its client's next clock) and ends after. */
const partWay = (struct: Struct, state: number) =>
  struct instanceof Y.Item && struct.id.clock < state && state < struct.id.clock + struct.length;

/**
 * What an update's part-way items ask of the guard. An item of a client that starts before what the
 * document has of that client and ends after it: Yjs takes the document's struct before that point
 * as the item's left neighbour, whatever it is — garbage (Y.GC, which has no `.right`:
 * Item.integrate throws "reading 'origin'"), or an item in another type than the one the item
 * names (linked into that type's list; once it is deleted, collecting it throws "Unexpected case"
 * in Item.gc) — and either throws midway, after part of the update changed the document. Both were
 * found by the sync fuzz suite; neither shape comes from Yjs itself.
 *
 * - The update's own items Yjs integrates now were judged where they land (`misplacedPartWay`,
 *   yjs-integration.ts): a device resending what the server has part of continues the same list.
 * - One that would be kept aside for a missing part is refused: an honest continuation never waits
 *   (the document has its start, so it has what it refers to), and a crafted one kept aside would
 *   change meaning once stored (encoding slices it where the document's part ends).
 * - Parts the document keeps aside already, which the update lets Yjs apply, may start part-way
 *   once the update is in: those alone are tried on a copy of the document (`refusedOnCopy`), a
 *   cost its caller charges to the sender (a 13-byte update could buy a copy of a
 *   140,000-item document, half a second of blocked server, every message).
 */
export type PartWayVerdict = 'fine' | 'refuse' | 'try-on-copy';

export function judgePartWay(
  decoded: DecodedUpdate,
  plan: IntegrationPlan,
  doc: Y.Doc,
): PartWayVerdict {
  for (const struct of plan.waiting) {
    if (partWay(struct, stateOf(doc, struct.id.client))) return 'refuse';
  }
  const pending = doc.store.pendingStructs;
  if (!pending || decoded.structs.length === 0) return 'fine';
  const retried = [...pending.missing].some(([client, clock]) => plan.stateAfter(client) > clock);
  if (!retried) return 'fine';
  return keepsPartWay(pending.update, plan.stateAfter) ? 'try-on-copy' : 'fine';
}

/** Whether what a document keeps aside (its pending update) holds an item that starts part-way. */
function keepsPartWay(pending: Uint8Array, stateOfClient: (client: number) => number): boolean {
  return Y.decodeUpdateV2(pending).structs.some((struct) =>
    partWay(struct, stateOfClient(struct.id.client)),
  );
}

/**
 * Applies the update to a copy of the document — its parts kept aside too, as they are — and
 * tells whether Yjs throws, or keeps aside an item that starts part-way. The copy costs what
 * encoding and reading the document do (up to half a second for the largest), so it is kept for
 * the rare updates `judgePartWay` names, and charged to their sender.
 */
export function refusedOnCopy(doc: Y.Doc, update: Uint8Array): boolean {
  const { store } = doc;
  const { pendingStructs, pendingDs } = store;
  // The document's own structs only: encoding merges what waits into them, which would slice it
  // where Yjs, applying it, would not.
  store.pendingStructs = null;
  store.pendingDs = null;
  let state: Uint8Array;
  try {
    state = Y.encodeStateAsUpdate(doc);
  } finally {
    store.pendingStructs = pendingStructs;
    store.pendingDs = pendingDs;
  }
  const copy = new Y.Doc({ gc: doc.gc });
  try {
    Y.applyUpdate(copy, state);
    copy.store.pendingStructs = pendingStructs && {
      missing: new Map(pendingStructs.missing),
      update: pendingStructs.update,
    };
    copy.store.pendingDs = pendingDs;
    Y.applyUpdate(copy, update);
    const kept = copy.store.pendingStructs;
    return kept !== null && keepsPartWay(kept.update, (client) => stateOf(copy, client));
  } catch {
    return true;
  } finally {
    copy.destroy();
  }
}
