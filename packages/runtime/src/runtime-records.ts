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
 * Creator records show to every visitor, read-only; the visitor's own follow. Visitor records of a
 * collection the creator has since deleted are left out (they stay in the document, harmlessly).
 * Computed fields are worked out here, once per change, so lists, filters, sorts and details all
 * read the same values: first every record as stored (rollups read the records they link as
 * stored), then each record's relations, rollups and formulas.
 */
export function indexRecords(
  definition: ReadDefinition,
  visitorRecords: readonly RuntimeDataRecord[],
  compute: ComputeFormulas | null = null,
  relations: RelationsModule | null = null,
  people: PeopleView | null = null,
): RecordIndex {
  const groups = new Map<string, RuntimeRecord[]>();
  const byId = new Map<string, RuntimeRecord>();
  const computedOf = computedFieldIds(definition);
  const personFields = new Map<string, Field[]>();
  for (const collection of definition.collections) {
    const fields = collection.fields.filter((f) => f.type === 'person');
    if (fields.length) personFields.set(collection.id, fields);
  }
  const add = (record: RuntimeRecord) => {
    const plain = withoutComputed(record, computedOf.get(record.collectionId));
    const fields = personFields.get(plain.collectionId);
    const shown = fields ? peopleShown(fields, plain.values, people) : null;
    const stored = shown ? { ...plain, shown } : plain;
    groups.get(stored.collectionId)?.push(stored);
    // A visitor record can never take a creator record's id: creator records win.
    if (!byId.has(stored.id)) byId.set(stored.id, stored);
  };
  for (const collection of definition.collections) {
    groups.set(collection.id, []);
    for (const record of collection.records)
      add({ id: record.id, collectionId: collection.id, values: record.values, isOwn: false });
  }
  for (const record of visitorRecords) {
    if (!groups.has(record.collectionId)) continue;
    if (byId.has(record.id)) continue;
    const editable = record.editable ?? true;
    add({
      id: record.id,
      collectionId: record.collectionId,
      values: record.values,
      isOwn: editable,
      ...(editable ? {} : { locked: 'author' as const }),
      ...(!editable && record.lockedWhy ? { lockedWhy: record.lockedWhy } : {}),
      ...(record.authorName ? { authorName: record.authorName } : {}),
    });
  }
  const link =
    relations?.linkComputer(definition, {
      of: (collectionId) => groups.get(collectionId) ?? NONE,
      byId: (recordId) => byId.get(recordId),
    }) ?? null;
  if (link || compute) {
    // Worked out from the stored records first, then swapped in: a rollup reads stored values.
    const done = new Map<RuntimeRecord, RuntimeRecord>();
    for (const list of groups.values())
      for (const record of list) done.set(record, completed(record, link, compute));
    for (const list of groups.values())
      for (let i = 0; i < list.length; i++) list[i] = done.get(list[i]!) ?? list[i]!;
    for (const [id, record] of byId) byId.set(id, done.get(record) ?? record);
  }
  return {
    of: (collectionId) => (collectionId ? (groups.get(collectionId) ?? NONE) : NONE),
    byId: (recordId) => (recordId ? (byId.get(recordId) ?? null) : null),
  };
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
