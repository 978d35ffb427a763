import {
  COMPUTED_FIELD_TYPES,
  type Field,
  type FieldValue,
  personName,
  type ReadDefinition,
} from '@pipit/app-definition';
import type { ComputeFormulas } from './formulas';
import type { RelationsModule } from './link-engine';
import type { LinkRecords } from './relations';
import type { RuntimeData, RuntimeDataRecord, RuntimeRecord } from './runtime-data';
import { SOMEONE } from './records';

/** Whom person fields name: the host's people and the person themselves (runtime-data.ts). */
export type PeopleView = Pick<RuntimeData, 'people' | 'me'>;

/**
 * What each person field of a record shows, by field id: the name the space's people know them by,
 * "a former member" once they left, or "someone in the space" while nobody is known.
 */
export function peopleShown(
  fields: readonly Field[],
  values: Readonly<Record<string, FieldValue | undefined>>,
  view: PeopleView | null,
): Record<string, string> | null {
  let shown: Record<string, string> | null = null;
  for (const field of fields) {
    const id = values[field.id];
    if (field.type !== 'person' || typeof id !== 'string' || id === '') continue;
    shown ??= {};
    shown[field.id] = personName(id, view?.people) ?? SOMEONE;
  }
  return shown;
}

/** Every record the running app shows, by collection id, plus a lookup by record id. */
export interface RecordIndex {
  /** A collection's creator records (in the creator's order), then the visitor's (oldest first). */
  of(collectionId: string | null): RuntimeRecord[];
  byId(recordId: string | null): RuntimeRecord | null;
}

const NONE: RuntimeRecord[] = [];

/** A record with its computed fields worked out: relations, rollups, then formulas over them. */
function completed(
  plain: RuntimeRecord,
  link: LinkRecords | null,
  compute: ComputeFormulas | null,
): RuntimeRecord {
  const linked = link?.(plain) ?? null;
  const values = linked ? { ...plain.values, ...linked.values } : plain.values;
  const computed = compute?.(plain.collectionId, values) ?? null;
  if (!linked && !computed) return plain;
  const errors = { ...linked?.errors, ...computed?.errors };
  return {
    ...plain,
    values: computed ? { ...values, ...computed.values } : values,
    ...(Object.keys(errors).length ? { formulaErrors: errors } : {}),
    ...(linked && Object.keys(linked.shown).length
      ? { shown: { ...plain.shown, ...linked.shown } }
      : {}),
  };
}

/** Each collection's formula and rollup fields, for the collections that have any. */
function computedFieldIds(definition: ReadDefinition): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const collection of definition.collections) {
    const ids = collection.fields
      .filter((f) => COMPUTED_FIELD_TYPES.includes(f.type))
      .map((f) => f.id);
    if (ids.length) out.set(collection.id, ids);
  }
  return out;
}

/**
 * A record without what it holds under a computed field: no form writes one, but a device that
 * skips the checks can, and the value would show wherever the formula or rollup has no answer
 * (an error, the formula engine still loading).
 */
function withoutComputed(record: RuntimeRecord, computed: readonly string[] | undefined) {
  if (!computed?.some((id) => Object.hasOwn(record.values, id))) return record;
  const values = { ...record.values };
  for (const id of computed) delete values[id];
  return { ...record, values };
}

/**
 * The collections whose stored records a collection's relations and rollups read: a relation's
 * target (its linked records' names) and each rollup's linked collection (the other side of a
 * reversed relation, or the target). A collection that links itself reads itself.
 */
function readsFrom(definition: ReadDefinition): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const byId = new Map(definition.collections.map((c) => [c.id, c]));
  for (const collection of definition.collections) {
    const read = new Set<string>();
    for (const field of collection.fields) {
      if (field.type === 'relation' && field.target) read.add(field.target);
      if (field.type !== 'rollup') continue;
      // A rollup through another collection's relation reads that collection's records; through
      // this one's, the records its relation links (rollupSource, without its checks: a rollup it
      // would refuse reads nothing, and reading more than needed only works out more).
      const holder = field.throughCollection ?? collection.id;
      if (holder !== collection.id) read.add(holder);
      else {
        const relation = byId.get(holder)?.fields.find((f) => f.id === field.through);
        if (relation?.target) read.add(relation.target);
      }
    }
    out.set(collection.id, read);
  }
  return out;
}

/** Whom person fields name, as one string: the same people read the same. */
function peopleKey(people: PeopleView | null): string {
  const list = people?.people?.map((p) => `${p.id}\u0001${p.name}`).join('\u0000') ?? '';
  return `${people?.me ?? ''}\u0002${list}`;
}

