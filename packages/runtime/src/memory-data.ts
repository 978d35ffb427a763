import {
  type Collection,
  counterValue,
  DefinitionError,
  type FieldValue,
  MISSING_RECORD_MESSAGE,
  OTHER_COLLECTION_MESSAGE,
  prepareVisitorRecord,
  prepareVisitorUpdate,
  recordLimitMessage,
  type VisitorData,
  type VisitorRecord,
  VISITOR_RECORD_LIMIT,
} from '@pipit/app-definition';
import { useState, useSyncExternalStore } from 'react';
import type { RuntimeData } from './runtime-data';

/** A RuntimeData held in memory, as an external store React can subscribe to. */
export interface MemoryDataStore {
  /** The current data; a new object after each change. */
  getSnapshot(): RuntimeData;
  subscribe(listener: () => void): () => void;
}

/** A change a memory store made, as it made it: to write into a lasting copy later, the same. */
export type MemoryWrite =
  | { kind: 'create'; record: VisitorRecord }
  | {
      kind: 'update';
      collection: Collection;
      recordId: string;
      values: Record<string, FieldValue>;
      now: number;
    }
  | { kind: 'remove'; recordId: string }
  | { kind: 'counter'; counterId: string; value: number };

/**
 * Visitor data in memory, checked by the same rules as the Yjs document (`prepareVisitorRecord`,
 * `prepareVisitorUpdate`, the record limit): for the editor preview, tests and anything that keeps
 * no data, and an installed app's first visit until its lasting copy opens (`onWrite` hears each
 * change made). `now` makes timestamps deterministic in tests.
 */
export function createMemoryDataStore(
  initial: Partial<VisitorData> = {},
  options: { now?: () => number; onWrite?: (write: MemoryWrite) => void } = {},
): MemoryDataStore {
  const now = options.now ?? Date.now;
  const wrote = options.onWrite ?? (() => undefined);
  let records: readonly VisitorRecord[] = initial.records ?? [];
  let counters: Readonly<Record<string, number>> = initial.counters ?? {};
  const listeners = new Set<() => void>();

  const commit = (next: {
    records?: readonly VisitorRecord[];
    counters?: Record<string, number>;
  }) => {
    records = next.records ?? records;
    counters = next.counters ?? counters;
    snapshot = makeSnapshot();
    for (const listener of [...listeners]) listener();
  };

  const makeSnapshot = (): RuntimeData => ({
    records,
    counters,
    create(collection: Collection, values) {
      if (records.length >= VISITOR_RECORD_LIMIT) throw new DefinitionError(recordLimitMessage());
      const record = prepareVisitorRecord(collection, values, { now: now() });
      commit({ records: [...records, record] });
      wrote({ kind: 'create', record });
      return record.id;
    },
    createMany(collection: Collection, rows) {
      if (records.length + rows.length > VISITOR_RECORD_LIMIT)
        throw new DefinitionError(recordLimitMessage());
      const at = now();
      // Everything is checked before anything is kept: all of them, or none.
      const added = rows.map((values, index) => {
        try {
          return prepareVisitorRecord(collection, values, { now: at + index });
        } catch (error) {
          if (!(error instanceof DefinitionError)) throw error;
          throw new DefinitionError(`Item ${index + 1} of the import: ${error.message}`);
        }
      });
      commit({ records: [...records, ...added] });
      for (const record of added) wrote({ kind: 'create', record });
      return added.map((record) => record.id);
    },
    update(collection: Collection, recordId, values) {
      const record = records.find((r) => r.id === recordId);
      if (!record) throw new DefinitionError(MISSING_RECORD_MESSAGE);
      if (record.collectionId !== collection.id) {
        throw new DefinitionError(OTHER_COLLECTION_MESSAGE);
      }
      const patch = prepareVisitorUpdate(collection, values);
      const at = now();
      const updated = { ...record, values: { ...record.values, ...patch }, updatedAt: at };
      commit({ records: records.map((r) => (r.id === recordId ? updated : r)) });
      wrote({ kind: 'update', collection, recordId, values: patch, now: at });
    },
    remove(recordId) {
      if (!records.some((r) => r.id === recordId)) return;
      commit({ records: records.filter((r) => r.id !== recordId) });
      wrote({ kind: 'remove', recordId });
    },
    setCounter(counterId, value) {
      const kept = counterValue(counterId, value);
      commit({ counters: { ...counters, [counterId]: kept } });
      wrote({ kind: 'counter', counterId, value: kept });
    },
  });

  let snapshot = makeSnapshot();
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** RuntimeData in memory for one component's lifetime (lost on reload): the preview and /demo tries. */
export function useMemoryRuntimeData(initial?: Partial<VisitorData>): RuntimeData {
  const [store] = useState(() => createMemoryDataStore(initial));
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
