import * as Y from 'yjs';

/** Deterministic ids for tests: "id1", "id2", … per factory. */
export function idFactory(prefix = 'id'): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)],
  };
}

export function newDoc(clientId?: number): Y.Doc {
  const doc = new Y.Doc();
  if (clientId !== undefined) doc.clientID = clientId;
  return doc;
}
