import * as Y from 'yjs';
import { plainMap, plainObject } from '../document/document';
import type { FieldValue } from '../schema/field-values';
import { DefinitionError, LOCAL_EDIT } from '../schema/edit-rules';
import {
  compareVisitorRecords,
  counterValue,
  MISSING_RECORD_MESSAGE,
  OTHER_COLLECTION_MESSAGE,
  prepareVisitorRecord,
  prepareVisitorUpdate,
  type RecordCollection,
  recordLimitMessage,
  VISITOR_RECORD_LIMIT,
  type VisitorData,
  type VisitorRecord,
} from './visitor-records';

/*
 * A visitor's private data for one app: the document `data/{appId}/{userId}` (docs/architecture.md,
 * docs/product/app-definition.md), or `data/{appId}` kept on the device by an anonymous visitor.
 * Layout:
 *
 *   doc.getMap('records')  id → Y.Map { collectionId, values: Y.Map (field id → value),
 *                                        createdAt, updatedAt, authorId? }
 *   doc.getMap('counters') component id → number
 *
 * Records are entities keyed by random ids, so two documents (an anonymous one merged into the
 * account's on sign-in, or two offline devices) merge into the union of their records, and
 * concurrent edits of different fields of one record both survive. Every edit runs with the origin
 * LOCAL_EDIT, as definition edits do, so an UndoManager can follow this device's changes.
 *
 * A shared space's document `space/{spaceId}` (docs/product/spaces.md) has the same layout, with
 * each record's `authorId`: the account that added it, set once (space-data.ts).
 */

const recordsMap = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>('records');
const countersMap = (doc: Y.Doc) => doc.getMap<unknown>('counters');

/** Adds a record to the visitor's document; returns its id. */
export function createVisitorRecord(
  doc: Y.Doc,
  collection: RecordCollection,
  values: Readonly<Record<string, unknown>>,
  options: { id?: string; now?: number; authorId?: string } = {},
): string {
  // Everything is checked before the transaction: a throw inside one would keep its partial edits.
  const record = prepareVisitorRecord(collection, values, options);
  const records = recordsMap(doc);
  if (records.size >= VISITOR_RECORD_LIMIT) throw new DefinitionError(recordLimitMessage());
  if (records.has(record.id)) throw new DefinitionError('That record already exists.');
  doc.transact(() => records.set(record.id, recordEntity(record)), LOCAL_EDIT);
  return record.id;
}

/**
 * Adds many records to one collection at once (a CSV import): every record is checked first, and
 * the limit, then all are written in one transaction — all of them are kept, or (a
 * DefinitionError that says which record and why) none. Returns their ids, in order.
 */
export function createVisitorRecords(
  doc: Y.Doc,
  collection: RecordCollection,
  rows: readonly Readonly<Record<string, unknown>>[],
  options: { now?: number; authorId?: string; limit?: number; limitMessage?: string } = {},
): string[] {
  const now = options.now ?? Date.now();
  const { authorId } = options;
  const prepared = rows.map((values, index) => {
    try {
      // One millisecond apart, so they keep the file's order (records sort by creation time).
      return prepareVisitorRecord(collection, values, {
        now: now + index,
        ...(authorId ? { authorId } : {}),
      });
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      throw new DefinitionError(`Item ${index + 1} of the import: ${error.message}`);
    }
  });
  const records = recordsMap(doc);
  if (records.size + prepared.length > (options.limit ?? VISITOR_RECORD_LIMIT)) {
    throw new DefinitionError(options.limitMessage ?? recordLimitMessage());
  }
  doc.transact(() => {
    for (const record of prepared) records.set(record.id, recordEntity(record));
  }, LOCAL_EDIT);
  return prepared.map((record) => record.id);
}

/** A record as the document keeps it. */
function recordEntity(record: VisitorRecord): Y.Map<unknown> {
  const entity = new Y.Map<unknown>();
  entity.set('collectionId', record.collectionId);
  entity.set('values', plainMap(record.values));
  entity.set('createdAt', record.createdAt);
  entity.set('updatedAt', record.updatedAt);
  if (record.authorId) entity.set('authorId', record.authorId);
  return entity;
}

function needRecord(doc: Y.Doc, recordId: string): Y.Map<unknown> {
  const entity = recordsMap(doc).get(recordId);
  if (!(entity instanceof Y.Map)) {
    throw new DefinitionError(MISSING_RECORD_MESSAGE);
  }
  return entity;
}

/** Sets the given fields of one of the visitor's records (one key per field, so edits merge). */
export function updateVisitorRecord(
  doc: Y.Doc,
  collection: RecordCollection,
  recordId: string,
  patch: Readonly<Record<string, unknown>>,
  options: { now?: number } = {},
): void {
  const entity = needRecord(doc, recordId);
  if (entity.get('collectionId') !== collection.id) {
    throw new DefinitionError(OTHER_COLLECTION_MESSAGE);
  }
  const values = prepareVisitorUpdate(collection, patch);
  doc.transact(() => {
    let map = entity.get('values');
    if (!(map instanceof Y.Map)) {
      map = new Y.Map<unknown>();
      entity.set('values', map);
    }
    for (const [fieldId, value] of Object.entries(values))
      (map as Y.Map<unknown>).set(fieldId, value);
    entity.set('updatedAt', options.now ?? Date.now());
  }, LOCAL_EDIT);
}

