import { generateKeyBetween } from 'fractional-indexing';
import * as Y from 'yjs';

/** The entity tables of an `app/{id}` document (see the package README: Document layout). */
export const TABLES = [
  'screens',
  'components',
  'collections',
  'fields',
  'records',
  'actions',
  'steps',
  'aiActions',
  'reminders',
] as const;
export type Table = (typeof TABLES)[number];

/** Which field of a child points at its parent, per table. */
export const PARENT_FIELD: Partial<Record<Table, string>> = {
  components: 'screenId',
  fields: 'collectionId',
  records: 'collectionId',
  steps: 'actionId',
};

export type Entity = Y.Map<unknown>;

/**
 * A map standing in for a `Y.Map` where a definition is read without a document (`plainDocument`
 * in write-definition.ts): the reader asks of it only `get` and `forEach`, as of a `Y.Map`.
 */
export class PlainMap extends Map<string, unknown> {}

/** A `Y.Map`, or a PlainMap standing in for one. */
function isMap(value: unknown): value is Y.Map<unknown> {
  return value instanceof Y.Map || value instanceof PlainMap;
}

export function table(doc: Y.Doc, name: Table): Y.Map<Entity> {
  return doc.getMap<Entity>(name);
}

export const appMap = (doc: Y.Doc) => doc.getMap<unknown>('app');
export const metaMap = (doc: Y.Doc) => doc.getMap<unknown>('meta');
export const themeMap = (doc: Y.Doc) => doc.getMap<unknown>('theme');

export interface Ordered {
  id: string;
  order: string;
  entity: Entity;
}

/**
 * The entities of a table in order: by fractional key, then by id when two peers chose the same
 * key. `parent` keeps only the children of one parent.
 */
export function ordered(doc: Y.Doc, name: Table, parent?: string): Ordered[] {
  const parentField = PARENT_FIELD[name];
  const rows: Ordered[] = [];
  table(doc, name).forEach((entity, id) => {
    if (!isMap(entity)) return;
    if (parent !== undefined && parentField && entity.get(parentField) !== parent) return;
    rows.push(row(id, entity));
  });
  return rows.sort(byOrder);
}

/**
 * The entities of a child table grouped by parent id, each group in the order `ordered` gives: one
 * pass over the table instead of one per parent. Rows without a parent id are left out.
 */
export function orderedByParent(doc: Y.Doc, name: Table): Map<string, Ordered[]> {
  const parentField = PARENT_FIELD[name];
  const groups = new Map<string, Ordered[]>();
  if (!parentField) return groups;
  table(doc, name).forEach((entity, id) => {
    if (!isMap(entity)) return;
    const parent = entity.get(parentField);
    if (typeof parent !== 'string') return;
    const group = groups.get(parent);
    if (group) group.push(row(id, entity));
    else groups.set(parent, [row(id, entity)]);
  });
  for (const group of groups.values()) group.sort(byOrder);
  return groups;
}

function row(id: string, entity: Entity): Ordered {
  const order = entity.get('order');
  return { id, order: typeof order === 'string' ? order : '', entity };
}

/** By fractional key, then by id. */
function byOrder(a: Ordered, b: Ordered): number {
  return a.order < b.order ? -1 : a.order > b.order ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A key between two keys that tolerates equal or malformed neighbours (a merged document can have both). */
function keyBetween(before: string | null, after: string | null): string {
  try {
    return generateKeyBetween(before, after);
  } catch {
    try {
      return generateKeyBetween(before, null);
    } catch {
      return generateKeyBetween(null, null);
    }
  }
}

/**
 * The order key that puts an item at `index` among `siblings` (the item itself excluded). An
 * index past the end appends.
 */
export function orderAt(siblings: Ordered[], index: number): string {
  const at = Math.max(0, Math.min(index, siblings.length));
  const before = siblings[at - 1]?.order ?? null;
  // Skip neighbours with the same key as `before` (concurrent inserts): the key must be greater.
  const after = siblings.slice(at).find((s) => before === null || s.order > before)?.order ?? null;
  return keyBetween(before || null, after || null);
}

/** Copies a Y.Map's plain and nested-map values into a new Y.Map (for duplicating). */
export function cloneEntity(entity: Entity): Entity {
  const copy = new Y.Map<unknown>();
  entity.forEach((value, key) => {
    copy.set(
      key,
      value instanceof Y.Map ? cloneEntity(value as Entity) : structuredCloneValue(value),
    );
  });
  return copy;
}

function structuredCloneValue(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** A Y.Map holding plain values, one per key (so concurrent edits of different keys merge). */
export function plainMap(values: Record<string, unknown>): Y.Map<unknown> {
  const map = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) map.set(key, structuredCloneValue(value));
  }
  return map;
}

/** The plain value of a `Y.Map` of plain values. */
export function plainObject(map: unknown): Record<string, unknown> {
  if (!isMap(map)) return {};
  const out: Record<string, unknown> = {};
  map.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}
