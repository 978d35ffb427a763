import {
  CHANGE_GROUPS,
  changedPaths,
  classify,
  deepEqual,
  type DefinitionChanges,
  describeChanges,
  type EntityChange,
  type EntityKind,
  entityKey,
  entityName,
  entityWhere,
  type FlatDefinition,
  type FlatEntity,
  flattenDefinition,
  GROUP_OF,
  isChildKind,
  listKey,
  movedEntities,
  PARENT_KEY,
  PARENT_KIND,
  parentKeyOf,
  propertyLabel,
  type RawChange,
  rawChanges,
  THEME_TOKENS,
} from './changes';
import { type AppDefinition, appDefinitionSchema } from '../schema/definition';
import { plainDocument } from '../document/write-definition';
import { copyJson as copy, withoutInvalid } from '../document/known-definition';
import { LIMITS, SCHEMA_VERSION } from '../schema/limits';
import {
  isFieldListKey,
  type ReadDefinition,
  readDefinition,
  type ReferenceTable,
  referenceTable,
} from '../document/reader';
import { closeParts, flatParts, onlyTaken } from './parts';

/*
 * Three-way merge for a remix pulling its original's update: BASE is the published version the
 * remix was copied from, THEIRS the original's newer version, OURS the remix as its creator edited
 * it. Each entity and each of its properties merges on its own; where both sides changed the same
 * thing differently the remix keeps its own value and the difference is listed as a conflict, so
 * its creator can take the original's value with `chooseTheirs`.
 */

export interface MergeConflict {
  entity: EntityChange['entity'];
  id: string;
  name: string;
  where: string | null;
  /**
   * The property within the entity: 'title', 'props.text', 'values.f1', a theme token such as
   * 'primary', the parent id ('screenId', …), 'order' for its place among its siblings, or
   * 'exists' when one side deleted it (or it did not fit a limit).
   */
  property: string;
  /** The property in words. */
  label: string;
  /**
   * The remix's value, which the result keeps (undefined when the remix deleted the entity). For
   * 'exists' a PlacedEntity; for 'order' the id of the sibling it follows (null: first).
   */
  ours: unknown;
  /** The original's value, which the result did not take (undefined when the original deleted it). */
  theirs: unknown;
}

/** An entity as one side has it, and where: what an 'exists' conflict holds to bring it back. */
export interface PlacedEntity {
  /** As the definition holds it (a screen with its components, …). */
  value: unknown;
  parentId: string | null;
  /** The sibling it follows; null when it is first. */
  afterId: string | null;
  /** Its parent without children, to bring back with it when the parent is gone too. */
  parent: PlacedEntity | null;
}

export interface MergeResult {
  definition: AppDefinition;
  conflicts: MergeConflict[];
  /** The original's changes since base that the result took. */
  incoming: DefinitionChanges;
}

const TOP_KINDS: readonly EntityKind[] = ['screen', 'collection', 'action', 'aiAction', 'reminder'];

export const LIMIT_OF: Partial<Record<EntityKind, number>> = {
  screen: LIMITS.screens,
  component: LIMITS.componentsPerScreen,
  collection: LIMITS.collections,
  field: LIMITS.fieldsPerCollection,
  record: LIMITS.creatorRecords,
  action: LIMITS.actions,
  step: LIMITS.stepsPerAction,
  aiAction: LIMITS.aiActions,
  reminder: LIMITS.reminders,
};

const TABLE_KIND: Record<ReferenceTable, EntityKind> = {
  screens: 'screen',
  collections: 'collection',
  fields: 'field',
  actions: 'action',
  aiActions: 'aiAction',
};

// --- Each side's changes since base ---------------------------------------------------------

interface SideView {
  flat: FlatDefinition;
  /** Entity key → the paths this side changed since base (every path of an entity it added). */
  changed: Map<string, string[]>;
  /** Entities it moved to another parent or reordered. */
  moved: Set<string>;
  /**
   * Entities it worked on: edited, added or edited a child of, or newly pointed a reference at.
   * Such an entity survives the other side deleting it when this side is the remix, and its
   * deletion by the remix is a conflict when this side is the original.
   */
  touched: Set<string>;
}

