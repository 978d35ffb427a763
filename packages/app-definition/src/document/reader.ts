import type * as Y from 'yjs';
import {
  type AiAction,
  aiActionSchema,
  type AppDefinition,
  type Collection,
  type Component,
  COMPONENT_PROPS,
  type ComponentType,
  type Field,
  fieldSchema,
  type InvalidComponent,
  type Step,
  STEP_PROPS,
  type StepType,
} from '../schema/definition';
import {
  appMap,
  metaMap,
  type Ordered,
  ordered,
  orderedByParent,
  plainObject,
  themeMap,
} from './document';
import { LIMITS, SCHEMA_VERSION } from '../schema/limits';
import { type AppMeta, appMetaSchema } from '../schema/meta';
import type { FieldValue } from '../schema/field-values';
import { COLLECTION_SHARING, RECORD_RULES } from '../schema/sharing';
import { type Theme, themeSchema } from '../schema/theme';
import { type Reminder, reminderSchema } from '../schema/reminder';

export type ReadComponent = Component | InvalidComponent;
export interface ReadScreen {
  id: string;
  title: string;
  icon: string;
  components: ReadComponent[];
}
/** A definition as read from a live document: valid, except components may be placeholders. */
export type ReadDefinition = Omit<AppDefinition, 'screens'> & { screens: ReadScreen[] };

/**
 * When every screen was deleted (two devices can each delete the other's last one), the reader
 * shows this empty screen, the same on every device; `ensureScreen` makes a real one.
 */
export const MISSING_SCREEN_ID = 'missing-screen';

interface Shape {
  safeParse(value: unknown): { success: boolean; data?: unknown };
}

/**
 * Keeps each property that is valid on its own and drops the rest (their defaults apply), so one
 * bad value never costs the others.
 */
function salvage(
  shape: Record<string, Shape>,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    if (!(key in values)) continue;
    const parsed = schema.safeParse(values[key]);
    if (parsed.success) kept[key] = parsed.data;
  }
  return kept;
}

interface Ids {
  screens: Set<string>;
  collections: Set<string>;
  fields: Set<string>;
  actions: Set<string>;
  aiActions: Set<string>;
}

/** The tables a component's or step's property can point into. */
export type ReferenceTable = keyof Ids;

/**
 * Which table a reference property points into, by its name (`screenId`, `…FieldId`, …): the one
 * rule the reader repairs by and the editor offers choices by.
 */
export function referenceTable(key: string): ReferenceTable | null {
  if (key === 'screenId' || key.endsWith('ScreenId')) return 'screens';
  if (key === 'collectionId') return 'collections';
  if (key === 'actionId') return 'actions';
  if (key === 'aiActionId') return 'aiActions';
  if (key === 'fieldId' || key.endsWith('FieldId')) return 'fields';
  return null;
}

/**
 * Whether a property holds a list of field ids (a form's `fieldIds`, a table's `columnFieldIds`),
 * by the same naming rule as `referenceTable`.
 */
export function isFieldListKey(key: string): boolean {
  return key === 'fieldIds' || key.endsWith('FieldIds');
}

/**
 * Deterministic repair of references into things that no longer exist (deleted on another device
 * while this one pointed at them): a dangling id becomes null, a list keeps the ids that exist.
 */
function repairReferences(props: Record<string, unknown>, ids: Ids): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props)) {
    const target = referenceTable(key);
    if (target && typeof value === 'string') out[key] = ids[target].has(value) ? value : null;
    else if (isFieldListKey(key) && Array.isArray(value))
      out[key] = value.filter((v) => ids.fields.has(v as string));
    else if ((key === 'filter' || key === 'sort') && value && typeof value === 'object') {
      const fieldId = (value as { fieldId?: unknown }).fieldId;
      out[key] = typeof fieldId === 'string' && ids.fields.has(fieldId) ? value : null;
    } else if (key === 'values' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).filter(([fieldId]) => ids.fields.has(fieldId)),
      );
    } else out[key] = value;
  }
  return out;
}

function readMeta(doc: Y.Doc): AppMeta {
  const kept = salvage(
    appMetaSchema.shape as unknown as Record<string, Shape>,
    plainObject(metaMap(doc)),
  );
  return appMetaSchema.parse({ title: 'Untitled app', ...kept });
}

function readTheme(doc: Y.Doc): Theme {
  return themeSchema.parse(
    salvage(themeSchema.shape as unknown as Record<string, Shape>, plainObject(themeMap(doc))),
  );
}

/** A collection's fields as the definition has them, read tolerantly (what an import checks against). */
export function readFields(rows: Ordered[]): Field[] {
  return rows.slice(0, LIMITS.fieldsPerCollection).map(({ id, entity }) => {
    const kept = salvage(
      fieldSchema.shape as unknown as Record<string, Shape>,
      plainObject(entity),
    );
    return fieldSchema.parse({
      type: 'text',
      ...kept,
      name: typeof kept.name === 'string' && kept.name ? kept.name : 'Field',
      id,
    });
  });
}