/**
 * What one index kept for the next (AppRuntime holds one): after a change of one record of 5,000,
 * only what the change can reach is worked out again — the records that changed, and every record
 * of a collection whose relations or rollups read a collection that changed. The data's store
 * hands over the same object for a record that did not change (visitor-data.ts); a new
 * definition, formula engine, day or set of people starts afresh.
 */
export class RecordIndexMemo {
  /** What the last index was built with; anything else and nothing kept is used. */
  context: {
    definition: ReadDefinition;
    compute: ComputeFormulas | null;
    relations: RelationsModule | null;
    people: string;
  } | null = null;
  /** Each record as given (a creator's, a visitor's) → as stored in the index. */
  stored = new WeakMap<object, RuntimeRecord>();
  /** Each stored record → with its computed fields. */
  completed = new WeakMap<RuntimeRecord, RuntimeRecord>();
  /** Each collection's stored records, in order, last time. */
  lists = new Map<string, RuntimeRecord[]>();
}

/** The collections whose stored records are not, one for one, what they were last time. */
function changedCollections(
  groups: ReadonlyMap<string, RuntimeRecord[]>,
  previous: ReadonlyMap<string, RuntimeRecord[]>,
): Set<string> {
  const changed = new Set<string>();
  for (const [id, list] of groups) {
    const before = previous.get(id);
    if (!before || before.length !== list.length || list.some((r, i) => r !== before[i]))
      changed.add(id);
  }
  return changed;
}

/**
 * Creator records show to every visitor, read-only; the visitor's own follow. Visitor records of a
 * collection the creator has since deleted are left out (they stay in the document, harmlessly).
 * Computed fields are worked out here, once per change, so lists, filters, sorts and details all
 * read the same values: first every record as stored (rollups read the records they link as
 * stored), then each record's relations, rollups and formulas. With a `memo`, what the last index
 * worked out and no change can have reached is taken as it was (RecordIndexMemo).
 */
export function indexRecords(
  definition: ReadDefinition,
  visitorRecords: readonly RuntimeDataRecord[],
  compute: ComputeFormulas | null = null,
  relations: RelationsModule | null = null,
  people: PeopleView | null = null,
  memo: RecordIndexMemo | null = null,
): RecordIndex {
  const context = { definition, compute, relations, people: peopleKey(people) };
  const kept = memo?.context;
  const same =
    !!kept &&
    kept.definition === definition &&
    kept.compute === compute &&
    kept.relations === relations &&
    kept.people === context.people;
  if (memo && !same) {
    memo.context = context;
    memo.stored = new WeakMap();
    memo.completed = new WeakMap();
    memo.lists = new Map();
  }
  const groups = new Map<string, RuntimeRecord[]>();
  const byId = new Map<string, RuntimeRecord>();
  const computedOf = computedFieldIds(definition);
  const personFields = new Map<string, Field[]>();
  for (const collection of definition.collections) {
    const fields = collection.fields.filter((f) => f.type === 'person');
    if (fields.length) personFields.set(collection.id, fields);
  }
  const storedOf = (record: RuntimeRecord): RuntimeRecord => {
    const plain = withoutComputed(record, computedOf.get(record.collectionId));
    const fields = personFields.get(plain.collectionId);
    const shown = fields ? peopleShown(fields, plain.values, people) : null;
    return shown ? { ...plain, shown } : plain;
  };
  const add = (given: object, make: () => RuntimeRecord) => {
    let stored = memo?.stored.get(given);
    if (!stored) {
      stored = storedOf(make());
      memo?.stored.set(given, stored);
    }
    groups.get(stored.collectionId)?.push(stored);
    // A visitor record can never take a creator record's id: creator records win.
    if (!byId.has(stored.id)) byId.set(stored.id, stored);
  };
  for (const collection of definition.collections) {
    groups.set(collection.id, []);
    for (const record of collection.records)
      add(record, () => ({
        id: record.id,
        collectionId: collection.id,
        values: record.values,
        isOwn: false,
      }));
  }
  for (const record of visitorRecords) {
    if (!groups.has(record.collectionId)) continue;
    if (byId.has(record.id)) continue;
    add(record, () => {
      const editable = record.editable ?? true;
      return {
        id: record.id,
        collectionId: record.collectionId,
        values: record.values,
        isOwn: editable,
        ...(editable ? {} : { locked: 'author' as const }),
        ...(!editable && record.lockedWhy ? { lockedWhy: record.lockedWhy } : {}),
        ...(record.authorName ? { authorName: record.authorName } : {}),
      };
    });
  }
  const complete = completeAll(definition, groups, byId, computedOf, compute, relations, memo);
  return {
    of: (collectionId) => (collectionId ? (complete.groups.get(collectionId) ?? NONE) : NONE),
    byId: (recordId) => (recordId ? (complete.byId.get(recordId) ?? null) : null),
  };
}

