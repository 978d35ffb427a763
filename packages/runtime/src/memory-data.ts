import {
  type Collection,
  DefinitionError,
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

/**
 * Visitor data in memory, checked by the same rules as the Yjs document (`prepareVisitorRecord`,
 * `prepareVisitorUpdate`, the record limit): for the editor preview, tests and anything that keeps
 * no data. `now` makes timestamps deterministic in tests.
 */
export function createMemoryDataStore(
  initial: Partial<VisitorData> = {},
  options: { now?: () => number } = {},
): MemoryDataStore {
  const now = options.now ?? Date.now;
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
      return record.id;
    },
    update(collection: Collection, recordId, values) {
      const record = records.find((r) => r.id === recordId);
      if (!record) throw new DefinitionError('That item no longer exists.');
      if (record.collectionId !== collection.id) {
        throw new DefinitionError('That item belongs to another collection.');
      }
      const patch = prepareVisitorUpdate(collection, values);
      const updated = { ...record, values: { ...record.values, ...patch }, updatedAt: now() };
      commit({ records: records.map((r) => (r.id === recordId ? updated : r)) });
    },
    remove(recordId) {
      if (records.some((r) => r.id === recordId))
        commit({ records: records.filter((r) => r.id !== recordId) });
    },
    setCounter(counterId, value) {
      if (!Number.isFinite(value)) throw new DefinitionError('A counter holds a number.');
      commit({ counters: { ...counters, [counterId]: Math.round(value) } });
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
