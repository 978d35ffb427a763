import * as Y from 'yjs';
import { SPACE_LIMITS } from '@pipit/protocol';
import {
  type DecodedUpdate,
  deletesAhead,
  type IntegrationPlan,
  planIntegration,
  type Struct,
  structOf,
} from './yjs-integration';

/*
 * Who may change which record of a shared space
 * (docs/decisions/0011-space-record-rules-from-update-content.md), judged from what an update
 * writes and deletes, against the server's document as it is now. The document `space/{spaceId}`:
 *
 *   doc.getMap('records')  id → Y.Map { collectionId, values: Y.Map (field id → value),
 *                                        createdAt, updatedAt, authorId }
 *
 * Each record's `authorId` is the account that added it, set with the record and never changed.
 * A collection whose rule is `author` lets only that account change or delete its records; under
 * `anyone`, every member may. The app does the same before it offers an edit, so a refusal here
 * is only ever an update the app would not have made.
 */

/** Who may change or delete a record of a shared collection: anyone in the space, or its author. */
export type SpaceRecordRule = 'anyone' | 'author';

export interface SpaceUpdateCheck {
  /** The space's document on the server, as it is before the update. */
  doc: Y.Doc;
  /** The update, decoded once by the update guard (`decodeUpdate`, one section per client). */
  decoded: DecodedUpdate;
  /** What Yjs will do with it (`planIntegration`); worked out here when not given. */
  plan?: IntegrationPlan;
  /** The account sending it (the connection's, never anything the update says). */
  userId: string;
  /** The rule of a collection; `author` for one the app does not share or does not have. */
  ruleOf: (collectionId: string) => SpaceRecordRule;
  /** Records one space may hold (SPACE_LIMITS.recordsPerSpace; tests lower it). */
  recordLimit?: number;
  /** New records in updates let through before, not in the document yet: they count too. */
  recordsInFlight?: number;
}

/** Why an update was refused, for the server's log: one short line. */
export interface SpaceRefusal {
  why: string;
  /** The record concerned, when there is one. */
  recordId?: string;
}

const RECORDS = 'records';
/** The keys of a record, and the two of them that never change once it exists. */
const RECORD_KEYS: ReadonlySet<string> = new Set([
  'collectionId',
  'values',
  'createdAt',
  'updatedAt',
  'authorId',
]);
const FIXED_KEYS: ReadonlySet<string> = new Set(['collectionId', 'authorId']);
/**
 * How far below a record's entry anything may sit: its keys (1) and the fields of its values (2),
 * with one level to spare. Deeper is refused, so finding the record of anything is a short walk.
 */
const MAX_DEPTH = 3;

/** Where a part sits: in which record, and under which of its keys. */
interface Place {
  /** The record's own entry in `records` (at depth 0, the part itself). */
  record: Y.Item;
  /** The record's id: its key in `records`. */
  recordId: string | null;
  /** 0: the record's entry; 1: one of its keys; 2: inside one of them; … */
  depth: number;
  /** Below the record: which of its keys the part is under. */
  key: string | null;
}
/** A part that lands in something deleted: Yjs drops it or deletes it at once. Harmless. */
const GONE = 'gone';
type Placed = Place | typeof GONE;

class Refused {
  constructor(readonly refusal: SpaceRefusal) {}
}
function refuse(why: string, recordId?: string | null): never {
  throw new Refused(recordId ? { why, recordId } : { why });
}

/** Clock ranges [from, to), sorted, overlaps merged. */
type Ranges = Array<[number, number]>;

function sortedRanges(deletes: Array<{ clock: number; len: number }>): Ranges {
  const sorted = deletes
    .filter((range) => range.len > 0)
    .map((range): [number, number] => [range.clock, range.clock + range.len])
    .sort((a, b) => a[0] - b[0]);
  const merged: Ranges = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

function covers(ranges: Ranges, clock: number): boolean {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [from, to] = ranges[mid]!;
    if (clock < from) high = mid - 1;
    else if (clock >= to) low = mid + 1;
    else return true;
  }
  return false;
}

/** The struct of `structs` (one client's, in clock order, without gaps) holding `clock`. */
function structAt<T extends Struct>(structs: readonly T[], clock: number): T | null {
  let low = 0;
  let high = structs.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const struct = structs[mid]!;
    if (clock < struct.id.clock) high = mid - 1;
    else if (clock >= struct.id.clock + struct.length) low = mid + 1;
    else return struct;
  }
  return null;
}

/** The current value of a key of a record's map, as Y.Map.get reads it. */
function valueOf(record: Y.Item, key: string): unknown {
  if (!(record.content instanceof Y.ContentType)) return undefined;
  const entry = record.content.type._map.get(key);
  if (!entry || entry.deleted) return undefined;
  const values = entry.content.getContent();
  return values[values.length - 1];
}

