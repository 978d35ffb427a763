import type { AppDefinition } from '../schema/definition';
import type { ReadDefinition } from '../document/reader';
import { themeTokensSchema } from '../schema/theme';

/*
 * What changed between two definitions, entity by entity. Both the version history (this module)
 * and the three-way merge of a remix (merge.ts) work on the same flattening of a definition: every
 * entity by kind and id, with its properties by path and its place among its siblings.
 */

export type ChangeGroup =
  'app' | 'theme' | 'screens' | 'components' | 'collections' | 'actions' | 'reminders';

export interface EntityChange {
  /** Fields and records count under 'collections'; steps and AI actions under 'actions'. */
  group: ChangeGroup;
  entity:
    | 'app'
    | 'theme'
    | 'screen'
    | 'component'
    | 'collection'
    | 'field'
    | 'record'
    | 'action'
    | 'step'
    | 'aiAction'
    | 'reminder';
  /** The entity's id ('app' and 'theme' for those two). */
  id: string;
  /** A name a person recognises: a screen's title, `Heading “Welcome”`, a field's name, … */
  name: string;
  /** The parent's name (a component's screen, a field's collection); null at the top level. */
  where: string | null;
  change: 'added' | 'removed' | 'changed' | 'moved';
  /** For 'changed': which properties, in words ('title', 'text', 'primary colour'); else []. */
  properties: string[];
}

export interface DefinitionChanges {
  changes: EntityChange[];
  counts: Record<ChangeGroup, number>;
}

export type EntityKind = EntityChange['entity'];
type ChildKind = 'component' | 'field' | 'record' | 'step';

export const CHANGE_GROUPS: readonly ChangeGroup[] = [
  'app',
  'theme',
  'screens',
  'components',
  'collections',
  'actions',
  'reminders',
];

export const GROUP_OF: Record<EntityKind, ChangeGroup> = {
  app: 'app',
  theme: 'theme',
  screen: 'screens',
  component: 'components',
  collection: 'collections',
  field: 'collections',
  record: 'collections',
  action: 'actions',
  step: 'actions',
  aiAction: 'actions',
  reminder: 'reminders',
};

/** The property of a child that holds its parent's id: the same name the document uses. */
export const PARENT_KEY: Record<ChildKind, string> = {
  component: 'screenId',
  field: 'collectionId',
  record: 'collectionId',
  step: 'actionId',
};

export const PARENT_KIND: Record<ChildKind, EntityKind> = {
  component: 'screen',
  field: 'collection',
  record: 'collection',
  step: 'action',
};

export function isChildKind(kind: EntityKind): kind is ChildKind {
  return kind in PARENT_KEY;
}

/** The custom colours of a theme, each flattened as its own property named by its token. */
export const THEME_TOKENS = Object.keys(themeTokensSchema.shape) as Array<
  keyof typeof themeTokensSchema.shape
>;

// --- Flattening -----------------------------------------------------------------------------

export interface FlatEntity {
  kind: EntityKind;
  id: string;
  /** The id of the screen, collection or action it sits in; null for everything else. */
  parent: string | null;
  /**
   * Every property by path: 'title', 'props.text', 'values.f1', a theme token ('primary'), and for
   * a child its parent id under PARENT_KEY. A value that is missing reads as undefined.
   */
  props: Map<string, unknown>;
  /** The entity as the definition holds it (read, never changed). */
  value: unknown;
}

export interface FlatList {
  kind: EntityKind;
  ids: string[];
}

export interface FlatDefinition {
  /** By entityKey(kind, id). */
  entities: Map<string, FlatEntity>;
  /** Entity keys in reading order: app, theme, each screen then its components, … */
  order: string[];
  /** Siblings in order, by listKey(kind, parent). */
  lists: Map<string, FlatList>;
}

export const entityKey = (kind: EntityKind, id: string): string => `${kind}:${id}`;
export const listKey = (kind: EntityKind, parent: string | null): string =>
  `${kind}:${parent ?? ''}`;

/** The key of an entity's parent, or null for a top-level entity. */
export function parentKeyOf(entity: Pick<FlatEntity, 'kind' | 'parent'>): string | null {
  return isChildKind(entity.kind) && entity.parent !== null
    ? entityKey(PARENT_KIND[entity.kind], entity.parent)
    : null;
}

function prefixed(prefix: string, values: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(values).map(([key, value]) => [`${prefix}.${key}`, value]);
}