function fieldRefs(ids: unknown[]): string[] {
  return ids
    .filter((id): id is string => typeof id === 'string')
    .map((id) => entityKey('field', id));
}

/** What one component or step property points at, by the rule the reader repairs by. */
function propReferences(key: string, value: unknown): string[] {
  const table = referenceTable(key);
  if (table && typeof value === 'string') return [entityKey(TABLE_KIND[table], value)];
  if (!value || typeof value !== 'object') return [];
  if (isFieldListKey(key) && Array.isArray(value)) return fieldRefs(value);
  if (key === 'filter' || key === 'sort')
    return fieldRefs([(value as { fieldId?: unknown }).fieldId]);
  if (key === 'values') return fieldRefs(Object.keys(value));
  return [];
}

/** The entities a property of an entity points at. */
function referencesAt(entity: FlatEntity, path: string): string[] {
  const value = entity.props.get(path);
  if (entity.kind === 'record') {
    return path.startsWith('values.') ? [entityKey('field', path.slice('values.'.length))] : [];
  }
  if (entity.kind === 'aiAction' && value && typeof value === 'object') {
    const { collectionId, fieldId } = value as { collectionId?: unknown; fieldId?: unknown };
    return [
      ...(typeof collectionId === 'string' ? [entityKey('collection', collectionId)] : []),
      ...fieldRefs([fieldId]),
    ];
  }
  if (entity.kind === 'reminder') {
    if (typeof value !== 'string') return [];
    if (path === 'schedule.collectionId') return [entityKey('collection', value)];
    if (path === 'schedule.fieldId') return [entityKey('field', value)];
    return [];
  }
  return path.startsWith('props.') ? propReferences(path.slice('props.'.length), value) : [];
}

function touchedEntities(flat: FlatDefinition, changed: Map<string, string[]>): Set<string> {
  const touched = new Set<string>();
  const touch = (key: string) => {
    touched.add(key);
    const entity = flat.entities.get(key);
    const parent = entity ? parentKeyOf(entity) : null;
    if (parent) touched.add(parent);
  };
  for (const [key, paths] of changed) {
    touch(key);
    const entity = flat.entities.get(key)!;
    for (const path of paths) referencesAt(entity, path).forEach(touch);
  }
  return touched;
}

function sideView(base: FlatDefinition, flat: FlatDefinition): SideView {
  const changed = new Map<string, string[]>();
  for (const [key, entity] of flat.entities) {
    const before = base.entities.get(key);
    const paths = before ? changedPaths(before.props, entity.props) : [...entity.props.keys()];
    if (paths.length > 0) changed.set(key, paths);
  }
  return {
    flat,
    changed,
    moved: movedEntities(base, flat),
    touched: touchedEntities(flat, changed),
  };
}

// --- The merge itself -----------------------------------------------------------------------

interface Merged {
  kind: EntityKind;
  id: string;
  props: Map<string, unknown>;
}

interface Merge {
  base: FlatDefinition;
  ours: SideView;
  theirs: SideView;
  /** What the result holds, by entity key. */
  result: Map<string, Merged>;
  conflicts: Array<{ key: string; conflict: MergeConflict }>;
  /** Entities the result places where the original moved them. */
  takenMoves: Set<string>;
}

function addConflict(m: Merge, key: string, property: string, ours: unknown, theirs: unknown) {
  const flat = [m.ours.flat, m.theirs.flat, m.base].find((f) => f.entities.has(key))!;
  const entity = flat.entities.get(key)!;
  m.conflicts.push({
    key,
    conflict: {
      entity: entity.kind,
      id: entity.id,
      name: entityName(flat, entity),
      where: entityWhere(flat, entity),
      property,
      label: propertyLabel(flat, entity, property),
      ours: copy(ours),
      theirs: copy(theirs),
    },
  });
}

function bare(kind: EntityKind, value: unknown): unknown {
  const item = value as Record<string, unknown>;
  if (kind === 'screen') return { ...item, components: [] };
  if (kind === 'collection') return { ...item, fields: [], records: [] };
  if (kind === 'action') return { ...item, steps: [] };
  return item;
}

