import * as Y from 'yjs';
import type { SpaceActivityKind } from '../storage/types';

/*
 * What a transaction on a space's document did, read from what Yjs integrated — the document
 * after the transaction and the transaction's own record of what it changed — never from what an
 * update declares (docs/decisions/0011-space-record-rules-from-update-content.md). The document:
 *
 *   doc.getMap('records')  id → Y.Map { collectionId, values: Y.Map (field id → value), … }
 */

/** What activity a shared collection can have: its name field and its done-like field. */
export interface CollectionActivityFields {
  /** The field whose value names an item: the collection's first text field. */
  nameFieldId: string | null;
  /** The field that marks an item done: the collection's first yes/no (boolean) field. */
  doneFieldId: string | null;
}

/** The shared collections of a space's app, by id (activityFieldsOf). */
export type SpaceShape = ReadonlyMap<string, CollectionActivityFields>;

export interface DetectedChange {
  kind: SpaceActivityKind;
  recordId: string;
  /** The item's name as it is now; null when it has none. */
  name: string | null;
}

/** The longest item name a notification carries; longer ones end with an ellipsis. */
export const ACTIVITY_NAME_MAX = 40;

/**
 * The fields activity reads in each collection shared in a space, from a published definition:
 * an app has no "done" marker of its own, and its templates give a shared list exactly one yes/no
 * field ("Bought", "Done"), so the first is the one that completes an item.
 */
export function activityFieldsOf(collections: unknown): Map<string, CollectionActivityFields> {
  const shape = new Map<string, CollectionActivityFields>();
  if (!Array.isArray(collections)) return shape;
  for (const collection of collections as unknown[]) {
    if (typeof collection !== 'object' || collection === null) continue;
    const { id, sharing, fields } = collection as Record<string, unknown>;
    if (typeof id !== 'string' || sharing !== 'space' || !Array.isArray(fields)) continue;
    const typed = (fields as unknown[]).filter(
      (f): f is { id: string; type: string } =>
        typeof f === 'object' &&
        f !== null &&
        typeof (f as { id?: unknown }).id === 'string' &&
        typeof (f as { type?: unknown }).type === 'string',
    );
    shape.set(id, {
      nameFieldId: typed.find((f) => f.type === 'text')?.id ?? null,
      doneFieldId: typed.find((f) => f.type === 'boolean')?.id ?? null,
    });
  }
  return shape;
}

/** The last value an item of a map holds (what Y.Map.get reads when it is the current one). */
function contentOf(item: Y.Item): unknown {
  const values = item.content.getContent();
  return values[values.length - 1];
}

function nameIn(values: unknown, fields: CollectionActivityFields): string | null {
  if (!(values instanceof Y.Map) || fields.nameFieldId === null) return null;
  const raw: unknown = values.get(fields.nameFieldId);
  if (typeof raw !== 'string') return null;
  const name = raw.replace(/\s+/g, ' ').trim();
  if (name === '') return null;
  return name.length > ACTIVITY_NAME_MAX ? `${name.slice(0, ACTIVITY_NAME_MAX - 1)}…` : name;
}

/**
 * The records a transaction added, and the ones whose done-like field it turned true (from
 * anything but true), in a collection of `shape`. A record added already done counts as added
 * only; one deleted again in the same transaction is not counted. Costs a look at what the
 * transaction changed, nothing more.
 */
export function detectChanges(doc: Y.Doc, tr: Y.Transaction, shape: SpaceShape): DetectedChange[] {
  const records = doc.share.get('records');
  if (!records) return [];
  const isNew = (item: Y.Item) => item.id.clock >= (tr.beforeState.get(item.id.client) ?? 0);
  const changes: DetectedChange[] = [];
  const added = new Set<string>();

  for (const key of tr.changed.get(records) ?? []) {
    if (key === null) continue;
    const entry = records._map.get(key);
    if (!entry || entry.deleted || !isNew(entry)) continue;
    if (!(entry.content instanceof Y.ContentType) || !(entry.content.type instanceof Y.Map)) {
      continue;
    }
    const record = entry.content.type as Y.Map<unknown>;
    const collectionId = record.get('collectionId');
    const fields = typeof collectionId === 'string' ? shape.get(collectionId) : undefined;
    if (!fields) continue;
    added.add(key);
    changes.push({ kind: 'added', recordId: key, name: nameIn(record.get('values'), fields) });
  }

  for (const [type, keys] of tr.changed) {
    // A record's values: a map under the key `values` of a record of `records`.
    const valuesItem = type._item;
    if (!(type instanceof Y.Map) || valuesItem?.parentSub !== 'values') continue;
    const recordItem = (valuesItem.parent as Y.AbstractType<unknown>)._item;
    if (!recordItem || recordItem.parent !== records || recordItem.deleted) continue;
    const recordId = recordItem.parentSub;
    if (recordId === null || added.has(recordId)) continue;
    const record = (recordItem.content as Y.ContentType).type as Y.Map<unknown>;
    const collectionId = record.get('collectionId');
    const fields = typeof collectionId === 'string' ? shape.get(collectionId) : undefined;
    if (!fields?.doneFieldId || !keys.has(fields.doneFieldId)) continue;
    const entry = type._map.get(fields.doneFieldId);
    if (!entry || entry.deleted || !isNew(entry) || contentOf(entry) !== true) continue;
    // The value before: the newest older entry of the key, if this transaction deleted it (one
    // deleted earlier was no value at all).
    let before = entry.left;
    while (before && isNew(before)) before = before.left;
    const was = before && Y.isDeleted(tr.deleteSet, before.id) ? contentOf(before) : undefined;
    if (was === true) continue;
    changes.push({ kind: 'completed', recordId, name: nameIn(type, fields) });
  }
  return changes;
}
