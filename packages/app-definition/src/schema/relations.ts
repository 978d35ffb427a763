import type { FieldValue } from './field-values';
import { LIMITS } from './limits';

/*
 * Relations and rollups (docs/product/app-definition.md, "Relations and rollups"): which records a
 * rollup reads and what it works out over them. Plain code without zod: the installed app's
 * runtime works rollups out with it on every change.
 */

/** What a rollup works out over the records its relation links. */
export const ROLLUP_AGGREGATES = ['count', 'sum', 'average', 'min', 'max', 'latest'] as const;
export type RollupAggregate = (typeof ROLLUP_AGGREGATES)[number];

/** The field types a rollup may sum or average. */
const ADDABLE = ['number', 'currency', 'rating', 'duration'];
/** The field types a rollup may take the smallest or largest of. */
const ORDERED = [...ADDABLE, 'date', 'dateTime'];
/** Field types worked out where they are shown: a rollup reads stored values only. */
const COMPUTED = ['formula', 'rollup'];

/** A field as relations read it. */
export interface RelationField {
  id: string;
  name: string;
  type: string;
  target?: string;
  many?: boolean;
  through?: string;
  throughCollection?: string;
  aggregate?: RollupAggregate;
  aggregateFieldId?: string;
}

export interface RelationCollection<F extends RelationField = RelationField> {
  id: string;
  name: string;
  fields: readonly F[];
}

/** The field types a record's name can be read from, best first. */
const NAME_TYPES = ['text', 'select', 'email', 'url', 'longText'];

/**
 * The field that names a collection's records where nothing else chose one (a relation's picker, a
 * linked record in a detail): its first text-like field, else its first field.
 */
export function nameField<F extends Pick<RelationField, 'type'>>(collection: {
  fields: readonly F[];
}): F | null {
  for (const type of NAME_TYPES) {
    const field = collection.fields.find((f) => f.type === type);
    if (field) return field;
  }
  return collection.fields[0] ?? null;
}

/** Where a rollup's records come from, once its settings are known to fit together. */
export interface RollupSource<F extends RelationField = RelationField> {
  /** The relation field (in this collection, or in `holder` when it links here). */
  relation: F;
  /** The collection holding the relation field. */
  holder: RelationCollection<F>;
  /** The collection whose records are rolled up. */
  linked: RelationCollection<F>;
  /** True when the relation is another collection's, linking its records to this one's. */
  reverse: boolean;
  aggregate: RollupAggregate;
  /** The linked records' field worked out over (null for a count). */
  field: F | null;
  /** The type of the value the rollup gives: how it is shown and what formulas see. */
  valueType: string;
}

/** Why a rollup can't be worked out, in words for the creator. */
export interface RollupProblem {
  problem: string;
}

const AGGREGATE_WORDS: Record<RollupAggregate, string> = {
  count: 'count',
  sum: 'add up',
  average: 'average',
  min: 'take the smallest of',
  max: 'take the largest of',
  latest: 'take the latest of',
};

function valueTypeOf(aggregate: RollupAggregate, field: RelationField | null): string {
  if (aggregate === 'count' || !field) return 'number';
  // An average of stars is a number of stars with decimals, no longer a rating.
  if (aggregate === 'average' && field.type === 'rating') return 'number';
  return field.type;
}

/**
 * The relation a rollup reads and the field it works out over, or what is wrong: a relation that
 * was deleted, one that doesn't link this collection, a field that isn't there or can't be added
 * up.
 */