function placed(flat: FlatDefinition, key: string, withChildren = true): PlacedEntity {
  const entity = flat.entities.get(key)!;
  const siblings = flat.lists.get(listKey(entity.kind, entity.parent))?.ids ?? [];
  const at = siblings.indexOf(entity.id);
  const parent = parentKeyOf(entity);
  return {
    value: copy(withChildren ? entity.value : bare(entity.kind, entity.value)),
    parentId: entity.parent,
    afterId: at > 0 ? siblings[at - 1]! : null,
    parent: parent && flat.entities.has(parent) ? placed(flat, parent, false) : null,
  };
}

function keptByOurs(m: Merge, key: string) {
  addConflict(m, key, 'exists', placed(m.ours.flat, key), undefined);
}

function droppedFromTheirs(m: Merge, key: string) {
  addConflict(m, key, 'exists', undefined, placed(m.theirs.flat, key));
}

function setProp(props: Map<string, unknown>, path: string, value: unknown) {
  if (value === undefined) props.delete(path);
  else props.set(path, value);
}

/** One entity's properties: each changed on one side takes that side's value; both: ours. */
function mergeEntity(m: Merge, key: string): Merged {
  const ours = m.ours.flat.entities.get(key);
  const theirs = m.theirs.flat.entities.get(key);
  const one = (ours ?? theirs)!;
  const props = new Map(one.props);
  const theirsPaths = m.theirs.changed.get(key);
  if (ours && theirs && theirsPaths) {
    const base = m.base.entities.get(key);
    const whole = one.kind === 'reminder' && scheduleKindChanged(base, ours, theirs);
    if (whole) mergeSchedule(m, key, props, base, ours, theirs);
    for (const path of theirsPaths) {
      if (whole && path.startsWith(SCHEDULE)) continue;
      const mine = ours.props.get(path);
      const other = theirs.props.get(path);
      if (deepEqual(mine, other)) continue;
      if (deepEqual(mine, base?.props.get(path))) setProp(props, path, other);
      else addConflict(m, key, path, mine, other);
    }
  }
  return { kind: one.kind, id: one.id, props };
}

const SCHEDULE = 'schedule.';

const scheduleOf = (entity: FlatEntity | undefined): unknown =>
  (entity?.value as { schedule?: unknown } | undefined)?.schedule;

function scheduleKindChanged(base: FlatEntity | undefined, ours: FlatEntity, theirs: FlatEntity) {
  const kind = ours.props.get(`${SCHEDULE}kind`);
  return (
    kind !== theirs.props.get(`${SCHEDULE}kind`) || kind !== base?.props.get(`${SCHEDULE}kind`)
  );
}

/**
 * A reminder's schedule when a side changed its kind: one value, not part by part, since the
 * parts of two kinds mixed make no schedule (a record's time without its field). Changed on one
 * side, that side's; on both, ours, and a conflict on the whole schedule.
 */
function mergeSchedule(
  m: Merge,
  key: string,
  props: Map<string, unknown>,
  base: FlatEntity | undefined,
  ours: FlatEntity,
  theirs: FlatEntity,
) {
  const mine = scheduleOf(ours);
  const other = scheduleOf(theirs);
  if (deepEqual(mine, other) || !deepEqual(mine, scheduleOf(base))) {
    if (!deepEqual(mine, other) && !deepEqual(other, scheduleOf(base))) {
      addConflict(m, key, 'schedule', mine, other);
    }
    return;
  }
  for (const path of [...props.keys()]) if (path.startsWith(SCHEDULE)) props.delete(path);
  for (const [path, value] of theirs.props) if (path.startsWith(SCHEDULE)) props.set(path, value);
}

function keep(m: Merge, key: string) {
  m.result.set(key, mergeEntity(m, key));
}

/**
 * A child the original deleted along with its parent, where the result keeps that parent (the
 * remix worked on it) and the remix still has the child in it: it stays with the parent, whose
 * conflict covers it. One the remix moved elsewhere needs a conflict of its own.
 */