function themeProps(theme: ReadDefinition['theme']): Array<[string, unknown]> {
  const { custom, ...rest } = theme;
  const tokens = THEME_TOKENS.map((token): [string, unknown] => [token, custom[token]]);
  return [...Object.entries(rest), ...tokens];
}

export function flattenDefinition(definition: ReadDefinition | AppDefinition): FlatDefinition {
  const flat: FlatDefinition = { entities: new Map(), order: [], lists: new Map() };
  const add = (
    kind: EntityKind,
    id: string,
    parent: string | null,
    props: Array<[string, unknown]>,
    value: unknown,
  ) => {
    const key = entityKey(kind, id);
    flat.entities.set(key, { kind, id, parent, props: new Map(props), value });
    flat.order.push(key);
    if (kind === 'app' || kind === 'theme') return;
    const list = flat.lists.get(listKey(kind, parent));
    if (list) list.ids.push(id);
    else flat.lists.set(listKey(kind, parent), { kind, ids: [id] });
  };
  const { meta, theme } = definition;
  add('app', 'app', null, Object.entries(meta), meta);
  add('theme', 'theme', null, themeProps(theme), theme);
  for (const screen of definition.screens) {
    add(
      'screen',
      screen.id,
      null,
      [
        ['title', screen.title],
        ['icon', screen.icon],
      ],
      screen,
    );
    for (const c of screen.components) {
      const rest: Array<[string, unknown]> =
        c.type === 'invalid' ? [['originalType', c.originalType]] : prefixed('props', c.props);
      add('component', c.id, screen.id, [['type', c.type], ['screenId', screen.id], ...rest], c);
    }
  }
  for (const collection of definition.collections) {
    // A definition saved before collections could be shared has neither property: the defaults.
    const own: Array<[string, unknown]> = [
      ['name', collection.name],
      ['sharing', collection.sharing ?? 'private'],
      ['recordRule', collection.recordRule ?? 'anyone'],
    ];
    add('collection', collection.id, null, own, collection);
    for (const { id, ...field } of collection.fields) {
      const props: Array<[string, unknown]> = [['collectionId', collection.id]];
      add('field', id, collection.id, [...props, ...Object.entries(field)], { id, ...field });
    }
    for (const record of collection.records) {
      const props: Array<[string, unknown]> = [['collectionId', collection.id]];
      add(
        'record',
        record.id,
        collection.id,
        [...props, ...prefixed('values', record.values)],
        record,
      );
    }
  }
  for (const action of definition.actions) {
    add('action', action.id, null, [['name', action.name]], action);
    for (const step of action.steps) {
      const props: Array<[string, unknown]> = [
        ['type', step.type],
        ['actionId', action.id],
      ];
      add('step', step.id, action.id, [...props, ...prefixed('props', step.props)], step);
    }
  }
  for (const { id, ...ai } of definition.aiActions) {
    add('aiAction', id, null, Object.entries(ai), { id, ...ai });
  }
  // Older definitions have no reminders. A schedule's parts are flattened one by one, so a change
  // reads as "its time" rather than "its schedule"; the merge keeps a schedule whole (merge.ts).
  for (const { id, schedule, ...reminder } of definition.reminders ?? []) {
    const props: Array<[string, unknown]> = [
      ...Object.entries(reminder),
      ...prefixed('schedule', schedule),
    ];
    add('reminder', id, null, props, { id, ...reminder, schedule });
  }
  return flat;
}

/** Equality of JSON values (what definitions hold), without serialising them. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  const otherKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  return keys.length === otherKeys.length && keys.every((key) => deepEqual(left[key], right[key]));
}

/** The paths whose values differ: the after side's paths in order, then those only before had. */
export function changedPaths(before: Map<string, unknown>, after: Map<string, unknown>): string[] {
  const paths: string[] = [];
  for (const [path, value] of after) if (!deepEqual(before.get(path), value)) paths.push(path);
  for (const [path, value] of before) {
    if (!after.has(path) && value !== undefined) paths.push(path);
  }
  return paths;
}

/**
 * Indices of a longest strictly increasing subsequence (patience sorting, O(n log n)): the items
 * that kept their relative order, so only the others count as moved.
 */
function longestIncreasing(values: number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(values.length).fill(-1);
  values.forEach((value, i) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (values[tails[mid]!]! < value) low = mid + 1;
      else high = mid;
    }
    if (low > 0) previous[i] = tails[low - 1]!;
    tails[low] = i;
  });
  const kept = new Set<number>();
  for (let i = tails[tails.length - 1] ?? -1; i !== -1; i = previous[i]!) kept.add(i);
  return kept;
}