/** A value a record may hold: plain, or a multi-choice field's list of text. */
function isRecordValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string');
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** One of `allowed`, or `fallback` for anything else (missing, or written by a newer version). */
function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function readCollections(doc: Y.Doc): Collection[] {
  const fieldsOf = orderedByParent(doc, 'fields');
  const recordsOf = orderedByParent(doc, 'records');
  return ordered(doc, 'collections')
    .slice(0, LIMITS.collections)
    .map(({ id, entity }) => {
      const fields = readFields(fieldsOf.get(id) ?? []);
      const fieldIds = new Set(fields.map((f) => f.id));
      const name = entity.get('name');
      return {
        id,
        name:
          typeof name === 'string' && name.trim() ? name.slice(0, LIMITS.nameLength) : 'Collection',
        fields,
        records: (recordsOf.get(id) ?? []).slice(0, LIMITS.creatorRecords).map((record) => ({
          id: record.id,
          values: Object.fromEntries(
            Object.entries(plainObject(record.entity.get('values'))).filter(
              ([fieldId, value]) => fieldIds.has(fieldId) && isRecordValue(value),
            ),
          ) as Record<string, FieldValue>,
        })),
        sharing: oneOf(entity.get('sharing'), COLLECTION_SHARING, 'private'),
        recordRule: oneOf(entity.get('recordRule'), RECORD_RULES, 'anyone'),
      };
    });
}

interface PropsSchema extends Shape {
  shape: object;
}

/**
 * A component's or step's properties with references repaired, salvaged property by property when
 * some are invalid; null when even that does not parse. Nearly always every property is valid, so
 * the whole is parsed once first: salvaging costs a parse per property (a big app's open reads a
 * thousand components), and reads the same as one parse when nothing is invalid.
 */
function readProps(schema: PropsSchema, stored: unknown, ids: Ids): unknown {
  const values = plainObject(stored);
  const whole = schema.safeParse(repairReferences(values, ids));
  if (whole.success) return whole.data;
  const parsed = schema.safeParse(
    repairReferences(salvage(schema.shape as Record<string, Shape>, values), ids),
  );
  return parsed.success ? parsed.data : null;
}

/**
 * What a component's read depends on beyond its own entity and properties: which ids exist (its
 * references are repaired against them), as one string to compare.
 */
function idsKey(ids: Ids): string {
  return [ids.screens, ids.collections, ids.fields, ids.actions, ids.aiActions]
    .map((set) => [...set].join(','))
    .join(';');
}

/** A component as read, kept until its entity (properties included) or the ids it may point at change. */
interface KeptComponent {
  idsKey: string;
  read: ReadComponent;
}

/**
 * Reads one live document's definition as it changes: the same definition `readDefinition` gives,
 * but a component whose entity and properties did not change since the last read (and whose
 * references point into the same ids) is not read again: the same object is given back. A big
 * app's editor reads the definition after every edit; one property changed costs one component's
 * read, and the views can tell what changed by identity. `destroy()` stops listening.
 */
export class DefinitionReader {
  private readonly kept = new WeakMap<Y.Map<unknown>, KeptComponent>();
  /** Shared types changed since the last read, with every type they sit in. */
  private changed = new Set<object>();

  constructor(private readonly doc: Y.Doc) {
    doc.on('afterTransaction', this.onTransaction);
  }

  private readonly onTransaction = (transaction: Y.Transaction) => {
    for (const type of transaction.changed.keys()) {
      let current: object | null = type;
      while (current && !this.changed.has(current)) {
        this.changed.add(current);
        // Integrated, an item's parent is the type it sits in (an id or a name only before that).
        const parent: unknown = (current as { _item: Y.Item | null })._item?.parent;
        current = parent instanceof Object && '_item' in parent ? parent : null;
      }
    }
  };

  read(): ReadDefinition {
    let key: string | null = null;
    const definition = readWith(this.doc, (id, entity, ids) => {
      key ??= idsKey(ids);
      const kept = this.kept.get(entity);
      // A change to its properties (or anything within them, or their replacement) marks the
      // entity too; an entity never moves to another id.
      if (kept && kept.idsKey === key && !this.changed.has(entity)) return kept.read;
      const read = readComponent(id, entity, ids);
      this.kept.set(entity, { idsKey: key, read });
      return read;
    });
    this.changed = new Set();
    return definition;
  }

  destroy() {
    this.doc.off('afterTransaction', this.onTransaction);
  }
}

function readComponent(id: string, entity: Y.Map<unknown>, ids: Ids): ReadComponent {
  const type = entity.get('type');
  if (typeof type !== 'string' || !(type in COMPONENT_PROPS)) {
    return {
      id,
      type: 'invalid',
      originalType: String(type),
      problem: 'This kind of component is not known.',
    };
  }
  const props = readProps(COMPONENT_PROPS[type as ComponentType], entity.get('props'), ids);
  return props
    ? ({ id, type, props } as Component)
    : { id, type: 'invalid', originalType: type, problem: 'Its settings could not be read.' };
}