/** Deletes a record; false when it was already gone (deleted on another device). */
export function removeVisitorRecord(doc: Y.Doc, recordId: string): boolean {
  if (!recordsMap(doc).has(recordId)) return false;
  doc.transact(() => recordsMap(doc).delete(recordId), LOCAL_EDIT);
  return true;
}

/** A counter component's value (whole numbers, within ±1,000,000,000). */
export function setCounter(doc: Y.Doc, counterId: string, value: number): void {
  const clamped = counterValue(counterId, value);
  doc.transact(() => countersMap(doc).set(counterId, clamped), LOCAL_EDIT);
}

/**
 * Whether a stored value is one a record's field can hold (plain, finite, a list of text): what
 * every reader of stored records keeps, the document's and the plain copy's (client
 * plain-copy-store.ts) alike.
 */
export function isStoredValue(value: unknown): value is FieldValue {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string');
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * Each record as last read, by its entity in the document, for the documents read so far: a record
 * nothing changed since is the same object at the next read, so what the running app worked out
 * for it (formulas, rollups: packages/runtime, RecordIndexMemo) is kept. A transaction that
 * changes anything inside a record's entity forgets that record, before anyone observes it.
 */
const readRecords = new WeakMap<Y.Doc, WeakMap<Y.Map<unknown>, VisitorRecord>>();

function readRecordsOf(doc: Y.Doc): WeakMap<Y.Map<unknown>, VisitorRecord> {
  let read = readRecords.get(doc);
  if (read) return read;
  const kept = new WeakMap<Y.Map<unknown>, VisitorRecord>();
  const records = recordsMap(doc);
  doc.on('beforeObserverCalls', (transaction: Y.Transaction) => {
    for (const type of transaction.changed.keys()) {
      // The entity above the changed type: the one whose parent is the records map.
      let entity: typeof type | null = type;
      while (entity && entity.parent !== records) entity = entity.parent;
      if (entity instanceof Y.Map) kept.delete(entity);
    }
  });
  read = kept;
  readRecords.set(doc, read);
  return read;
}

/** One record's entity as a plain record, or null if it is not one (no collection id). */
function readRecord(entity: Y.Map<unknown>, id: string): VisitorRecord | null {
  const collectionId = entity.get('collectionId');
  if (typeof collectionId !== 'string' || !collectionId) return null;
  const createdAt = entity.get('createdAt');
  const updatedAt = entity.get('updatedAt');
  const values: Record<string, FieldValue> = {};
  for (const [fieldId, value] of Object.entries(plainObject(entity.get('values')))) {
    if (fieldId !== '__proto__' && isStoredValue(value)) values[fieldId] = value;
  }
  const created = typeof createdAt === 'number' && Number.isFinite(createdAt) ? createdAt : 0;
  const authorId = entity.get('authorId');
  return {
    id,
    collectionId,
    values,
    createdAt: created,
    updatedAt: typeof updatedAt === 'number' && Number.isFinite(updatedAt) ? updatedAt : created,
    ...(typeof authorId === 'string' && authorId ? { authorId } : {}),
  };
}

/**
 * The visitor's data as plain values, read tolerantly: entries that are not records (no collection
 * id) and values that are not plain are left out, the same way on every device. A record that did
 * not change since the last read is the object that read gave.
 */
export function readVisitorData(doc: Y.Doc): VisitorData {
  const records: VisitorRecord[] = [];
  const kept = readRecordsOf(doc);
  recordsMap(doc).forEach((entity, id) => {
    if (!(entity instanceof Y.Map)) return;
    let record = kept.get(entity);
    // Kept under its key: the same entity read under another key (never written so) reads anew.
    if (record?.id !== id) {
      const read = readRecord(entity, id);
      if (!read) return;
      record = read;
      kept.set(entity, record);
    }
    records.push(record);
  });
  records.sort(compareVisitorRecords);
  const counters: Record<string, number> = {};
  countersMap(doc).forEach((value, key) => {
    if (key !== '__proto__' && typeof value === 'number' && Number.isFinite(value))
      counters[key] = value;
  });
  return { records, counters };
}

/**
 * Writes a person's data as `readVisitorData` read it (an import of an exported copy, into a new
 * document): each record and counter exactly as it was, times included, in one transaction.
 * Records are not checked against the app's collections, as reading never drops them either.
 */
export function writeVisitorData(doc: Y.Doc, data: VisitorData): void {
  const records = recordsMap(doc);
  if (records.size + data.records.length > VISITOR_RECORD_LIMIT) {
    throw new DefinitionError(recordLimitMessage());
  }
  // A counter that could not be kept (a bad key, not a number) is left out, as reading does.
  const counters = Object.entries(data.counters).flatMap(([key, value]) => {
    try {
      return [[key, counterValue(key, value)] as const];
    } catch {
      return [];
    }
  });
  doc.transact(() => {
    for (const record of data.records) records.set(record.id, recordEntity(record));
    for (const [key, value] of counters) countersMap(doc).set(key, value);
  }, LOCAL_EDIT);
}

/**
 * Brings everything of `from` (an anonymous visitor's local document) into `into` (their
 * account's): both sides' records are kept; a counter both sides set keeps one of the two values.
 */
export function mergeVisitorData(into: Y.Doc, from: Y.Doc): void {
  Y.applyUpdate(into, Y.encodeStateAsUpdate(from, Y.encodeStateVector(into)), LOCAL_EDIT);
}