/** Of the items in both lists, the fewest that must have moved to turn `before` into `after`. */
export function reordered(before: readonly string[], after: readonly string[]): Set<string> {
  const position = new Map(before.map((id, i) => [id, i]));
  const common = after.filter((id) => position.has(id));
  const kept = longestIncreasing(common.map((id) => position.get(id)!));
  return new Set(common.filter((_, i) => !kept.has(i)));
}

/** Entity keys that moved: to another parent, or out of order among the same siblings. */
export function movedEntities(before: FlatDefinition, after: FlatDefinition): Set<string> {
  const moved = new Set<string>();
  for (const [key, list] of after.lists) {
    for (const id of reordered(before.lists.get(key)?.ids ?? [], list.ids)) {
      moved.add(entityKey(list.kind, id));
    }
  }
  for (const [key, entity] of after.entities) {
    const old = before.entities.get(key);
    if (old && old.parent !== entity.parent) moved.add(key);
  }
  return moved;
}

// --- Names and labels -----------------------------------------------------------------------

const COMPONENT_WORDS: Record<string, string> = {
  heading: 'Heading',
  text: 'Text',
  image: 'Image',
  button: 'Button',
  list: 'List',
  detail: 'Detail',
  form: 'Form',
  checklist: 'Checklist',
  counter: 'Counter',
  stat: 'Stat',
  chart: 'Chart',
  timer: 'Timer',
  divider: 'Divider',
  link: 'Link',
  ai: 'AI',
  invalid: 'Unknown component',
};

/** The property that best tells one component of a type from another. */
const COMPONENT_TEXT: Record<string, string> = {
  heading: 'text',
  text: 'markdown',
  image: 'alt',
  button: 'label',
  form: 'submitLabel',
  counter: 'label',
  stat: 'label',
  timer: 'label',
  link: 'label',
  ai: 'label',
};

const STEP_WORDS: Record<string, string> = {
  navigate: 'Go to a screen',
  back: 'Go back',
  createRecord: 'Create a record',
  updateRecord: 'Update the record',
  deleteRecord: 'Delete the record',
  setField: 'Set a field',
  openUrl: 'Open a link',
  toast: 'Show a message',
  runAi: 'Run AI',
};

function short(text: string, max = 40): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

function quoted(word: string, text: unknown): string {
  return typeof text === 'string' && text.trim() ? `${word} “${short(text)}”` : word;
}

function stringAt(flat: FlatDefinition, key: string, path: string): string | undefined {
  const value = flat.entities.get(key)?.props.get(path);
  return typeof value === 'string' ? value : undefined;
}

/**
 * A component known only by its type, as a sentence says it: "Added a timer", not "Added Timer",
 * nor "Added Timer “Timer”" when its label is still the type's default.
 */
const COMPONENT_ALONE: Record<string, string> = {
  heading: 'a heading',
  text: 'a text block',
  image: 'an image',
  button: 'a button',
  list: 'a list',
  detail: 'a detail view',
  form: 'a form',
  checklist: 'a checklist',
  counter: 'a counter',
  stat: 'a stat',
  chart: 'a chart',
  timer: 'a timer',
  divider: 'a divider',
  link: 'a link',
  ai: 'an AI button',
  invalid: 'an unknown component',
};

/** "a timer", "an image": a component of this type, as a sentence names one. */
export function componentAlone(type: string): string {
  return COMPONENT_ALONE[type] ?? COMPONENT_WORDS[type] ?? type;
}

function componentName(flat: FlatDefinition, entity: FlatEntity): string {
  const type = String(entity.props.get('type'));
  const word = COMPONENT_WORDS[type] ?? type;
  const alone = componentAlone(type);
  // Its own text names it, unless that text only repeats its type ("Timer", "Heading").
  const named = (text: unknown) =>
    typeof text === 'string' &&
    text.trim() !== '' &&
    text.trim().toLowerCase() !== word.toLowerCase();
  const text = COMPONENT_TEXT[type] && entity.props.get(`props.${COMPONENT_TEXT[type]}`);
  if (named(text)) return quoted(word, text);
  const collectionId = entity.props.get('props.collectionId');
  const collection =
    typeof collectionId === 'string'
      ? stringAt(flat, entityKey('collection', collectionId), 'name')
      : undefined;
  return named(collection) ? quoted(word, collection) : alone;
}

