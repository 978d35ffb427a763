import {
  type EntityChange,
  entityKey,
  type FlatDefinition,
  type FlatEntity,
  type FlatList,
  flattenDefinition,
  listKey,
  movedEntities,
  parentKeyOf,
  rawChanges,
  type RawChange,
  describeChanges,
} from './changes';
import { tokenize } from '../formula/lexer';
import type { AppDefinition } from '../schema/definition';
import type { ReadDefinition } from '../document/reader';

/*
 * A proposed change reviewed part by part: an AI's suggestion, or a draft, against the app as it
 * was when the change began (its base). Each part is one entity's change, as History lists it;
 * the parts a person takes go to `mergeDefinitions` (`taken`), which merges only those into the
 * app as it is now, every other entity as the base had it.
 */

export interface ChangePart extends EntityChange {
  /** entityKey(entity, id): what `taken` holds. */
  key: string;
  /**
   * The parts this one cannot be taken without: what it names that the change adds (a field a
   * component shows, the screen a component is added to), and for a removal, its children's
   * removals (they go with it).
   */
  needs: string[];
}

/** The keys of the entities in `ids` (by id) that a value names: any string in it equal to an id. */
function namedIn(value: unknown, ids: ReadonlyMap<string, string>): string[] {
  if (ids.size === 0) return [];
  const named = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === 'string') {
      const key = ids.get(v);
      if (key !== undefined) named.add(key);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(value);
  return [...named];
}

/** What an entity's properties name: their values, and the ids in their paths ('values.f1'). */
const namedBy = (entity: FlatEntity, ids: ReadonlyMap<string, string>) =>
  namedIn(
    [[...entity.props.keys()].map((path) => path.split('.')), [...entity.props.values()]],
    ids,
  );

/** The ids of the entities a change list adds (or removes), each with its key. */
function idsOf(raw: readonly RawChange[], flat: FlatDefinition, change: 'added' | 'removed') {
  return new Map(
    raw
      .filter((c) => c.change === change)
      .map((c) => [flat.entities.get(c.key)!.id, c.key] as [string, string]),
  );
}

/** The parts of the change from `base` to `proposed`, in History's order, each with what it needs. */
export function changeParts(
  base: ReadDefinition | AppDefinition,
  proposed: ReadDefinition | AppDefinition,
): ChangePart[] {
  return flatParts(flattenDefinition(base), flattenDefinition(proposed));
}

/** changeParts of two definitions already flattened (the merge has them). */
export function flatParts(before: FlatDefinition, after: FlatDefinition): ChangePart[] {
  const raw = rawChanges(before, after);
  const { changes } = describeChanges(raw, before, after);
  const needs = new Map(raw.map((change) => [change.key, new Set<string>()]));
  const need = (key: string, other: string) => {
    if (key !== other && needs.has(other)) needs.get(key)!.add(other);
  };
  const added = idsOf(raw, after, 'added');
  const removed = idsOf(raw, before, 'removed');
  for (const change of raw) {
    if (change.change === 'removed') {
      // A removal takes its children's removals with it.
      const parent = parentKeyOf(before.entities.get(change.key)!);
      if (parent !== null && needs.has(parent)) need(parent, change.key);
      continue;
    }
    // What it names that the change adds: a field a component shows, the screen it sits on, the
    // field a record holds a value of.
    for (const named of namedBy(after.entities.get(change.key)!, added)) need(change.key, named);
    // A removal takes what the change altered because it went: a record's value of a removed
    // field, a reference to it (every device repairs a reference to what is gone).
    if (change.change === 'added') continue;
    const old = before.entities.get(change.key)!;
    const altered = change.paths.map((path) => [path.split('.'), old.props.get(path)]);
    for (const gone of namedIn(altered, removed)) need(gone, change.key);
  }
  // An app has a screen: a change that removes every screen it had adds the one it keeps.
  const keepsAScreen = [...before.entities.values()].some(
    (entity) => entity.kind === 'screen' && !removed.has(entity.id),
  );
  if (!keepsAScreen) {
    for (const gone of removed.values()) {
      if (!gone.startsWith('screen:')) continue;
      for (const made of added.values()) if (made.startsWith('screen:')) need(gone, made);
    }
  }
  formulaNeeds(before, after, raw, need);
  return changes.map((change, i) => {
    const key = raw[i]!.key;
    return { ...change, key, needs: [...needs.get(key)!] };
  });
}

/** The fields a formula names, by name as the formula language finds them. */
function formulaNames(formula: unknown): string[] {
  if (typeof formula !== 'string') return [];
  return tokenize(formula).flatMap((token) => (token.kind === 'field' ? [token.name] : []));
}

/** A formula field's or a formula reminder's formula, and the collection whose fields it names. */
function formulaOf(entity: FlatEntity): { formula: unknown; collection: unknown } | null {
  if (entity.kind === 'field')
    return { formula: entity.props.get('formula'), collection: entity.parent };
  if (entity.kind === 'reminder') {
    return {
      formula: entity.props.get('schedule.formula'),
      collection: entity.props.get('schedule.collectionId'),
    };
  }
  return null;
}

/**
 * A formula names fields by name: a formula that names a field the change adds or renames needs
 * that part, and a rename needs the formulas it rewrote (they named the old name).
 */
