import { createId, groupedCount } from '@pipit/protocol';
import type { Collection } from '../schema/definition';
import { DefinitionError } from '../schema/edit-rules';
import { checkFieldValues, type FieldValue } from '../schema/field-values';

/*
 * A visitor's records as plain values, and the checks every record passes before it is kept: the
 * Yjs document (visitor-data.ts) and the memory store of a preview share them. Nothing here needs
 * Yjs, so a page that only previews an app never loads it.
 */

/** The most records one visitor keeps in one app (all collections together). */
export const VISITOR_RECORD_LIMIT = 5_000;

export interface VisitorRecord {
  id: string;
  collectionId: string;
  /** By field id. */
  values: Record<string, FieldValue>;
  createdAt: number;
  updatedAt: number;
  /** In a shared space: the account that added the record. */
  authorId?: string;
}

export interface VisitorData {
  /** In creation order (then by id, the same on every device). */
  records: VisitorRecord[];
  /** Counter components' values, by component id. */
  counters: Record<string, number>;
}

/** The collection a record is checked against: its id and fields are enough. */
export type RecordCollection = Pick<Collection, 'id' | 'name' | 'fields'>;

function firstProblem(errors: Record<string, string>): string | null {
  const first = Object.values(errors)[0];
  return first ?? null;
}

/**
 * A new record, checked against its collection (defaults fill the fields not given; an invalid or
 * missing required value is a DefinitionError that says which). Pure: a memory store and the Yjs
 * document share it.
 */
export function prepareVisitorRecord(
  collection: RecordCollection,
  values: Readonly<Record<string, unknown>>,
  options: { id?: string; now?: number; authorId?: string } = {},
): VisitorRecord {
  const checked = checkFieldValues(collection.fields, values, { complete: true });
  const problem = firstProblem(checked.errors);
  if (problem) throw new DefinitionError(problem);
  const now = options.now ?? Date.now();
  return {
    id: options.id ?? createId(),
    collectionId: collection.id,
    values: checked.values,
    createdAt: now,
    updatedAt: now,
    ...(options.authorId ? { authorId: options.authorId } : {}),
  };
}

/** The checked values of an update (only the fields given); a DefinitionError when one is wrong. */
export function prepareVisitorUpdate(
  collection: RecordCollection,
  patch: Readonly<Record<string, unknown>>,
): Record<string, FieldValue> {
  const checked = checkFieldValues(collection.fields, patch, { complete: false });
  const problem = firstProblem(checked.errors);
  if (problem) throw new DefinitionError(problem);
  return checked.values;
}

export function recordLimitMessage(): string {
  return `You can keep at most ${groupedCount(VISITOR_RECORD_LIMIT)} items in one app. Delete some to add more.`;
}

/** An update or removal of a record that is not there (deleted on another device, say). */
export const MISSING_RECORD_MESSAGE =
  'That item no longer exists. It may have been deleted on another device.';
export const OTHER_COLLECTION_MESSAGE = 'That item belongs to another collection.';

const MAX_COUNTER = 1_000_000_000;
const MAX_KEY_LENGTH = 64;

/** A counter's key and value as kept: whole numbers within ±1,000,000,000. */
export function counterValue(counterId: string, value: number): number {
  if (!counterId || counterId.length > MAX_KEY_LENGTH) {
    throw new DefinitionError('That counter cannot be saved.');
  }
  if (!Number.isFinite(value)) throw new DefinitionError('A counter holds a number.');
  return Math.max(-MAX_COUNTER, Math.min(MAX_COUNTER, Math.round(value)));
}

/** Records in creation order, then by id: the same order on every device. */
export function compareVisitorRecords(a: VisitorRecord, b: VisitorRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
