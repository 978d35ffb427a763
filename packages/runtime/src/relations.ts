import {
  type Collection,
  DEFAULT_CURRENCY,
  type Field,
  type FieldValue,
  linkedIds,
  nameField,
  type ReadDefinition,
  type RollupSource,
  rollupSource,
  rollupValue,
} from '@pipit/app-definition';
import { formatValue } from './records';
import type { RuntimeRecord } from './runtime-data';

/*
 * Relations and rollups as the running app shows them (docs/product/app-definition.md, "Relations
 * and rollups"): a relation's value keeps only the records that exist (a link to one deleted since
 * shows nothing and counts for nothing), reads as their names, and each rollup is worked out over
 * the records its relation links, in either direction.
 */

/** What relations and rollups add to one record. */
export interface Linked {
  /** Relations without their missing records, and each rollup's value, by field id. */
  values: Record<string, FieldValue>;
  /** Each relation's linked records by name, each rollup as the values it came from read. */
  shown: Record<string, string>;
  /** Why a rollup can't be worked out, by field id. */
  errors: Record<string, string>;
}

export type LinkRecords = (record: RuntimeRecord) => Linked | null;

/** The records shown, as the index holds them while it is being built. */
export interface RecordGroups {
  of(collectionId: string): readonly RuntimeRecord[];
  byId(recordId: string): RuntimeRecord | undefined;
}

interface CollectionLinks {
  relations: Field[];
  rollups: Array<{ field: Field; source: RollupSource<Field> | { problem: string } }>;
}

/** A collection's records that link each record through one relation, oldest first. */
type ReverseIndex = Map<string, RuntimeRecord[]>;

/** What works relations and rollups out, or null for a definition without any. */
export function linkComputer(
  definition: Pick<ReadDefinition, 'collections' | 'meta'>,
  groups: RecordGroups,
): LinkRecords | null {
  const plans = new Map<string, CollectionLinks>();
  for (const collection of definition.collections) {
    const relations = collection.fields.filter((f) => f.type === 'relation');
    const rollups = collection.fields
      .filter((f) => f.type === 'rollup')
      .map((field) => ({ field, source: rollupSource(definition.collections, collection, field) }));
    if (relations.length || rollups.length) plans.set(collection.id, { relations, rollups });
  }
  if (plans.size === 0) return null;

  const currency = definition.meta.currency ?? DEFAULT_CURRENCY;
  const collections = new Map(definition.collections.map((c) => [c.id, c]));
  const nameOf = (record: RuntimeRecord): string => {
    const collection = collections.get(record.collectionId);
    return collection ? recordName(collection, record, currency) : 'Untitled';
  };
  const positions = new Map<string, Map<string, number>>();
  const positionIn = (collectionId: string): Map<string, number> => {
    let position = positions.get(collectionId);
    if (!position) {
      position = new Map(groups.of(collectionId).map((r, i) => [r.id, i]));
      positions.set(collectionId, position);
    }
    return position;
  };
  const reverse = new Map<string, ReverseIndex>();
  const linking = (holder: Collection, relation: Field): ReverseIndex => {
    const key = `${holder.id}\u0000${relation.id}`;
    let index = reverse.get(key);
    if (!index) {
      index = new Map();
      for (const record of groups.of(holder.id)) {
        for (const id of new Set(linkedIds(record.values[relation.id]))) {
          const list = index.get(id);
          if (list) list.push(record);
          else index.set(id, [record]);
        }
      }
      reverse.set(key, index);
    }
    return index;
  };
  /** The records a value links that exist in `collectionId`, oldest first. */
  const existing = (value: FieldValue | undefined, collectionId: string | undefined) => {
    const found = new Set<RuntimeRecord>();
    for (const id of linkedIds(value)) {
      const record = groups.byId(id);
      if (record && record.collectionId === collectionId) found.add(record);
    }
    return [...found];
  };

  return (record) => {
    const plan = plans.get(record.collectionId);
    if (!plan) return null;
    const out: Linked = { values: {}, shown: {}, errors: {} };
    for (const field of plan.relations) {
      const linked = existing(record.values[field.id], field.target);
      out.values[field.id] = linked.length ? linked.map((r) => r.id) : null;
      if (linked.length) out.shown[field.id] = linked.map(nameOf).join(', ');
    }
    for (const { field, source } of plan.rollups) {
      if ('problem' in source) {
        out.errors[field.id] = source.problem;
        continue;
      }
      let linked: readonly RuntimeRecord[];
      if (source.reverse)
        linked = linking(source.holder as Collection, source.relation).get(record.id) ?? [];
      else {
        const position = positionIn(source.linked.id);
        linked = existing(record.values[source.relation.id], source.linked.id).sort(
          (a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0),
        );
      }
      const values = source.field
        ? linked.map((r) => r.values[(source.field as Field).id])
        : linked;
      const value = rollupValue(
        source.aggregate,
        values as readonly (FieldValue | undefined)[],
        source.valueType,
      );
      out.values[field.id] = value;
      // Read as the values it came from: a sum of amounts as money, the latest date as a date.
      const shownAs = { ...(source.field ?? field), type: source.valueType } as Field;
      const text = formatValue(value, shownAs, currency);
      if (text) out.shown[field.id] = text;
    }
    return out;
  };
}

/**
 * The records of other collections (or this one) whose relations link `record`: each relation
 * pointing at its collection, with the records that chose it, oldest first.
 */
export function linksTo(
  definition: Pick<ReadDefinition, 'collections'>,
  record: Pick<RuntimeRecord, 'id' | 'collectionId'>,
  recordsOf: (collectionId: string) => readonly RuntimeRecord[],
): Array<{ collection: Collection; relation: Field; records: RuntimeRecord[] }> {
  const found: Array<{ collection: Collection; relation: Field; records: RuntimeRecord[] }> = [];
  for (const collection of definition.collections) {
    for (const relation of collection.fields) {
      if (relation.type !== 'relation' || relation.target !== record.collectionId) continue;
      const records = recordsOf(collection.id).filter((r) =>
        linkedIds(r.values[relation.id]).includes(record.id),
      );
      if (records.length) found.push({ collection, relation, records });
    }
  }
  return found;
}

/** A record's name as lists of linked records show it. */
export function recordName(
  collection: Pick<Collection, 'fields'>,
  record: Pick<RuntimeRecord, 'values'>,
  currency: string = DEFAULT_CURRENCY,
): string {
  const field = nameField(collection);
  return (field && formatValue(record.values[field.id], field, currency)) || 'Untitled';
}
