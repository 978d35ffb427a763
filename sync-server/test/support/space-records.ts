import * as Y from 'yjs';
import type { Storage } from '../../src/storage/types';

/*
 * A shared space's records as tests make and read them (docs/product/spaces.md): one written as
 * the app writes it, and the records as storage holds them — snapshot and log, never a
 * connection's copy.
 */

/** What a stored record holds, as tests look at it. */
export interface StoredRecord {
  collectionId?: string;
  authorId?: string;
  updatedAt?: unknown;
  values?: Record<string, unknown>;
}

/**
 * A record as the app writes one: its collection, its values (a `name` unless given), its times
 * and its author.
 */
export function spaceRecord(
  collectionId: string,
  authorId: string,
  name = 'Dishes',
  values: Record<string, unknown> = { name },
): Y.Map<unknown> {
  const record = new Y.Map<unknown>();
  record.set('collectionId', collectionId);
  record.set('values', new Y.Map<unknown>(Object.entries(values)));
  record.set('createdAt', 1);
  record.set('updatedAt', 1);
  record.set('authorId', authorId);
  return record;
}

/** The records of document `name` as storage holds them (snapshot and log). */
export async function storedSpaceRecords(
  storage: Storage,
  name: string,
): Promise<Record<string, StoredRecord>> {
  const { snapshot, log } = await storage.documents.loadWithLog(name);
  const doc = new Y.Doc();
  if (snapshot) Y.applyUpdate(doc, snapshot);
  for (const entry of log) Y.applyUpdate(doc, entry.update);
  const records = doc.getMap('records').toJSON() as Record<string, StoredRecord>;
  doc.destroy();
  return records;
}