function keptWithParent(m: Merge, key: string): boolean {
  const base = m.base.entities.get(key);
  const parent = base ? parentKeyOf(base) : null;
  return (
    parent !== null &&
    m.ours.flat.entities.get(key)?.parent === base!.parent &&
    !m.theirs.flat.entities.has(parent) &&
    m.result.has(parent)
  );
}

/**
 * Whether an entity is in the result. Added on either side: yes. Deleted by the original: only if
 * the remix worked on it (a conflict) or it sits in a parent kept that way. Deleted by the remix:
 * no, and a conflict when the original worked on it.
 */
function decide(m: Merge, key: string): void {
  const inBase = m.base.entities.has(key);
  const inOurs = m.ours.flat.entities.has(key);
  const inTheirs = m.theirs.flat.entities.has(key);
  if (inOurs && (inTheirs || !inBase || keptWithParent(m, key))) return keep(m, key);
  if (inOurs) {
    // The original deleted it: it stays only if the remix worked on it.
    if (!m.ours.touched.has(key)) return;
    keep(m, key);
    return keptByOurs(m, key);
  }
  if (!inTheirs) return;
  if (!inBase) return keep(m, key);
  // The remix deleted it: it stays deleted, a conflict when the original worked on it.
  if (m.theirs.touched.has(key)) droppedFromTheirs(m, key);
}

/** An app needs a screen: when both sides' deletions left none, the remix's first one stays. */
function keepOneScreen(m: Merge) {
  for (const merged of m.result.values()) if (merged.kind === 'screen') return;
  const first = m.ours.flat.lists.get(listKey('screen', null))?.ids[0];
  if (first === undefined) return;
  keep(m, entityKey('screen', first));
  keptByOurs(m, entityKey('screen', first));
}

/**
 * Past a limit, the original's additions (or moves into this parent) beyond it are what gives
 * way, in the original's order: the remix's own entities fit, as the remix is valid.
 */
function overflow(m: Merge, kind: EntityKind, parent: string | null, keys: Set<string>): string[] {
  const limit = LIMIT_OF[kind]!;
  if (keys.size <= limit) return [];
  const fromOurs = (key: string) => m.ours.flat.entities.get(key)?.parent === parent;
  const theirsOrder = m.theirs.flat.lists.get(listKey(kind, parent))?.ids ?? [];
  const others = [...new Set([...theirsOrder.map((id) => entityKey(kind, id)), ...keys])].filter(
    (key) => keys.has(key) && !fromOurs(key),
  );
  const room = limit - (keys.size - others.length);
  return others.slice(Math.max(0, room));
}

function keysOfKind(m: Merge, kind: EntityKind): Set<string> {
  const keys = new Set<string>();
  for (const [key, merged] of m.result) if (merged.kind === kind) keys.add(key);
  return keys;
}

function limitTopLevel(m: Merge) {
  for (const kind of TOP_KINDS) {
    for (const key of overflow(m, kind, null, keysOfKind(m, kind))) {
      m.result.delete(key);
      droppedFromTheirs(m, key);
    }
  }
}

function parentOf(merged: Merged): string | null {
  return isChildKind(merged.kind) ? (merged.props.get(PARENT_KEY[merged.kind]) as string) : null;
}

/**
 * A child whose merged parent is not in the result: back to the remix's parent when the original
 * moved it there, else gone (a conflict when it carried the original's work, unless its parent
 * was the original's own addition that did not fit, whose conflict covers it).
 */
function settleParent(m: Merge, key: string) {
  const merged = m.result.get(key)!;
  if (!isChildKind(merged.kind)) return;
  const parentKind = PARENT_KIND[merged.kind];
  const parent = parentOf(merged)!;
  if (m.result.has(entityKey(parentKind, parent))) return;
  const ours = m.ours.flat.entities.get(key);
  if (ours?.parent && ours.parent !== parent && m.result.has(entityKey(parentKind, ours.parent))) {
    merged.props.set(PARENT_KEY[merged.kind], ours.parent);
    return addConflict(m, key, PARENT_KEY[merged.kind], ours.parent, parent);
  }
  m.result.delete(key);
  if (m.theirs.changed.has(key) && m.base.entities.has(entityKey(parentKind, parent))) {
    droppedFromTheirs(m, key);
  }
}

