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
  describeChanges,
} from './changes';
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

/** The parts of the change from `base` to `proposed`, in History's order, each with what it needs. */
export function changeParts(
  base: ReadDefinition | AppDefinition,
  proposed: ReadDefinition | AppDefinition,
): ChangePart[] {
  const before = flattenDefinition(base);
  const after = flattenDefinition(proposed);
  const raw = rawChanges(before, after);
  const { changes } = describeChanges(raw, before, after);
  const added = new Map<string, string>();
  for (const change of raw) {
    if (change.change === 'added') added.set(after.entities.get(change.key)!.id, change.key);
  }
  const removed = new Set(raw.filter((c) => c.change === 'removed').map((c) => c.key));
  const removedChildren = new Map<string, string[]>();
  for (const key of removed) {
    const parent = parentKeyOf(before.entities.get(key)!);
    if (parent !== null && removed.has(parent)) {
      removedChildren.set(parent, [...(removedChildren.get(parent) ?? []), key]);
    }
  }
  // A removal takes with it what the change altered because it went: a record's value of a
  // removed field, a component's reference to it (every device repairs a reference to what is gone).
  const removedIds = new Map(
    [...removed].map((key) => [before.entities.get(key)!.id, key] as [string, string]),
  );
  const alteredBy = new Map<string, string[]>();
  for (const change of raw) {
    if (change.change !== 'changed' && change.change !== 'moved') continue;
    const old = before.entities.get(change.key)!;
    const named = namedIn(
      // A path names a field by its id ('values.f1'); a value names what it refers to.
      change.paths.map((path) => [path.split('.'), old.props.get(path)]),
      removedIds,
    );
    for (const gone of named) alteredBy.set(gone, [...(alteredBy.get(gone) ?? []), change.key]);
  }
  // An app has a screen: when the change removes every screen it had, each removal needs the
  // screens it adds.
  const screensAdded = [...added.values()].filter((key) => key.startsWith('screen:'));
  const keepsAScreen = [...before.entities.values()].some(
    (entity) => entity.kind === 'screen' && !removed.has(entityKey('screen', entity.id)),
  );
  if (!keepsAScreen) {
    for (const key of removed) {
      if (key.startsWith('screen:'))
        alteredBy.set(key, [...(alteredBy.get(key) ?? []), ...screensAdded]);
    }
  }
  // A formula names the fields it reads by name, within its collection.
  const addedFields = new Map<string, string>();
  for (const key of added.values()) {
    const field = after.entities.get(key)!;
    if (field.kind === 'field')
      addedFields.set(`${field.parent}\n${String(field.props.get('name'))}`, key);
  }
  const formulaNeeds = (entity: FlatEntity) => {
    const formula = entity.kind === 'field' ? entity.props.get('formula') : undefined;
    if (typeof formula !== 'string') return [];
    return [...formula.matchAll(/\{([^}]*)\}/g)]
      .map(([, name]) => addedFields.get(`${entity.parent}\n${name!.trim()}`))
      .filter((k): k is string => k !== undefined);
  };
  return changes.map((change, i) => {
    const key = raw[i]!.key;
    const entity = after.entities.get(key);
    const needs =
      change.change === 'removed'
        ? [...(removedChildren.get(key) ?? []), ...(alteredBy.get(key) ?? [])]
        : [...namedIn([...entity!.props.values()], added), ...formulaNeeds(entity!)];
    return { ...change, key, needs: [...new Set(needs)].filter((k) => k !== key) };
  });
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
    for (const need of part.needs) neededBy.set(need, [...(neededBy.get(need) ?? []), part.key]);
  }
  if (last && !last.taken) {
    // Unticked: whatever needs it, directly or not, is left out too.
    const out = [last.key];
    while (out.length > 0) {
      const key = out.pop()!;
      if (!taken.delete(key) && key !== last.key) continue;
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
      const before = list.ids
        .slice(0, i)
        .reverse()
        .find((other) => siblings.includes(other));
      siblings.splice(before === undefined ? 0 : siblings.indexOf(before) + 1, 0, id);
    });
  }
  return { entities: new Map(order.map((key) => [key, picked.get(key)!])), order, lists };
}