/** A record is known by its first text value, in its collection's field order. */
function recordName(flat: FlatDefinition, entity: FlatEntity): string {
  const fields = flat.lists.get(listKey('field', entity.parent))?.ids ?? [];
  for (const fieldId of fields) {
    const value = entity.props.get(`values.${fieldId}`);
    if (typeof value === 'string' && value.trim()) return `“${short(value)}”`;
  }
  return 'Record';
}

function stepName(flat: FlatDefinition, entity: FlatEntity): string {
  const type = String(entity.props.get('type'));
  const screenId = entity.props.get('props.screenId');
  if (type === 'navigate' && typeof screenId === 'string') {
    return quoted('Go to', stringAt(flat, entityKey('screen', screenId), 'title'));
  }
  if (type === 'toast') return quoted('Show', entity.props.get('props.message'));
  return STEP_WORDS[type] ?? type;
}

export function entityName(flat: FlatDefinition, entity: FlatEntity): string {
  switch (entity.kind) {
    case 'app':
      return String(entity.props.get('title') ?? 'App');
    case 'theme':
      return 'Theme';
    case 'screen':
      return String(entity.props.get('title'));
    case 'component':
      return componentName(flat, entity);
    case 'record':
      return recordName(flat, entity);
    case 'step':
      return stepName(flat, entity);
    case 'reminder':
      return quoted('Reminder', entity.props.get('title'));
    default:
      return String(entity.props.get('name'));
  }
}

/** The name of the entity's parent, or null at the top level. */
export function entityWhere(flat: FlatDefinition, entity: FlatEntity): string | null {
  const key = parentKeyOf(entity);
  const parent = key === null ? undefined : flat.entities.get(key);
  return parent ? entityName(flat, parent) : null;
}

const PROPERTY_WORDS: Record<string, string> = {
  markdown: 'text',
  src: 'image',
  alt: 'alt text',
  url: 'link',
  default: 'default value',
  options: 'choices',
  scale: 'stars',
  target: 'linked collection',
  many: 'links several records',
  through: 'relation it works out over',
  throughCollection: 'collection of its relation',
  aggregate: 'what it works out',
  aggregateFieldId: 'field it works out over',
  radius: 'corners',
  mode: 'light or dark',
  originalType: 'type',
  sharing: 'shared in a space',
  recordRule: 'who can change a record',
};

/** A reminder's schedule, part by part, in words. */
const SCHEDULE_WORDS: Record<string, string> = {
  kind: 'kind of schedule',
  days: 'days',
  time: 'time',
  minutes: 'minutes from the record’s time',
  collectionId: 'collection',
  fieldId: 'date field',
  formula: 'formula',
};

/** `titleFieldId` → 'title field', `fieldIds` → 'fields', `aiActionId` → 'AI action'. */
export function propertyWords(key: string): string {
  if (PROPERTY_WORDS[key]) return PROPERTY_WORDS[key];
  const stem = key.replace(/Ids$/, 's').replace(/Id$/, '');
  return stem
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\bai\b/g, 'AI');
}

/** A property's path in words, for a person: 'title', 'text', 'primary colour', a field's name. */
export function propertyLabel(flat: FlatDefinition, entity: FlatEntity, path: string): string {
  if (path === 'exists') return 'deleted or kept';
  if (path === 'order') return 'position';
  if (isChildKind(entity.kind) && path === PARENT_KEY[entity.kind]) {
    return PARENT_KIND[entity.kind];
  }
  if (entity.kind === 'theme' && (THEME_TOKENS as readonly string[]).includes(path)) {
    return `${path} colour`;
  }
  if (entity.kind === 'reminder') {
    if (path === 'body') return 'text';
    if (path.startsWith('schedule.')) {
      const part = path.slice('schedule.'.length);
      return SCHEDULE_WORDS[part] ?? propertyWords(part);
    }
  }
  if (entity.kind === 'record' && path.startsWith('values.')) {
    const fieldId = path.slice('values.'.length);
    return stringAt(flat, entityKey('field', fieldId), 'name') ?? 'a value';
  }
  return propertyWords(path.startsWith('props.') ? path.slice('props.'.length) : path);
}

// --- Diff -----------------------------------------------------------------------------------

/** A change before it is put in words: which paths changed, and whether it moved. */
export interface RawChange {
  key: string;
  change: EntityChange['change'];
  /** For 'changed': the property paths that differ (its parent id among them if it moved). */
  paths: string[];
  /** Whether it moved among its siblings or to another parent. */
  moved: boolean;
}

