import { type EntityKind, isChildKind, PARENT_KEY, PARENT_KIND, THEME_TOKENS } from './changes';
import type { AppDefinition } from '../schema/definition';
import { DefinitionError } from '../schema/edit-rules';
import { copyJson as copy, withoutInvalid } from '../document/known-definition';
import { LIMIT_OF, type MergeConflict, normalize, type PlacedEntity } from './merge';
import type { ReadDefinition } from '../document/reader';

/*
 * Taking the original's value for one conflict a merge listed (merge.ts): the remix's creator
 * chooses it after a pull, on the result or on the remix as edited since.
 */

type Item = { id: string } & Record<string, unknown>;

function topLists(definition: AppDefinition): Partial<Record<EntityKind, Item[]>> {
  return {
    screen: definition.screens as unknown as Item[],
    collection: definition.collections as unknown as Item[],
    action: definition.actions as unknown as Item[],
    aiAction: definition.aiActions as unknown as Item[],
    reminder: definition.reminders as unknown as Item[],
  };
}

const CHILD_ARRAY: Partial<Record<EntityKind, string>> = {
  component: 'components',
  field: 'fields',
  record: 'records',
  step: 'steps',
};

/** The array an entity of this kind sits in under this parent, if that parent exists. */
function siblingsOf(
  definition: AppDefinition,
  kind: EntityKind,
  parentId: string | null,
): Item[] | undefined {
  if (!isChildKind(kind)) return topLists(definition)[kind];
  const parent = topLists(definition)[PARENT_KIND[kind]]!.find((p) => p.id === parentId);
  return parent?.[CHILD_ARRAY[kind]!] as Item[] | undefined;
}

function locate(definition: AppDefinition, kind: EntityKind, id: string) {
  const parents = isChildKind(kind)
    ? topLists(definition)[PARENT_KIND[kind]]!.map((p) => p.id)
    : [null];
  for (const parent of parents) {
    const siblings = siblingsOf(definition, kind, parent) ?? [];
    const index = siblings.findIndex((item) => item.id === id);
    if (index >= 0) return { siblings, index, item: siblings[index]! };
  }
  return undefined;
}

function roomFor(kind: EntityKind, siblings: Item[]) {
  const limit = LIMIT_OF[kind]!;
  if (siblings.length >= limit) {
    throw new DefinitionError(`There is no room for it: at most ${limit} fit there.`);
  }
}

function insertAfter(siblings: Item[], afterId: string | null, item: Item) {
  const at = afterId === null ? 0 : siblings.findIndex((s) => s.id === afterId) + 1;
  siblings.splice(at, 0, item);
}

/** Leaves out children whose ids the definition already uses elsewhere. */
function withoutTaken(definition: AppDefinition, kind: EntityKind, value: Item): Item {
  const out: Item = { ...value };
  for (const [childKind, array] of Object.entries(CHILD_ARRAY) as Array<[EntityKind, string]>) {
    if (!isChildKind(childKind) || PARENT_KIND[childKind] !== kind || !Array.isArray(out[array])) {
      continue;
    }
    out[array] = (out[array] as Item[]).filter((c) => !locate(definition, childKind, c.id));
  }
  return out;
}

function restore(definition: AppDefinition, kind: EntityKind, entity: PlacedEntity) {
  const value = copy(entity.value) as Item;
  if (locate(definition, kind, value.id)) return;
  let siblings = siblingsOf(definition, kind, entity.parentId);
  if (!siblings && entity.parent && isChildKind(kind)) {
    restore(definition, PARENT_KIND[kind], entity.parent);
    siblings = siblingsOf(definition, kind, entity.parentId);
  }
  if (!siblings) throw new DefinitionError('What it belonged to no longer exists.');
  roomFor(kind, siblings);
  insertAfter(siblings, entity.afterId, withoutTaken(definition, kind, value));
}

function remove(definition: AppDefinition, kind: EntityKind, id: string) {
  const found = locate(definition, kind, id);
  if (!found) return;
  if (kind === 'screen' && definition.screens.length === 1) {
    throw new DefinitionError('An app needs at least one screen.');
  }
  found.siblings.splice(found.index, 1);
}

function setPath(item: Record<string, unknown>, path: string, value: unknown) {
  const dot = path.indexOf('.');
  const nest = dot > 0 ? path.slice(0, dot) : '';
  const target =
    nest === 'props' || nest === 'values' || nest === 'schedule'
      ? (item[nest] as Record<string, unknown>)
      : item;
  const key = target === item ? path : path.slice(dot + 1);
  if (value === undefined) delete target[key];
  else target[key] = copy(value);
}

function setThemeValue(theme: Record<string, unknown>, key: string, value: unknown) {
  if ((THEME_TOKENS as readonly string[]).includes(key)) {
    setPath(theme.custom as Record<string, unknown>, key, value);
  } else setPath(theme, key, value);
}

function applyTheirs(definition: AppDefinition, conflict: MergeConflict) {
  const { entity: kind, id, property, theirs } = conflict;
  if (kind === 'app') return setPath(definition.meta, property, theirs);
  if (kind === 'theme') return setThemeValue(definition.theme, property, theirs);
  if (property === 'exists') {
    if (theirs === undefined) return remove(definition, kind, id);
    return restore(definition, kind, theirs as PlacedEntity);
  }
  const found = locate(definition, kind, id);
  if (!found) throw new DefinitionError('This no longer exists.');
  if (property === 'order') {
    found.siblings.splice(found.index, 1);
    return insertAfter(found.siblings, theirs as string | null, found.item);
  }
  if (isChildKind(kind) && property === PARENT_KEY[kind]) {
    const target = siblingsOf(definition, kind, theirs as string);
    if (!target) throw new DefinitionError('Where the original put it no longer exists.');
    roomFor(kind, target);
    found.siblings.splice(found.index, 1);
    return target.push(found.item);
  }
  setPath(found.item, property, theirs);
}

/**
 * The definition with the original's value taken for one conflict (a merge's result, or the
 * remix as edited since): still valid, references repaired as the reader repairs them. Throws a
 * DefinitionError when that value cannot be taken (no room under a limit, its parent gone).
 */
export function chooseTheirs(
  current: ReadDefinition | AppDefinition,
  conflict: MergeConflict,
): AppDefinition {
  const definition = copy(withoutInvalid(current));
  applyTheirs(definition, conflict);
  return normalize(definition);
}