function readStep(id: string, entity: Y.Map<unknown>, ids: Ids): Step | null {
  const type = entity.get('type');
  if (typeof type !== 'string' || !(type in STEP_PROPS)) return null;
  const props = readProps(STEP_PROPS[type as StepType], entity.get('props'), ids);
  return props ? ({ id, type, props } as Step) : null;
}

function readAiAction(id: string, entity: Y.Map<unknown>, ids: Ids): AiAction {
  const kept = salvage(
    aiActionSchema.shape as unknown as Record<string, Shape>,
    plainObject(entity),
  );
  const action = aiActionSchema.parse({
    ...kept,
    id,
    name: typeof kept.name === 'string' && kept.name ? kept.name : 'AI action',
  });
  const output =
    action.output.kind === 'record' &&
    action.output.collectionId &&
    !ids.collections.has(action.output.collectionId)
      ? { ...action.output, collectionId: null }
      : action.output;
  const target =
    action.target.kind === 'field' &&
    action.target.fieldId &&
    !ids.fields.has(action.target.fieldId)
      ? { ...action.target, fieldId: null }
      : action.target.kind === 'createRecord' &&
          action.target.collectionId &&
          !ids.collections.has(action.target.collectionId)
        ? { ...action.target, collectionId: null }
        : action.target;
  return { ...action, output, target };
}

/**
 * The reminders a merged document holds, each whole or not at all: a reminder that does not parse
 * (a newer kind of schedule, a damaged value) is left out rather than guessed at, since a wrong
 * guess would notify people at a time nobody chose. A reference to a collection or field that is
 * gone stays, as the publish check reports it and nothing fires from an editor's copy.
 */
function readReminders(doc: Y.Doc): Reminder[] {
  const reminders: Reminder[] = [];
  for (const { id, entity } of ordered(doc, 'reminders')) {
    if (reminders.length >= LIMITS.reminders) break;
    const parsed = reminderSchema.safeParse({ ...plainObject(entity), id });
    if (parsed.success) reminders.push(parsed.data);
  }
  return reminders;
}

/**
 * Reads any merged `app/{id}` document as a valid definition, the same way on every device:
 * entities in order, each capped at docs/product/app-definition.md's limits, orphans (children of a
 * deleted parent) left out, invalid values dropped for their defaults, dangling references
 * repaired, and unknown components kept as placeholders the runtime renders as such.
 */
export function readDefinition(doc: Y.Doc): ReadDefinition {
  return readWith(doc, readComponent);
}

function readWith(
  doc: Y.Doc,
  component: (id: string, entity: Y.Map<unknown>, ids: Ids) => ReadComponent,
): ReadDefinition {
  const collections = readCollections(doc);
  const screens = ordered(doc, 'screens').slice(0, LIMITS.screens);
  const componentsOf = orderedByParent(doc, 'components');
  const stepsOf = orderedByParent(doc, 'steps');
  const actions = ordered(doc, 'actions').slice(0, LIMITS.actions);
  const aiActions = ordered(doc, 'aiActions').slice(0, LIMITS.aiActions);
  const ids: Ids = {
    screens: new Set(screens.map((s) => s.id)),
    collections: new Set(collections.map((c) => c.id)),
    fields: new Set(collections.flatMap((c) => c.fields.map((f) => f.id))),
    actions: new Set(actions.map((a) => a.id)),
    aiActions: new Set(aiActions.map((a) => a.id)),
  };
  const version = appMap(doc).get('schemaVersion');
  const readScreens: ReadScreen[] = screens.map(({ id, entity }) => {
    const title = entity.get('title');
    const icon = entity.get('icon');
    return {
      id,
      title:
        typeof title === 'string' && title.trim()
          ? title.slice(0, LIMITS.screenTitleLength)
          : 'Untitled screen',
      icon: typeof icon === 'string' && icon ? icon.slice(0, LIMITS.screenIconLength) : '📄',
      components: (componentsOf.get(id) ?? [])
        .slice(0, LIMITS.componentsPerScreen)
        .map((c) => component(c.id, c.entity, ids)),
    };
  });
  return {
    schemaVersion: (typeof version === 'number'
      ? version
      : SCHEMA_VERSION) as typeof SCHEMA_VERSION,
    meta: readMeta(doc),
    theme: readTheme(doc),
    screens:
      readScreens.length > 0
        ? readScreens
        : [{ id: MISSING_SCREEN_ID, title: 'Home', icon: '🏠', components: [] }],
    collections,
    actions: actions.map(({ id, entity }) => {
      const name = entity.get('name');
      return {
        id,
        name: typeof name === 'string' && name.trim() ? name.slice(0, LIMITS.nameLength) : 'Action',
        steps: (stepsOf.get(id) ?? [])
          .slice(0, LIMITS.stepsPerAction)
          .map((s) => readStep(s.id, s.entity, ids))
          .filter((s): s is Step => s !== null),
      };
    }),
    aiActions: aiActions.map(({ id, entity }) => readAiAction(id, entity, ids)),
    reminders: readReminders(doc),
  };
}
