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

/**
 * Why a JSON schema would be refused by OpenAI's strict structured output: `oneOf`, an object that
 * allows other keys, or an optional key (strict mode wants every key required, null for "none").
 */
export function strictSchemaProblems(root: unknown): string[] {
  const problems: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (!node || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    if ('oneOf' in schema) problems.push(`${at}: oneOf`);
    if (schema.type === 'object') {
      const keys = Object.keys((schema.properties ?? {}) as object).sort();
      const required = [...((schema.required as string[] | undefined) ?? [])].sort();
      if (schema.additionalProperties !== false) problems.push(`${at}: open object`);
      if (JSON.stringify(required) !== JSON.stringify(keys)) problems.push(`${at}: optional keys`);
    }
    for (const [key, child] of Object.entries(schema)) {
      if (Array.isArray(child)) child.forEach((c, i) => walk(c, `${at}.${key}.${i}`));
      else walk(child, `${at}.${key}`);
    }
  };
  walk(root, '$');
  return problems;
}
