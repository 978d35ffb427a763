import type { ReadDefinition } from '@pipit/app-definition';
import type { ComputeFormulas } from './formulas';
import type { RuntimeDataRecord, RuntimeRecord } from './runtime-data';

/** Every record the running app shows, by collection id, plus a lookup by record id. */
export interface RecordIndex {
  /** A collection's creator records (in the creator's order), then the visitor's (oldest first). */
  of(collectionId: string | null): RuntimeRecord[];
  byId(recordId: string | null): RuntimeRecord | null;
}

const NONE: RuntimeRecord[] = [];

/**
 * Creator records show to every visitor, read-only; the visitor's own follow. Visitor records of a
 * collection the creator has since deleted are left out (they stay in the document, harmlessly).
 */
export function indexRecords(
  definition: ReadDefinition,
  visitorRecords: readonly RuntimeDataRecord[],
  compute: ComputeFormulas | null = null,
): RecordIndex {
  const groups = new Map<string, RuntimeRecord[]>();
  const byId = new Map<string, RuntimeRecord>();
  const add = (plain: RuntimeRecord) => {
    // Formula fields are worked out here, once per change, so lists, filters, sorts and details
    // all read the same values.
    const computed = compute?.(plain.collectionId, plain.values);
    const record = computed
      ? {
          ...plain,
          values: { ...plain.values, ...computed.values },
          ...(Object.keys(computed.errors).length ? { formulaErrors: computed.errors } : {}),
        }
      : plain;
    groups.get(record.collectionId)?.push(record);
    // A visitor record can never take a creator record's id: creator records win.
    if (!byId.has(record.id)) byId.set(record.id, record);
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
  return {
    of: (collectionId) => (collectionId ? (groups.get(collectionId) ?? NONE) : NONE),
    byId: (recordId) => (recordId ? (byId.get(recordId) ?? null) : null),
  };
}