/**
 * A record whose computed fields are worked out when first read, once: a list of 5,000 records
 * that shows its first 50 (in the order they were added) works out 50, not 5,000, before it can
 * be drawn; a search, filter, sort or chart reads them all and so works them all out. Its values,
 * errors and shown text are its own enumerable properties (getters), so a copy (`{ ...record }`)
 * reads them; what a record does not have is undefined.
 */
function lazilyCompleted(
  plain: RuntimeRecord,
  link: LinkRecords | null,
  compute: ComputeFormulas | null,
): RuntimeRecord {
  let done: RuntimeRecord | null = null;
  const get = () => (done ??= completed(plain, link, compute));
  // One literal, every record the same shape (defineProperty per record cost ~10 µs at a
  // phone's speed: 50 ms for 5,000).
  return {
    id: plain.id,
    collectionId: plain.collectionId,
    isOwn: plain.isOwn,
    locked: plain.locked,
    lockedWhy: plain.lockedWhy,
    authorName: plain.authorName,
    get values() {
      return get().values;
    },
    get formulaErrors() {
      return get().formulaErrors;
    },
    get shown() {
      return get().shown;
    },
  };
}

/**
 * Every record with its relations, rollups and formulas (worked out when first read), in the same
 * order: from the stored records (a rollup reads stored values: `groups` and `byId` stay as they
 * are, for the records worked out later), taken from the memo where neither the record nor
 * anything its collection reads changed.
 */
function completeAll(
  definition: ReadDefinition,
  groups: Map<string, RuntimeRecord[]>,
  byId: Map<string, RuntimeRecord>,
  computedOf: ReadonlyMap<string, readonly string[]>,
  compute: ComputeFormulas | null,
  relations: RelationsModule | null,
  memo: RecordIndexMemo | null,
): { groups: Map<string, RuntimeRecord[]>; byId: Map<string, RuntimeRecord> } {
  const link =
    relations?.linkComputer(definition, {
      of: (collectionId) => groups.get(collectionId) ?? NONE,
      byId: (recordId) => byId.get(recordId),
    }) ?? null;
  const changed = memo ? changedCollections(groups, memo.lists) : null;
  if (memo) memo.lists = groups;
  if (!link && !compute) return { groups, byId };
  const reads = readsFrom(definition);
  const done = new Map<RuntimeRecord, RuntimeRecord>();
  const out = new Map<string, RuntimeRecord[]>();
  for (const [collectionId, list] of groups) {
    const read = reads.get(collectionId) ?? new Set<string>();
    // Nothing to work out: a collection without computed fields or relations shows as stored.
    if (!computedOf.has(collectionId) && read.size === 0) {
      out.set(collectionId, list);
      continue;
    }
    // Reusable unless a collection this one reads changed (itself included, if it links itself).
    const reusable = !!changed && ![...read].some((id) => changed.has(id));
    out.set(
      collectionId,
      list.map((record) => {
        let complete = reusable ? memo?.completed.get(record) : undefined;
        if (!complete) {
          complete = lazilyCompleted(record, link, compute);
          memo?.completed.set(record, complete);
        }
        done.set(record, complete);
        return complete;
      }),
    );
  }
  const completeById = new Map<string, RuntimeRecord>();
  for (const [id, record] of byId) completeById.set(id, done.get(record) ?? record);
  return { groups: out, byId: completeById };
}

/**
 * The definition with its creator records' computed fields worked out (the editor's preview shows
 * these): relations by their names, rollups and formulas.
 */
export function withComputedCreatorRecords<D extends ReadDefinition>(
  definition: D,
  compute: ComputeFormulas | null,
  relations: RelationsModule | null,
): D {
  const computed = definition.collections.some((c) =>
    c.fields.some((f) => COMPUTED_FIELD_TYPES.includes(f.type) || f.type === 'relation'),
  );
  if (!computed) return definition;
  const index = indexRecords(definition, [], compute, relations);
  return {
    ...definition,
    collections: definition.collections.map((collection) => ({
      ...collection,
      records: index.of(collection.id).map(({ id, values, shown }) => ({
        id,
        values,
        ...(shown ? { shown } : {}),
      })),
    })),
  };
}