/**
 * Whether the space's document may take `decoded` from `userId`: null when it may, else why not.
 * Pure and synchronous; it costs a walk of the update's parts (and of the records it deletes), each
 * part's record found in a few steps, remembered for the parts after it.
 *
 * - Only `records` is written; a part under any other root is refused.
 * - A new record (a key of `records` that holds no record now) is a map whose own keys, in the same
 *   update, set `authorId` to the sender and `collectionId` to a collection's id, and that has no
 *   key but a record's. Writing a key of `records` that holds a record now is refused: that would
 *   replace someone's record.
 * - Inside an existing record, `authorId` and `collectionId` never change, and under the `author`
 *   rule only the record's author writes anything.
 * - Deleting follows the same rule: a whole record, or anything in one. Deleting what is deleted
 *   already changes nothing; deleting what the server does not have is refused.
 * - Anything that would wait for a part the server does not have is refused: its place cannot be
 *   known now, and would be judged against a later document. A provider's updates never wait.
 * - A new record when the space holds `recordLimit` records already is refused.
 */
export function checkSpaceUpdate(check: SpaceUpdateCheck): SpaceRefusal | null {
  const verdict = judgeSpaceUpdate(check);
  return 'why' in verdict ? verdict : null;
}

/** As `checkSpaceUpdate`; when it may, how many records the update adds. */
export function judgeSpaceUpdate(check: SpaceUpdateCheck): SpaceRefusal | { added: number } {
  try {
    return { added: judge(check) };
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}
function judge({
  doc,
  decoded,
  plan = planIntegration(decoded, doc),
  userId,
  ruleOf,
  recordLimit = SPACE_LIMITS.recordsPerSpace,
  recordsInFlight = 0,
}: SpaceUpdateCheck): number {
  const records = doc.share.get(RECORDS);
  refuseWhatWaits(doc, decoded, plan);
  const judging = startJudging({ doc, decoded, plan, userId, ruleOf, records });
  const addedIds = judgeWrites(judging, decoded, userId);
  const removedRecords = judgeDeletes(judging);

  if (addedIds.size > 0) {
    let live = 0;
    for (const entry of records?._map.values() ?? []) if (!entry.deleted) live += 1;
    // Records let through before and not applied yet count; their deletions free nothing yet.
    if (live + recordsInFlight - removedRecords.size + addedIds.size > recordLimit) {
      refuse('the space holds as many records as it may');
    }
  }
  return addedIds.size;
}

/** What judging one update works from, and what it has found out so far. */
interface Judging {
  doc: Y.Doc;
  plan: IntegrationPlan;
  /** The document's `records` (none before the first record). */
  records: ReturnType<Y.Doc['share']['get']>;
  /** What the update deletes, by client. */
  deletes: Map<number, Ranges>;
  /** Where each part sits, once found (placeOf). */
  places: Map<Y.Item, Placed>;
  /** A part by id: the server's copy when it has one, else the update's. */
  lookup(id: Y.ID): Struct | null;
  /** The server's part an item lands next to when Yjs integrates it part-way. */
  partWayLeft(item: Y.Item): Y.ID | null;
  /** A part of the update that the same update deletes (from where Yjs starts it). */
  deletedHere(item: Y.Item): boolean;
  /** Whether the sender may change the server's record `record` under its collection's rule. */
  mayChange(record: Y.Item): boolean;
}

const isServers = (item: Y.Item) => item.parent instanceof Y.AbstractType;

/** Refuses an update that waits for a part the server does not have. */
function refuseWhatWaits(doc: Y.Doc, decoded: DecodedUpdate, plan: IntegrationPlan): void {
  const { store } = doc;
  // Whatever Yjs would keep aside waits for a part the server does not have: refused, as is an
  // update that would let Yjs apply what it keeps aside already (a space's document keeps
  // nothing aside: only a document stored before this rule could).
  if (plan.waiting.size > 0) refuse('waits for a missing part');
  if (deletesAhead(decoded, plan)) refuse('deletes what the server does not have');
  const pending = store.pendingStructs;
  if (pending && [...pending.missing].some(([client, clock]) => plan.stateAfter(client) > clock)) {
    refuse('waits for a missing part');
  }
}

/** The lookups the judging of one update shares, over the server's document and the update. */
function startJudging({
  doc,
  decoded,
  plan,
  userId,
  ruleOf,
  records,
}: Pick<SpaceUpdateCheck, 'doc' | 'decoded' | 'userId' | 'ruleOf'> & {
  plan: IntegrationPlan;
  records: Judging['records'];
}): Judging {
  // The update's parts by client, in clock order and without gaps (nothing waits).
  const own = new Map<number, Struct[]>();
  for (const struct of decoded.structs) {
    const structs = own.get(struct.id.client);
    if (structs) structs.push(struct);
    else own.set(struct.id.client, [struct]);
  }
  /** A part by id: the server's copy when it has one, else the update's. */
  const lookup = (id: Y.ID): Struct | null => {
    const held = structOf(doc, id);
    if (held) return held;
    const structs = own.get(id.client);
    return structs ? structAt(structs, id.clock) : null;
  };
  /**
   * The server's part an item lands next to when Yjs integrates it part-way (its first clocks
   * are the server's already): the item goes where that part is, whatever it names.
   */
  const partWayLeft = (item: Y.Item): Y.ID | null => {
    const offset = plan.offsets.get(item);
    return offset ? Y.createID(item.id.client, item.id.clock + offset - 1) : null;
  };
  const deletes = new Map<number, Ranges>();
  for (const [client, ranges] of decoded.ds.clients) deletes.set(client, sortedRanges(ranges));
  /** A part of the update that the same update deletes (from where Yjs starts it). */
  const deletedHere = (item: Y.Item) =>
    item.content instanceof Y.ContentDeleted ||
    covers(deletes.get(item.id.client) ?? [], item.id.clock + (plan.offsets.get(item) ?? 0));

  const places = new Map<Y.Item, Placed>();

  const verdicts = new Map<Y.Item, boolean>();
  /** Whether the sender may change the server's record `record` under its collection's rule. */
  const mayChange = (record: Y.Item): boolean => {
    let verdict = verdicts.get(record);
    if (verdict === undefined) {
      const collectionId = valueOf(record, 'collectionId');
      const rule = typeof collectionId === 'string' ? ruleOf(collectionId) : 'author';
      verdict = rule === 'anyone' || valueOf(record, 'authorId') === userId;
      verdicts.set(record, verdict);
    }
    return verdict;
  };

  return { doc, plan, records, deletes, places, lookup, partWayLeft, deletedHere, mayChange };
}

/**
 * Where `start` sits: from each part to its parent (an id, or the root's name), or — for a part
 * placed after or before another — to that neighbour, whose parent it shares. Iterative and
 * bounded: each part is visited once per update, and at most MAX_DEPTH parents up.
 */
function placeOf(judging: Judging, start: Y.Item): Placed {
  const { records, places, lookup, partWayLeft, deletedHere } = judging;
  const path: Array<{ item: Y.Item; up: boolean }> = [];
  const onPath = new Set<Y.Item>();
  let item = start;
  let placed: Placed | undefined = places.get(item);
  let levels = 0;
  while (placed === undefined) {
    if (onPath.has(item)) refuse('refers to itself');
    onPath.add(item);
    const parent: unknown = item.parent;
    const landsAfter = isServers(item) ? null : partWayLeft(item);
    let next: Struct | null;
    let up = false;
    if (landsAfter) {
      next = lookup(landsAfter);
    } else if (parent instanceof Y.AbstractType) {
      // The server's own part: its parent is known.
      if (parent._item === null) {
        if (parent !== records) refuse('writes outside the records');
        placed = { record: item, recordId: item.parentSub, depth: 0, key: null };
        break;
      }
      next = parent._item;
      up = true;
    } else if (typeof parent === 'string') {
      if (parent !== RECORDS) refuse('writes outside the records');
      placed = { record: item, recordId: item.parentSub, depth: 0, key: null };
      break;
    } else if (parent instanceof Y.ID) {
      next = lookup(parent);
      if (next === null) refuse('waits for a missing part');
      up = true;
    } else {
      const neighbour = item.origin ?? item.rightOrigin;
      if (neighbour === null) refuse('has no place');
      next = lookup(neighbour);
      if (next === null) refuse('waits for a missing part');
    }
    // Next to or inside something collected already: Yjs drops the part.
    if (next instanceof Y.GC) {
      placed = GONE;
      break;
    }
    const nextItem = next as Y.Item;
    if (up) {
      // Inside something deleted: Yjs deletes the part as it arrives.
      if (isServers(nextItem) ? nextItem.deleted : deletedHere(nextItem)) {
        placed = GONE;
        break;
      }
      if (!(nextItem.content instanceof Y.ContentType)) refuse('has no place');
      levels += 1;
      if (levels > MAX_DEPTH) refuse('nests too deep');
    }
    path.push({ item, up });
    item = nextItem;
    placed = places.get(item);
  }
  places.set(item, placed);
  for (let i = path.length - 1; i >= 0; i -= 1) {
    const step = path[i]!;
    if (placed !== GONE) {
      if (step.up) {
        const depth: number = placed.depth + 1;
        if (depth > MAX_DEPTH) refuse('nests too deep', placed.recordId);
        placed = {
          record: placed.record,
          recordId: placed.recordId,
          depth,
          key: placed.depth === 0 ? step.item.parentSub : placed.key,
        };
      } else if (placed.depth === 0) {
        placed = { ...placed, record: step.item };
      }
    }
    places.set(step.item, placed);
  }
  return placed;
}

/**
 * What the update writes: new records (whole, with their author and collection), and changes
 * inside existing ones under their rule. Answers the ids of the records it adds.
 */
function judgeWrites(judging: Judging, decoded: DecodedUpdate, userId: string): Set<string> {
  const { plan, records, deletedHere, mayChange } = judging;
  /** New records of this update, with how many live parts set their author and collection. */
  const added = new Map<Y.Item, { author: number; collection: number }>();
  const addedIds = new Set<string>();
  const tallyOf = (record: Y.Item) => {
    let tally = added.get(record);
    if (!tally) {
      tally = { author: 0, collection: 0 };
      added.set(record, tally);
    }
    return tally;
  };

  for (const struct of decoded.structs) {
    if (!(struct instanceof Y.Item)) continue;
    // What the server has already changes nothing (a provider resends what it is unsure of).
    if (!plan.offsets.has(struct)) continue;
    const place = placeOf(judging, struct);
    if (place === GONE) continue;
    const { record, recordId, depth, key } = place;
    if (recordId === null) refuse('writes outside a record');
    if (depth === 0) {
      const current = records?._map.get(recordId);
      if (current && !current.deleted) refuse('replaces a record', recordId);
      // Added and deleted at once (a record made and deleted while offline): nothing stays.
      if (deletedHere(struct)) continue;
      if (!(struct.content instanceof Y.ContentType && struct.content.type instanceof Y.Map)) {
        refuse('a record is not a map', recordId);
      }
      tallyOf(struct);
      addedIds.add(recordId);
      continue;
    }
    if (isServers(record)) {
      if (depth === 1 ? !RECORD_KEYS.has(key!) || FIXED_KEYS.has(key!) : FIXED_KEYS.has(key!)) {
        refuse(`changes a record's ${key ?? 'entries'}`, recordId);
      }
      if (!mayChange(record)) refuse("changes someone else's record", recordId);
      continue;
    }
    // Inside a record this update adds.
    if (deletedHere(record)) continue;
    if (depth > 1) {
      if (FIXED_KEYS.has(key!)) refuse(`changes a record's ${key}`, recordId);
      continue;
    }
    if (key === null || !RECORD_KEYS.has(key)) refuse('a record has an unknown key', recordId);
    if (key === 'authorId' || key === 'collectionId') {
      const values = struct.content instanceof Y.ContentAny ? struct.content.arr : null;
      const fits =
        values !== null &&
        values.length > 0 &&
        values.every((value) =>
          key === 'authorId' ? value === userId : typeof value === 'string' && value.length > 0,
        );
      if (!fits) refuse(`a new record's ${key} is not allowed`, recordId);
      if (!deletedHere(struct)) tallyOf(record)[key === 'authorId' ? 'author' : 'collection'] += 1;
    }
  }
  for (const [record, tally] of added) {
    if (tally.author === 0) refuse('a new record does not name its author', record.parentSub);
    if (tally.collection === 0) refuse('a new record has no collection', record.parentSub);
  }
  return addedIds;
}

/** What the update deletes of the server's document. Answers the records it deletes whole. */
function judgeDeletes(judging: Judging): Set<Y.Item> {
  const { doc, deletes, mayChange } = judging;
  const { store } = doc;
  const docClock = (client: number) => Y.getState(store, client);
  // What the update deletes of the server's document: each live part as if it were written.
  const removedRecords = new Set<Y.Item>();
  const fixedRemoved = new Map<Y.Item, string | null>();
  for (const [client, ranges] of deletes) {
    const have = docClock(client);
    for (const [from, to] of ranges) {
      if (from >= have) continue;
      const held = store.clients.get(client)!;
      for (let i = Y.findIndexSS(held, from); i < held.length; i += 1) {
        const part = held[i]!;
        if (part.id.clock >= Math.min(to, have)) break;
        if (!(part instanceof Y.Item) || part.deleted) continue;
        const place = placeOf(judging, part);
        if (place === GONE) continue;
        if (place.depth === 0) {
          if (!mayChange(part)) refuse("deletes someone else's record", place.recordId);
          removedRecords.add(part);
          continue;
        }
        if (FIXED_KEYS.has(place.key!)) fixedRemoved.set(place.record, place.recordId);
        if (!mayChange(place.record)) refuse("changes someone else's record", place.recordId);
      }
    }
  }
  // A record's author and collection go only with the whole record.
  for (const [record, recordId] of fixedRemoved) {
    if (!removedRecords.has(record)) refuse("removes a record's author or collection", recordId);
  }
  return removedRecords;
}
