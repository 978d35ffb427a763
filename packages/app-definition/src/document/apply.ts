import { generateNKeysBetween } from 'fractional-indexing';
import * as Y from 'yjs';
import type { AppDefinition } from '../schema/definition';
import {
  appMap,
  type Entity,
  metaMap,
  ordered,
  type Table,
  TABLES,
  table,
  themeMap,
} from './document';
import { LOCAL_EDIT } from '../schema/edit-rules';
import { type ReadDefinition, readDefinition } from './reader';

/** Which keys of an entity hold a nested map (one key per prop or value, so edits merge per key). */
const NESTED_KEYS = new Set(['props', 'values']);

interface Desired {
  /** The entity's values, without its order key. */
  values: Record<string, unknown>;
  /** The parent it belongs to (undefined for top-level tables). */
  parent: string | undefined;
}

type Plan = Record<Table, { entities: Map<string, Desired>; groups: Map<string, string[]> }>;

const TOP = '\u0000top';

function emptyPlan(): Plan {
  const plan = {} as Plan;
  for (const name of TABLES) plan[name] = { entities: new Map(), groups: new Map() };
  return plan;
}

function add(
  plan: Plan,
  name: Table,
  id: string,
  values: Record<string, unknown>,
  parent?: string,
) {
  plan[name].entities.set(id, { values, parent });
  const key = parent ?? TOP;
  const group = plan[name].groups.get(key);
  if (group) group.push(id);
  else plan[name].groups.set(key, [id]);
}

/** Components the reader could not use (a newer type): left as they are in the document. */
interface Kept {
  components: Set<string>;
}

function planOf(definition: ReadDefinition | AppDefinition): { plan: Plan; kept: Kept } {
  const plan = emptyPlan();
  const kept: Kept = { components: new Set() };
  for (const screen of definition.screens) {
    add(plan, 'screens', screen.id, { title: screen.title, icon: screen.icon });
    for (const component of screen.components) {
      if (component.type === 'invalid') {
        kept.components.add(component.id);
        continue;
      }
      add(
        plan,
        'components',
        component.id,
        { type: component.type, screenId: screen.id, props: component.props },
        screen.id,
      );
    }
  }
  for (const collection of definition.collections) {
    const { name, sharing, recordRule } = collection;
    add(plan, 'collections', collection.id, { name, sharing, recordRule });
    for (const { id, ...field } of collection.fields) {
      add(plan, 'fields', id, { ...field, collectionId: collection.id }, collection.id);
    }
    for (const record of collection.records) {
      add(
        plan,
        'records',
        record.id,
        { collectionId: collection.id, values: record.values },
        collection.id,
      );
    }
  }
  for (const action of definition.actions) {
    add(plan, 'actions', action.id, { name: action.name });
    for (const step of action.steps) {
      add(
        plan,
        'steps',
        step.id,
        { type: step.type, actionId: action.id, props: step.props },
        action.id,
      );
    }
  }
  for (const { id, ...ai } of definition.aiActions) add(plan, 'aiActions', id, ai);
  for (const { id, ...reminder } of definition.reminders ?? [])
    add(plan, 'reminders', id, reminder);
  return { plan, kept };
}

const plain = (value: unknown): unknown =>
  value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Makes a map equal to `values`: only the keys that differ are written. For an entity, `keep`
 * names the keys left alone (its order) and NESTED_KEYS hold maps of their own; inside those, every
 * value is plain.
 */
function syncMap(map: Y.Map<unknown>, values: Record<string, unknown>, keep?: Set<string>) {
  const entity = keep !== undefined;
  for (const key of [...map.keys()]) {
    if (!(key in values) && !keep?.has(key)) map.delete(key);
  }
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) {
      if (map.has(key)) map.delete(key);
      continue;
    }
    const current = map.get(key);
    if (entity && NESTED_KEYS.has(key) && typeof value === 'object' && value !== null) {
      if (current instanceof Y.Map) syncMap(current, value as Record<string, unknown>);
      else map.set(key, nestedMap(value as Record<string, unknown>));
      continue;
    }
    if (current instanceof Y.AbstractType || !same(current, value)) map.set(key, plain(value));
  }
}