function formulaNeeds(
  before: FlatDefinition,
  after: FlatDefinition,
  raw: readonly RawChange[],
  need: (key: string, other: string) => void,
) {
  // A collection's fields, from its list (not a scan of every entity per formula).
  const fieldsOf = (flat: FlatDefinition, collection: unknown) =>
    (
      flat.lists.get(listKey('field', typeof collection === 'string' ? collection : null))?.ids ??
      []
    )
      .map((id) => entityKey('field', id))
      .map((key) => ({ key, name: String(flat.entities.get(key)?.props.get('name') ?? '') }));
  const renamedOrAdded = new Set(
    raw
      .filter((c) => c.change === 'added' || (c.change === 'changed' && c.paths.includes('name')))
      .map((c) => c.key)
      .filter((key) => key.startsWith('field:')),
  );
  if (renamedOrAdded.size === 0) return;
  for (const change of raw) {
    if (change.change === 'removed') continue;
    const now = formulaOf(after.entities.get(change.key)!);
    if (!now) continue;
    const fields = fieldsOf(after, now.collection);
    for (const name of formulaNames(now.formula)) {
      const field = findByName(fields, name);
      if (field && renamedOrAdded.has(field.key)) need(change.key, field.key);
    }
    const old = before.entities.get(change.key);
    const was = old && formulaOf(old);
    if (!was || !change.paths.some((path) => path.endsWith('formula'))) continue;
    const oldFields = fieldsOf(before, was.collection);
    for (const name of formulaNames(was.formula)) {
      const field = findByName(oldFields, name);
      if (field && renamedOrAdded.has(field.key)) need(field.key, change.key);
    }
  }
}

/** As a formula finds a field: its exact name, else the same name trimmed, in any case. */
function findByName<F extends { name: string }>(fields: readonly F[], name: string) {
  const wanted = name.trim().toLowerCase();
  return (
    fields.find((field) => field.name === name) ??
    fields.find((field) => field.name.trim().toLowerCase() === wanted)
  );
}

/**
 * `chosen` with everything its parts need, and without any part that needs one left out: what a
 * review takes when a person ticks `chosen`. `last` is the part just ticked (true) or unticked
 * (false): ticking takes what it needs, unticking leaves out what needs it.
 */
export function closeParts(
  parts: readonly ChangePart[],
  chosen: ReadonlySet<string>,
  last?: { key: string; taken: boolean },
): Set<string> {
  const byKey = new Map(parts.map((part) => [part.key, part]));
  const taken = new Set([...chosen].filter((key) => byKey.has(key)));
  const neededBy = new Map<string, string[]>();
  for (const part of parts) {
    for (const need of part.needs) {
      const by = neededBy.get(need);
      if (by) by.push(part.key);
      else neededBy.set(need, [part.key]);
    }
  }
  if (last && !last.taken) {
    // Unticked: whatever needs it, directly or not, is left out too.
    const seen = new Set<string>();
    const out = [last.key];
    while (out.length > 0) {
      const key = out.pop()!;
      if (seen.has(key)) continue;
      seen.add(key);
      taken.delete(key);
      out.push(...(neededBy.get(key) ?? []));
    }
  }
  // Whatever is taken takes what it needs.
  const todo = [...taken];
  while (todo.length > 0) {
    for (const need of byKey.get(todo.pop()!)?.needs ?? []) {
      if (byKey.has(need) && !taken.has(need)) {
        taken.add(need);
        todo.push(need);
      }
    }
  }
  return taken;
}

/**
 * `theirs` with only the changes of the entities in `taken`, every other entity as `base` has it
 * (an entity `theirs` added is left out, one it removed is kept): the proposed change as far as a
 * person took it. A taken entity sits where `theirs` put it when it was added or moved, after the
 * sibling it follows there; every other stays where `base` has it. An entity whose parent is
 * left out goes with it.
 */
export function onlyTaken(
  base: FlatDefinition,
  theirs: FlatDefinition,
  taken: ReadonlySet<string>,
): FlatDefinition {
  const picked = new Map<string, FlatEntity>();
  const order: string[] = [];
  const keys = [...theirs.order, ...base.order.filter((key) => !theirs.entities.has(key))];
  for (const key of keys) {
    const entity = taken.has(key) ? theirs.entities.get(key) : base.entities.get(key);
    if (entity) picked.set(key, entity);
  }
  // Parents come before their children in both orders: a child whose parent is gone goes too.
  for (const key of keys) {
    const entity = picked.get(key);
    if (!entity) continue;
    const parent = parentKeyOf(entity);
    if (parent !== null && !picked.has(parent)) picked.delete(key);
    else order.push(key);
  }
  const kept = new Set(order);
  const moved = movedEntities(base, theirs);
  const placedByTheirs = (key: string) =>
    taken.has(key) && (!base.entities.has(key) || moved.has(key));
  const lists = new Map<string, FlatList>();
  const listOf = (entity: FlatEntity) => {
    const k = listKey(entity.kind, entity.parent);
    let list = lists.get(k);
    if (!list) lists.set(k, (list = { kind: entity.kind, ids: [] }));
    return list;
  };
  // Where base has them, first; then what theirs placed, after the sibling it follows there.
  for (const list of base.lists.values()) {
    for (const id of list.ids) {
      const key = entityKey(list.kind, id);
      const entity = picked.get(key);
      if (entity && !placedByTheirs(key) && kept.has(key)) listOf(entity).ids.push(id);
    }
  }
  for (const list of theirs.lists.values()) {
    list.ids.forEach((id, i) => {
      const key = entityKey(list.kind, id);
      const entity = picked.get(key);
      if (!entity || !placedByTheirs(key) || !kept.has(key)) return;
      const siblings = listOf(entity).ids;
      // After the nearest sibling before it in theirs that this list holds; else first.
      let at = 0;
      for (let k = i - 1; k >= 0; k -= 1) {
        const found = siblings.indexOf(list.ids[k]!);
        if (found >= 0) {
          at = found + 1;
          break;
        }
      }
      siblings.splice(at, 0, id);
    });
  }
  return { entities: new Map(order.map((key) => [key, picked.get(key)!])), order, lists };
}