interface Group {
  kind: EntityKind;
  parent: string | null;
  keys: Set<string>;
}

function childGroups(m: Merge): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const [key, merged] of m.result) {
    if (!isChildKind(merged.kind)) continue;
    const parent = parentOf(merged);
    const group = groups.get(listKey(merged.kind, parent));
    if (group) group.keys.add(key);
    else
      groups.set(listKey(merged.kind, parent), { kind: merged.kind, parent, keys: new Set([key]) });
  }
  return groups;
}

/**
 * Children past a limit: the original's additions give way; what the original moved in goes back
 * where the remix has it, which may in turn push that parent's own additions out.
 */
function limitChildren(m: Merge) {
  const groups = childGroups(m);
  const queue = [...groups.keys()];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const group = groups.get(next)!;
    for (const key of overflow(m, group.kind, group.parent, group.keys)) {
      group.keys.delete(key);
      const merged = m.result.get(key)!;
      const ours = m.ours.flat.entities.get(key);
      const home = ours?.parent && isChildKind(merged.kind) ? parentKeyOf(ours) : null;
      if (!ours?.parent || !isChildKind(merged.kind) || !home || !m.result.has(home)) {
        m.result.delete(key);
        droppedFromTheirs(m, key);
        continue;
      }
      const path = PARENT_KEY[merged.kind];
      addConflict(m, key, path, ours.parent, merged.props.get(path));
      merged.props.set(path, ours.parent);
      const list = listKey(merged.kind, ours.parent);
      if (!groups.has(list))
        groups.set(list, { kind: merged.kind, parent: ours.parent, keys: new Set() });
      groups.get(list)!.keys.add(key);
      queue.push(list);
    }
  }
}

/** A list to insert into after a given item, in O(1). */
function sequence(ids: string[]) {
  const next = new Map<string | null, string | null>();
  let last: string | null = null;
  for (const id of ids) {
    next.set(last, id);
    last = id;
  }
  next.set(last, null);
  return {
    has: (id: string) => next.has(id),
    insertAfter(anchor: string | null, id: string) {
      next.set(id, next.get(anchor) ?? null);
      next.set(anchor, id);
    },
    items(): string[] {
      const out: string[] = [];
      for (let id = next.get(null) ?? null; id !== null; id = next.get(id) ?? null) out.push(id);
      return out;
    },
  };
}

/** When both sides moved an item among the same siblings, ours stays; a conflict if they differ. */
function bothMoved(m: Merge, key: string, id: string, ours: string[], theirs: string[]) {
  const before = (ids: string[]) => ids[ids.indexOf(id) - 1] ?? null;
  if (before(ours) === before(theirs)) m.takenMoves.add(key);
  else addConflict(m, key, 'order', before(ours), before(theirs));
}

/**
 * One parent's children in order: the remix's order, with the original's additions and the
 * moves only the original made placed after their nearest preceding sibling in the original's
 * order that the result has (else first).
 */
function orderGroup(m: Merge, group: Group): string[] {
  const key = listKey(group.kind, group.parent);
  const ours = m.ours.flat.lists.get(key)?.ids ?? [];
  const theirs = m.theirs.flat.lists.get(key)?.ids ?? [];
  const members = new Set([...group.keys].map((k) => m.result.get(k)!.id));
  const inOurs = new Set(ours);
  const inTheirs = new Set(theirs);
  const toPlace = new Set<string>();
  for (const id of members) {
    const entity = entityKey(group.kind, id);
    if (!inOurs.has(id)) toPlace.add(id);
    else if (inTheirs.has(id) && m.theirs.moved.has(entity)) {
      if (!m.ours.moved.has(entity)) toPlace.add(id);
      else bothMoved(m, entity, id, ours, theirs);
    }
  }
  const list = sequence(ours.filter((id) => members.has(id) && !toPlace.has(id)));
  let anchor: string | null = null;
  for (const id of theirs) {
    if (toPlace.has(id)) {
      list.insertAfter(anchor, id);
      toPlace.delete(id);
      if (m.theirs.moved.has(entityKey(group.kind, id)))
        m.takenMoves.add(entityKey(group.kind, id));
    }
    if (list.has(id)) anchor = id;
  }
  return [...list.items(), ...toPlace];
}

