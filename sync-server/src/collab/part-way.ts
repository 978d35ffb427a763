import * as Y from 'yjs';
import type { DecodedUpdate, IntegrationPlan, Struct } from './yjs-integration';

/** The document's next clock for a client (its state vector's entry). */
const stateOf = (doc: Y.Doc, client: number) => Y.getState(doc.store, client);

/** Whether the struct is an item that starts before `state` (its client's next clock) and ends after. */
const partWay = (struct: Struct, state: number) =>
  struct instanceof Y.Item && struct.id.clock < state && state < struct.id.clock + struct.length;

/**
 * Whether applying the update could make Yjs integrate an item part-way through: an item of a
 * client that starts before what the document has of that client and ends after it. Yjs then
 * takes the document's struct before that point as the item's left neighbour, whatever it is:
 * garbage (Y.GC, which has no `.right`: Item.integrate throws "reading 'origin'"), or an item in
 * another type than the one the item names (the item is linked into that type's list; once that
 * type is deleted, collecting it throws "Unexpected case" in Item.gc). Either throws midway
 * through the transaction, after part of the update changed the document, and y-protocols prints
 * the stack. Both were found by the sync fuzz suite; neither shape comes from Yjs itself.
 *
 * A client resending what the server partly has (a copy of its own edits from its device) is the
 * honest case, and rare: those are tried on a copy of the document (`refusedOnCopy`).
 * Applies to the update's items, and to the parts kept aside for a missing part when the update
 * brings that part (they are applied in the same transaction, after the update's deletions).
 */
function startsPartWay(decoded: DecodedUpdate, plan: IntegrationPlan, doc: Y.Doc): boolean {
  for (const struct of decoded.structs) {
    if (partWay(struct, stateOf(doc, struct.id.client))) return true;
  }
  const pending = doc.store.pendingStructs;
  if (!pending) return false;
  const retried = [...pending.missing].some(([client, clock]) => plan.stateAfter(client) > clock);
  if (!retried) return false;
  return keepsPartWay(pending.update, plan.stateAfter);
}

/** Whether what a document keeps aside (its pending update) holds an item that starts part-way. */
function keepsPartWay(pending: Uint8Array, stateOfClient: (client: number) => number): boolean {
  return Y.decodeUpdateV2(pending).structs.some((struct) =>
    partWay(struct, stateOfClient(struct.id.client)),
  );
}

/**
 * Whether the guard refuses the update for what it starts part-way (`startsPartWay`): when applying
 * it to a copy of the document throws, or leaves an item that starts part-way kept aside for a
 * missing part. An honest continuation is never kept aside (the document has its start, so it has
 * what the item refers to); a crafted one kept aside would change meaning once stored (encoding
 * slices it where the document's part ends) and could throw when a later update lets Yjs apply it,
 * after what it overlaps became garbage. Whether the update waits for something else — a deletion
 * of parts not here yet, another client's item — says nothing of the item: Yjs's own updates
 * (a device passing on what it received from another) hold both.
 */
export function refusesPartWay(
  decoded: DecodedUpdate,
  plan: IntegrationPlan,
  doc: Y.Doc,
  update: Uint8Array,
): boolean {
  if (!startsPartWay(decoded, plan, doc)) return false;
  return refusedOnCopy(doc, update);
}

/**
 * Applies the update to a copy of the document — its parts kept aside too, as they are — and
 * tells whether Yjs throws, or keeps aside an item that starts part-way. The copy costs what
 * encoding and reading the document do (tens of milliseconds for a large one), so it is kept for
 * the rare updates `startsPartWay` names.
 */
function refusedOnCopy(doc: Y.Doc, update: Uint8Array): boolean {
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