export function rollupSource<F extends RelationField>(
  collections: readonly RelationCollection<F>[],
  collection: RelationCollection<F>,
  rollup: F,
): RollupSource<F> | RollupProblem {
  const holder = collections.find((c) => c.id === (rollup.throughCollection ?? collection.id));
  const relation = holder?.fields.find((f) => f.id === rollup.through);
  if (!holder || !relation || relation.type !== 'relation')
    return { problem: `Choose the relation ${rollup.name} works out over.` };
  const reverse = holder.id !== collection.id;
  if (reverse && relation.target !== collection.id)
    return { problem: `${relation.name} in ${holder.name} doesn’t link to ${collection.name}.` };
  const linked = reverse ? holder : collections.find((c) => c.id === relation.target);
  if (!linked) return { problem: `${relation.name} links to a collection that no longer exists.` };
  const aggregate = rollup.aggregate ?? 'count';
  if (aggregate === 'count')
    return { relation, holder, linked, reverse, aggregate, field: null, valueType: 'number' };
  const field = linked.fields.find((f) => f.id === rollup.aggregateFieldId) ?? null;
  if (!field) return { problem: `Choose the field of ${linked.name} that ${rollup.name} uses.` };
  const fits =
    aggregate === 'sum' || aggregate === 'average'
      ? ADDABLE.includes(field.type)
      : aggregate === 'min' || aggregate === 'max'
        ? ORDERED.includes(field.type)
        : !COMPUTED.includes(field.type);
  if (!fits)
    return {
      problem: `${rollup.name} can’t ${AGGREGATE_WORDS[aggregate]} ${field.name}: choose a ${
        aggregate === 'latest' ? 'field people fill in' : 'number, amount or date'
      }.`,
    };
  return {
    relation,
    holder,
    linked,
    reverse,
    aggregate,
    field,
    valueType: valueTypeOf(aggregate, field),
  };
}

function isSource<F extends RelationField>(
  source: RollupSource<F> | RollupProblem,
): source is RollupSource<F> {
  return !('problem' in source);
}

/** The fields formulas see: each rollup as the type of value it gives, or broken when it can't. */
export function fieldsForFormulas<F extends RelationField>(
  collections: readonly RelationCollection<F>[],
  collection: RelationCollection<F>,
): F[] {
  return collection.fields.map((field) => {
    if (field.type !== 'rollup') return field;
    const source = rollupSource(collections, collection, field);
    return isSource(source) ? { ...field, type: source.valueType } : field;
  });
}

/**
 * The ids a relation's value links, in the order they were picked (none for anything else), at
 * most LIMITS.relationLinks: no form keeps more, and a value a device wrote past the checks with
 * thousands is read as its first ones, so finding the records it links costs what the limit
 * allows on every device.
 */
export function linkedIds(value: FieldValue | undefined): readonly string[] {
  if (Array.isArray(value))
    return value.length > LIMITS.relationLinks ? value.slice(0, LIMITS.relationLinks) : value;
  return typeof value === 'string' && value ? [value] : [];
}

/**
 * A rollup's value over the linked records' values, oldest record first: how many there are, or the
 * sum, average, smallest, largest or latest of their values (empty values left out; an average,
 * smallest or largest of none is empty, a sum of none is 0). Amounts stay to the cent.
 */
export function rollupValue(
  aggregate: RollupAggregate,
  values: readonly (FieldValue | undefined)[],
  valueType = 'number',
): FieldValue {
  if (aggregate === 'count') return values.length;
  const present = values.filter(
    (v): v is Exclude<FieldValue, null> =>
      v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
  if (aggregate === 'latest') return present.at(-1) ?? null;
  if (aggregate === 'min' || aggregate === 'max') {
    const ordered = present.filter((v) => typeof v === 'number' || typeof v === 'string');
    if (ordered.length === 0) return null;
    return ordered.reduce((best, v) =>
      (aggregate === 'min' ? v < best : v > best) ? v : best,
    ) as FieldValue;
  }
  const numbers = present.filter((v): v is number => typeof v === 'number');
  const sum = numbers.reduce((total, n) => total + n, 0);
  const result = aggregate === 'sum' ? sum : numbers.length ? sum / numbers.length : null;
  if (result === null) return null;
  const rounded = valueType === 'currency' ? Math.round(result * 100) / 100 : result;
  // Past the largest number a value may be (values no form would keep), there is no answer to show.
  return Number.isFinite(rounded) ? rounded : null;
}