function orderAll(m: Merge): Map<string, string[]> {
  const groups = childGroups(m);
  for (const kind of TOP_KINDS) {
    groups.set(listKey(kind, null), { kind, parent: null, keys: keysOfKind(m, kind) });
  }
  const lists = new Map<string, string[]>();
  for (const [key, group] of groups) lists.set(key, orderGroup(m, group));
  return lists;
}

// --- Back to a definition -------------------------------------------------------------------

/** An entity's properties as the definition holds them (its parent id left out). */
function plain(merged: Merged): Record<string, unknown> {
  const out: Record<string, unknown> = { id: merged.id };
  if (merged.kind === 'component' || merged.kind === 'step') out.props = {};
  if (merged.kind === 'record') out.values = {};
  const parentKey = isChildKind(merged.kind) ? PARENT_KEY[merged.kind] : null;
  for (const [path, value] of merged.props) {
    if (value === undefined || path === parentKey) continue;
    const dot = path.indexOf('.');
    const nest = dot > 0 ? path.slice(0, dot) : '';
    if (nest === 'props' || nest === 'values' || nest === 'schedule') {
      out[nest] ??= {};
      (out[nest] as Record<string, unknown>)[path.slice(dot + 1)] = value;
    } else out[path] = value;
  }
  return out;
}

function themeOf(merged: Merged): Record<string, unknown> {
  const { id: _id, ...theme } = plain(merged);
  const custom: Record<string, unknown> = {};
  for (const token of THEME_TOKENS) {
    if (theme[token] !== undefined) custom[token] = theme[token];
    delete theme[token];
  }
  return { ...theme, custom };
}

function assemble(m: Pick<Merge, 'result'>, lists: Map<string, string[]>): AppDefinition {
  const children = (kind: EntityKind, parent: string | null) =>
    (lists.get(listKey(kind, parent)) ?? []).map((id) => m.result.get(entityKey(kind, id))!);
  const { id: _id, ...meta } = plain(m.result.get(entityKey('app', 'app'))!);
  return {
    schemaVersion: SCHEMA_VERSION,
    meta,
    theme: themeOf(m.result.get(entityKey('theme', 'theme'))!),
    screens: children('screen', null).map((s) => ({
      ...plain(s),
      components: children('component', s.id).map(plain),
    })),
    collections: children('collection', null).map((c) => ({
      ...plain(c),
      fields: children('field', c.id).map(plain),
      records: children('record', c.id).map(plain),
    })),
    actions: children('action', null).map((a) => ({
      ...plain(a),
      steps: children('step', a.id).map(plain),
    })),
    aiActions: children('aiAction', null).map(plain),
    reminders: children('reminder', null).map(plain),
  } as unknown as AppDefinition;
}

/**
 * Read as the reader reads a document (`plainDocument`: the same layout, without a Yjs document),
 * so references into what the merge left out are repaired exactly as every device repairs them,
 * then checked against the schema.
 */
export function normalize(definition: AppDefinition): AppDefinition {
  const parsed = appDefinitionSchema.safeParse(readDefinition(plainDocument(definition)));
  if (!parsed.success) {
    throw new Error(`The merged definition is not valid: ${parsed.error.message}`);
  }
  return parsed.data;
}

/** Of the original's changes since base, the part the result holds. */
function arrivedPart(m: Merge, result: FlatDefinition, change: RawChange): RawChange[] {
  const now = result.entities.get(change.key);
  if (change.change === 'removed') return now ? [] : [change];
  if (!now) return [];
  if (change.change === 'added') return [change];
  const theirs = m.theirs.flat.entities.get(change.key)!;
  const paths = change.paths.filter((p) => deepEqual(now.props.get(p), theirs.props.get(p)));
  const moved = change.moved && m.takenMoves.has(change.key);
  const kind = classify(theirs.kind, paths, moved);
  return kind ? [{ key: change.key, change: kind, paths, moved }] : [];
}