/** What a change amounts to once its paths and move are known; null when nothing is left. */
export function classify(
  kind: EntityKind,
  paths: string[],
  moved: boolean,
): 'changed' | 'moved' | null {
  const parentKey = isChildKind(kind) ? PARENT_KEY[kind] : null;
  if (paths.some((path) => path !== parentKey)) return 'changed';
  return moved || paths.length > 0 ? 'moved' : null;
}

/** Every entity that changed, grouped, in `after`'s order, then the removed ones in `before`'s. */
export function rawChanges(before: FlatDefinition, after: FlatDefinition): RawChange[] {
  const moved = movedEntities(before, after);
  const byGroup = new Map<ChangeGroup, RawChange[]>(CHANGE_GROUPS.map((g) => [g, []]));
  for (const key of after.order) {
    const entity = after.entities.get(key)!;
    const old = before.entities.get(key);
    const group = byGroup.get(GROUP_OF[entity.kind])!;
    if (!old) {
      group.push({ key, change: 'added', paths: [], moved: false });
      continue;
    }
    const paths = changedPaths(old.props, entity.props);
    const change = classify(entity.kind, paths, moved.has(key));
    if (change) group.push({ key, change, paths, moved: moved.has(key) });
  }
  for (const key of before.order) {
    if (after.entities.has(key)) continue;
    const kind = before.entities.get(key)!.kind;
    byGroup.get(GROUP_OF[kind])!.push({ key, change: 'removed', paths: [], moved: false });
  }
  return CHANGE_GROUPS.flatMap((group) => byGroup.get(group)!);
}

function properties(flat: FlatDefinition, entity: FlatEntity, change: RawChange): string[] {
  if (change.change !== 'changed') return [];
  const labels = change.paths.map((path) => propertyLabel(flat, entity, path));
  const parentMoved = isChildKind(entity.kind) && change.paths.includes(PARENT_KEY[entity.kind]);
  if (change.moved && !parentMoved) labels.push('position');
  return [...new Set(labels)];
}

/** Puts raw changes in words: names from `after`, or from `before` for what was removed. */
export function describeChanges(
  raw: RawChange[],
  before: FlatDefinition,
  after: FlatDefinition,
): DefinitionChanges {
  const counts = Object.fromEntries(
    CHANGE_GROUPS.map((g) => [g, 0]),
  ) as DefinitionChanges['counts'];
  const changes = raw.map((change): EntityChange => {
    const flat = change.change === 'removed' ? before : after;
    const entity = flat.entities.get(change.key)!;
    const group = GROUP_OF[entity.kind];
    counts[group] += 1;
    return {
      group,
      entity: entity.kind,
      id: entity.id,
      name: entityName(flat, entity),
      where: entityWhere(flat, entity),
      change: change.change,
      properties: properties(flat, entity, change),
    };
  });
  return { changes, counts };
}

/**
 * What changed from `before` to `after`, entity by entity: added, removed, changed (naming the
 * properties) or moved (to another parent, or reordered among its siblings).
 */
export function diffDefinitions(
  before: ReadDefinition | AppDefinition,
  after: ReadDefinition | AppDefinition,
): DefinitionChanges {
  const from = flattenDefinition(before);
  const to = flattenDefinition(after);
  return describeChanges(rawChanges(from, to), from, to);
}

const COUNTED: Array<[EntityKind, string, string]> = [
  ['screen', 'screen', 'screens'],
  ['component', 'component', 'components'],
  ['collection', 'collection', 'collections'],
  ['field', 'field', 'fields'],
  ['record', 'record', 'records'],
  ['action', 'action', 'actions'],
  ['step', 'step', 'steps'],
  ['aiAction', 'AI action', 'AI actions'],
  ['reminder', 'reminder', 'reminders'],
];

/** One line a person reads in a list, e.g. "2 screens, 5 components, the theme" or "No changes". */
export function summarizeChanges(changes: DefinitionChanges): string {
  const perKind = new Map<EntityKind, number>();
  for (const change of changes.changes) {
    perKind.set(change.entity, (perKind.get(change.entity) ?? 0) + 1);
  }
  const parts = COUNTED.filter(([kind]) => perKind.has(kind)).map(([kind, one, many]) => {
    const n = perKind.get(kind)!;
    return `${n} ${n === 1 ? one : many}`;
  });
  if (perKind.has('app')) parts.push('the app’s details');
  if (perKind.has('theme')) parts.push('the theme');
  return parts.length > 0 ? parts.join(', ') : 'No changes';
}