function nestedMap(values: Record<string, unknown>): Y.Map<unknown> {
  const map = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) map.set(key, plain(value));
  }
  return map;
}

function newEntity(values: Record<string, unknown>): Entity {
  const entity = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    entity.set(
      key,
      NESTED_KEYS.has(key) && typeof value === 'object' && value !== null
        ? nestedMap(value as Record<string, unknown>)
        : plain(value),
    );
  }
  return entity;
}

/**
 * Order keys for a group in the wanted order: kept where the existing keys already run in that
 * order (so a restore that moved nothing writes no order), new ones between their neighbours;
 * when the order changed, the group gets fresh keys.
 */
function orderGroup(doc: Y.Doc, name: Table, ids: string[]) {
  const entities = table(doc, name);
  const keys = ids.map((id) => {
    const key = entities.get(id)?.get('order');
    return typeof key === 'string' && key !== '' ? key : null;
  });
  const present = keys.filter((k): k is string => k !== null);
  const increasing = present.every((key, i) => i === 0 || key > present[i - 1]!);
  if (!increasing) {
    const fresh = generateNKeysBetween(null, null, ids.length);
    ids.forEach((id, i) => entities.get(id)?.set('order', fresh[i]!));
    return;
  }
  let i = 0;
  while (i < ids.length) {
    if (keys[i] !== null) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < ids.length && keys[end] === null) end += 1;
    const fresh = generateNKeysBetween(keys[i - 1] ?? null, keys[end] ?? null, end - i);
    for (let j = i; j < end; j++) entities.get(ids[j]!)?.set('order', fresh[j - i]!);
    i = end;
  }
}

/**
 * Makes an `app/{id}` document equal to `target` as one change — a restore, a pulled update, a
 * conflict resolved the other way. Only what differs is written, entity by entity and key by key,
 * so a collaborator's concurrent edit of something else survives, and an UndoManager that follows
 * `origin` takes the whole change back in one step. Components that either side holds as
 * unreadable (`type: 'invalid'`) are left as the document has them.
 */
export function applyDefinition(
  doc: Y.Doc,
  target: ReadDefinition | AppDefinition,
  origin: unknown = LOCAL_EDIT,
): void {
  const { plan, kept } = planOf(target);
  // Components this version cannot read (made by a newer one) are never removed by a restore or a
  // merge that does not know them: what cannot be understood is not thrown away.
  if (appMap(doc).has('schemaVersion')) {
    for (const screen of readDefinition(doc).screens) {
      for (const component of screen.components) {
        if (component.type === 'invalid') kept.components.add(component.id);
      }
    }
  }
  doc.transact(() => {
    if (appMap(doc).get('schemaVersion') !== target.schemaVersion) {
      appMap(doc).set('schemaVersion', target.schemaVersion);
    }
    syncMap(metaMap(doc), target.meta as unknown as Record<string, unknown>);
    syncMap(themeMap(doc), target.theme as unknown as Record<string, unknown>);
    // (meta and theme hold plain values only: no `keep`, so nothing in them is nested)
    for (const name of Object.keys(plan) as Table[]) {
      const entities = table(doc, name);
      const wanted = plan[name].entities;
      for (const id of [...entities.keys()]) {
        if (!wanted.has(id) && !(name === 'components' && kept.components.has(id))) {
          entities.delete(id);
        }
      }
      for (const [id, desired] of wanted) {
        const current = entities.get(id);
        if (current instanceof Y.Map) syncMap(current, desired.values, new Set(['order']));
        else entities.set(id, newEntity(desired.values));
      }
      for (const ids of plan[name].groups.values()) orderGroup(doc, name, ids);
    }
  }, origin);
}

/** For tests and checks: the ids of a table in the document's order. */
export function orderedIds(doc: Y.Doc, name: Table, parent?: string): string[] {
  return ordered(doc, name, parent).map((row) => row.id);
}