function incomingChanges(m: Merge, definition: AppDefinition): DefinitionChanges {
  const result = flattenDefinition(definition);
  const raw = rawChanges(m.base, m.theirs.flat).flatMap((c) => arrivedPart(m, result, c));
  return describeChanges(raw, m.base, m.theirs.flat);
}

/**
 * Conflicts on what the result still holds, grouped like changes. A record's value for a field
 * the result does not have is moot: the field's own conflict says why.
 */
function finalConflicts(m: Merge): MergeConflict[] {
  const group = (kind: EntityKind) => CHANGE_GROUPS.indexOf(GROUP_OF[kind]);
  return m.conflicts
    .filter(({ key, conflict }) => conflict.property === 'exists' || m.result.has(key))
    .filter(
      ({ conflict }) =>
        !conflict.property.startsWith('values.') ||
        conflict.entity !== 'record' ||
        m.result.has(entityKey('field', conflict.property.slice('values.'.length))),
    )
    .map(({ conflict }) => conflict)
    .sort((a, b) => group(a.entity) - group(b.entity));
}

/** Every entity key of either side, in reading order (ours first), without app and theme. */
function entityKeys(m: Merge): { top: string[]; children: string[] } {
  const keys = new Set([...m.ours.flat.order, ...m.theirs.flat.order]);
  const top: string[] = [];
  const children: string[] = [];
  for (const key of keys) {
    const kind = (m.ours.flat.entities.get(key) ?? m.theirs.flat.entities.get(key))!.kind;
    if (kind === 'app' || kind === 'theme') continue;
    (isChildKind(kind) ? children : top).push(key);
  }
  return { top, children };
}

export interface MergeOptions {
  /**
   * Only these of theirs' changes, by entity key (`changeParts`' keys), with what they need
   * (`closeParts`): every other entity merges as `base` has it. All of them when not given.
   */
  taken?: ReadonlySet<string>;
}

/**
 * Merges the original's changes since `base` (`theirs`) into the remix (`ours`). The result is
 * always a valid definition; everything both sides changed differently keeps the remix's value
 * and is listed as a conflict. The remix's invalid components are left out (its document keeps
 * them). The inputs are not changed.
 */
export function mergeDefinitions(
  base: AppDefinition,
  theirs: AppDefinition,
  ours: ReadDefinition | AppDefinition,
  options: MergeOptions = {},
): MergeResult {
  const flatBase = flattenDefinition(base);
  if (options.taken) {
    // The proposal as far as it was taken, as a definition: what the taken parts do to the rest
    // (a record's value of a removed field) is then part of it, as it is of every device's copy.
    // Closed first: a part is never taken without what it needs.
    const flatTheirs = flattenDefinition(theirs);
    const closed = closeParts(flatParts(flatBase, flatTheirs), options.taken);
    const taken = onlyTaken(flatBase, flatTheirs, closed);
    const lists = new Map([...taken.lists].map(([key, list]) => [key, list.ids]));
    const proposal = normalize(assemble({ result: taken.entities }, lists));
    return mergeFlat(flatBase, flattenDefinition(proposal), ours);
  }
  return mergeFlat(flatBase, flattenDefinition(theirs), ours);
}

/** The merge of definitions already flattened (base and theirs; ours is read as given). */
function mergeFlat(
  flatBase: FlatDefinition,
  flatTheirs: FlatDefinition,
  ours: ReadDefinition | AppDefinition,
): MergeResult {
  const m: Merge = {
    base: flatBase,
    ours: sideView(flatBase, flattenDefinition(withoutInvalid(ours))),
    theirs: sideView(flatBase, flatTheirs),
    result: new Map(),
    conflicts: [],
    takenMoves: new Set(),
  };
  keep(m, entityKey('app', 'app'));
  keep(m, entityKey('theme', 'theme'));
  const { top, children } = entityKeys(m);
  for (const key of top) decide(m, key);
  keepOneScreen(m);
  limitTopLevel(m);
  for (const key of children) {
    decide(m, key);
    if (m.result.has(key)) settleParent(m, key);
  }
  limitChildren(m);
  const definition = normalize(assemble(m, orderAll(m)));
  return { definition, conflicts: finalConflicts(m), incoming: incomingChanges(m, definition) };
}
