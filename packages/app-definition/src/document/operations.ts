import { generateKeyBetween } from 'fractional-indexing';
import * as Y from 'yjs';
import {
  type ComponentType,
  COMPONENT_PROPS,
  COMPUTED_FIELD_TYPES,
  type Field,
  FIELD_TYPES,
  type FieldType,
} from '../schema/definition';
import {
  appMap,
  cloneEntity,
  metaMap,
  ordered,
  orderAt,
  plainMap,
  type Table,
  table,
  themeMap,
} from './document';
import { DefinitionError } from '../schema/edit-rules';
import { LIMITS, SCHEMA_VERSION } from '../schema/limits';
import { FIELD_SETTINGS, type FieldSetting } from '../schema/field-types';
import { type AppMeta, DEFAULT_APP_ICON } from '../schema/meta';
import { checkFieldValues, type FieldValue } from '../schema/field-values';
import { readFields } from './reader';
import { renameFieldInFormula } from '../formula/rename';
import {
  COLLECTION_SHARING,
  type CollectionRecordRule,
  type CollectionSharing,
  RECORD_RULES,
} from '../schema/sharing';
import type { Theme } from '../schema/theme';

import { edit, type IdFactory, insert, limit, move, need, removeChildren } from './edit-primitives';

export type { IdFactory } from './edit-primitives';

/**
 * Creates a new app in an empty document: once, on the device that creates it (never seed a
 * document because it looks empty: docs/decisions/0006-never-seed-an-empty-looking-document.md).
 */
export function createApp(
  doc: Y.Doc,
  newId: IdFactory,
  meta: Partial<AppMeta> & { title: string },
): string {
  return edit(doc, () => {
    if (appMap(doc).has('schemaVersion')) throw new DefinitionError('This app already exists.');
    appMap(doc).set('schemaVersion', SCHEMA_VERSION);
    setMetaIn(doc, {
      description: '',
      tags: [],
      icon: DEFAULT_APP_ICON,
      ...meta,
    });
    const screenId = newId();
    insert(doc, 'screens', screenId, { title: 'Home', icon: '🏠' }, undefined, 0);
    return screenId;
  });
}

function setMetaIn(doc: Y.Doc, patch: Partial<AppMeta>) {
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) metaMap(doc).set(key, JSON.parse(JSON.stringify(value)) as unknown);
  }
}

export function setMeta(doc: Y.Doc, patch: Partial<AppMeta>): void {
  edit(doc, () => setMetaIn(doc, patch));
}

export function setTheme(doc: Y.Doc, patch: Partial<Theme>): void {
  edit(doc, () => {
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) themeMap(doc).set(key, JSON.parse(JSON.stringify(value)) as unknown);
    }
  });
}

// Screens

export function addScreen(
  doc: Y.Doc,
  newId: IdFactory,
  options: { title?: string; icon?: string; index?: number } = {},
): string {
  return edit(doc, () => {
    limit(
      table(doc, 'screens').size,
      LIMITS.screens,
      `An app can have at most ${LIMITS.screens} screens.`,
    );
    return insert(
      doc,
      'screens',
      newId(),
      { title: options.title ?? 'New screen', icon: options.icon ?? '📄' },
      undefined,
      options.index ?? Infinity,
    );
  });
}

/** Makes a real screen when there is none (after concurrent deletions); returns the first screen. */
export function ensureScreen(doc: Y.Doc, newId: IdFactory): string {
  return edit(doc, () => {
    const first = ordered(doc, 'screens')[0];
    return first
      ? first.id
      : insert(doc, 'screens', newId(), { title: 'Home', icon: '🏠' }, undefined, 0);
  });
}

export function setScreen(
  doc: Y.Doc,
  screenId: string,
  patch: { title?: string; icon?: string },
): void {
  edit(doc, () => {
    const screen = need(doc, 'screens', screenId, 'screen');
    if (patch.title !== undefined) screen.set('title', patch.title);
    if (patch.icon !== undefined) screen.set('icon', patch.icon);
  });
}

export function moveScreen(doc: Y.Doc, screenId: string, index: number): void {
  edit(doc, () => move(doc, 'screens', screenId, index));
}

export function removeScreen(doc: Y.Doc, screenId: string): void {
  edit(doc, () => {
    need(doc, 'screens', screenId, 'screen');
    removeChildren(doc, 'components', screenId);
    table(doc, 'screens').delete(screenId);
  });
}

/** A copy of a screen and its components, right after it. */
export function duplicateScreen(doc: Y.Doc, newId: IdFactory, screenId: string): string {
  return edit(doc, () => {
    const screen = need(doc, 'screens', screenId, 'screen');
    limit(
      table(doc, 'screens').size,
      LIMITS.screens,
      `An app can have at most ${LIMITS.screens} screens.`,
    );
    const index = ordered(doc, 'screens').findIndex((s) => s.id === screenId) + 1;
    const copyId = insert(
      doc,
      'screens',
      newId(),
      { title: `${String(screen.get('title') ?? 'Screen')} copy`, icon: screen.get('icon') },
      undefined,
      index,
    );
    for (const component of ordered(doc, 'components', screenId)) {
      const copy = cloneEntity(component.entity);
      copy.set('screenId', copyId);
      table(doc, 'components').set(newId(), copy);
    }
    return copyId;
  });
}

// Components

export function addComponent(
  doc: Y.Doc,
  newId: IdFactory,
  screenId: string,
  type: ComponentType,
  index = Infinity,
  props: Record<string, unknown> = {},
): string {
  return edit(doc, () => {
    need(doc, 'screens', screenId, 'screen');
    limit(
      ordered(doc, 'components', screenId).length,
      LIMITS.componentsPerScreen,
      `A screen can have at most ${LIMITS.componentsPerScreen} components.`,
    );
    const values = COMPONENT_PROPS[type].parse(props);
    return insert(
      doc,
      'components',
      newId(),
      { type, screenId, props: plainMap(values) },
      screenId,
      index,
    );
  });
}

/** Sets some properties of a component, one key each (concurrent edits of other keys survive). */
export function setComponentProps(
  doc: Y.Doc,
  componentId: string,
  patch: Record<string, unknown>,
): void {
  edit(doc, () => {
    const component = need(doc, 'components', componentId, 'component');
    const type = component.get('type') as ComponentType;
    const schema = COMPONENT_PROPS[type];
    if (!schema) throw new DefinitionError('That component cannot be edited.');
    const shape = schema.shape as Record<string, { parse(v: unknown): unknown }>;
    let props = component.get('props');
    if (!(props instanceof Y.Map)) {
      props = new Y.Map<unknown>();
      component.set('props', props);
    }
    for (const [key, value] of Object.entries(patch)) {
      const field = shape[key];
      if (!field) throw new DefinitionError(`A ${type} has no “${key}”.`);
      (props as Y.Map<unknown>).set(key, JSON.parse(JSON.stringify(field.parse(value))) as unknown);
    }
  });
}

/** Moves a component within its screen, or to another screen (`screenId`). */
export function moveComponent(
  doc: Y.Doc,
  componentId: string,
  index: number,
  screenId?: string,
): void {
  edit(doc, () => {
    if (screenId !== undefined) {
      need(doc, 'screens', screenId, 'screen');
      const current = need(doc, 'components', componentId, 'component').get('screenId');
      if (current !== screenId) {
        limit(
          ordered(doc, 'components', screenId).length,
          LIMITS.componentsPerScreen,
          `A screen can have at most ${LIMITS.componentsPerScreen} components.`,
        );
      }
    }
    move(doc, 'components', componentId, index, screenId);
  });
}

export function duplicateComponent(doc: Y.Doc, newId: IdFactory, componentId: string): string {
  return edit(doc, () => {
    const component = need(doc, 'components', componentId, 'component');
    const screenId = component.get('screenId') as string;
    limit(
      ordered(doc, 'components', screenId).length,
      LIMITS.componentsPerScreen,
      `A screen can have at most ${LIMITS.componentsPerScreen} components.`,
    );
    const siblings = ordered(doc, 'components', screenId);
    const index = siblings.findIndex((s) => s.id === componentId) + 1;
    const copy = cloneEntity(component);
    copy.set('order', orderAt(siblings, index));
    const id = newId();
    table(doc, 'components').set(id, copy);
    return id;
  });
}

export function removeComponent(doc: Y.Doc, componentId: string): void {
  edit(doc, () => {
    need(doc, 'components', componentId, 'component');
    table(doc, 'components').delete(componentId);
  });
}

// Collections, fields, creator records

export function addCollection(doc: Y.Doc, newId: IdFactory, name = 'New collection'): string {
  return edit(doc, () => {
    limit(
      table(doc, 'collections').size,
      LIMITS.collections,
      `An app can have at most ${LIMITS.collections} collections.`,
    );
    return insert(doc, 'collections', newId(), { name }, undefined, Infinity);
  });
}

export function renameCollection(doc: Y.Doc, collectionId: string, name: string): void {
  edit(doc, () => need(doc, 'collections', collectionId, 'collection').set('name', name));
}

/**
 * Where the records visitors add to a collection live (each visitor's own, or a shared space) and,
 * when shared, who may change a record. Each property is its own key, so one device choosing the
 * sharing and another the rule both survive.
 */
export function setCollectionSharing(
  doc: Y.Doc,
  collectionId: string,
  patch: { sharing?: CollectionSharing; recordRule?: CollectionRecordRule },
): void {
  // Both values are checked before anything is written: a throw would keep a partial edit.
  if (patch.sharing !== undefined && !COLLECTION_SHARING.includes(patch.sharing)) {
    throw new DefinitionError('Choose whether the records are private or shared in a space.');
  }
  if (patch.recordRule !== undefined && !RECORD_RULES.includes(patch.recordRule)) {
    throw new DefinitionError('Choose who can change a record: anyone, or its author.');
  }
  edit(doc, () => {
    const collection = need(doc, 'collections', collectionId, 'collection');
    if (patch.sharing !== undefined) collection.set('sharing', patch.sharing);
    if (patch.recordRule !== undefined) collection.set('recordRule', patch.recordRule);
  });
}

export function removeCollection(doc: Y.Doc, collectionId: string): void {
  edit(doc, () => {
    need(doc, 'collections', collectionId, 'collection');
    removeChildren(doc, 'fields', collectionId);
    removeChildren(doc, 'records', collectionId);
    table(doc, 'collections').delete(collectionId);
  });
}

/** A field's type-specific settings; null takes one off. */
export type FieldSettings = {
  [K in FieldSetting]?: Field[K] | null;
};

export function addField(
  doc: Y.Doc,
  newId: IdFactory,
  collectionId: string,
  field: {
    name: string;
    type: FieldType;
    required?: boolean;
    options?: string[];
  } & FieldSettings,
  index = Infinity,
): string {
  return edit(doc, () => {
    need(doc, 'collections', collectionId, 'collection');
    limit(
      ordered(doc, 'fields', collectionId).length,
      LIMITS.fieldsPerCollection,
      `A collection can have at most ${LIMITS.fieldsPerCollection} fields.`,
    );
    return insert(
      doc,
      'fields',
      newId(),
      {
        collectionId,
        name: field.name,
        type: field.type,
        required: field.required ?? false,
        default: null,
        options: field.options ?? [],
        // Only the fields that need them carry these, so other fields' JSON stays as it was.
        ...Object.fromEntries(
          FIELD_SETTINGS.filter((key) => field[key] !== undefined && field[key] !== null).map(
            (key) => [key, field[key]],
          ),
        ),
      },
      collectionId,
      index,
    );
  });
}

export function setField(
  doc: Y.Doc,
  fieldId: string,
  patch: {
    name?: string;
    type?: FieldType;
    required?: boolean;
    default?: FieldValue;
    options?: string[];
  } & FieldSettings,
): void {
  edit(doc, () => {
    const field = need(doc, 'fields', fieldId, 'field');
    for (const [key, value] of Object.entries(patch)) {
      // A setting given as null is taken off (a rollup that now reads this collection's relation).
      if (value === null && (FIELD_SETTINGS as readonly string[]).includes(key)) field.delete(key);
      else if (value !== undefined) field.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    }
  });
}

/**
 * A field's new name, and every formula of its collection that names it rewritten to the new name
 * in the same change, so renaming never breaks a formula (and one Undo takes both back).
 */
export function renameField(doc: Y.Doc, fieldId: string, name: string): void {
  edit(doc, () => {
    const field = need(doc, 'fields', fieldId, 'field');
    const oldName = field.get('name');
    const collectionId = field.get('collectionId');
    field.set('name', name);
    if (typeof oldName !== 'string' || typeof collectionId !== 'string' || oldName === name) return;
    const siblings = ordered(doc, 'fields', collectionId).map(({ id, entity }) => ({
      id,
      entity,
      name: id === fieldId ? oldName : String(entity.get('name') ?? ''),
    }));
    for (const { entity } of siblings) {
      const formula = entity.get('formula');
      if (entity.get('type') !== 'formula' || typeof formula !== 'string' || !formula) continue;
      const renamed = renameFieldInFormula(formula, oldName, name, siblings);
      if (renamed !== formula) entity.set('formula', renamed);
    }
  });
}

export function moveField(doc: Y.Doc, fieldId: string, index: number): void {
  edit(doc, () => move(doc, 'fields', fieldId, index));
}

export function removeField(doc: Y.Doc, fieldId: string): void {
  edit(doc, () => {
    need(doc, 'fields', fieldId, 'field');
    table(doc, 'fields').delete(fieldId);
  });
}

export function addRecord(
  doc: Y.Doc,
  newId: IdFactory,
  collectionId: string,
  values: Record<string, FieldValue> = {},
  index = Infinity,
): string {
  return edit(doc, () => {
    need(doc, 'collections', collectionId, 'collection');
    limit(
      ordered(doc, 'records', collectionId).length,
      LIMITS.creatorRecords,
      `A collection can have at most ${LIMITS.creatorRecords} creator records.`,
    );
    return insert(
      doc,
      'records',
      newId(),
      { collectionId, values: plainMap(values) },
      collectionId,
      index,
    );
  });
}

export function setRecordValue(
  doc: Y.Doc,
  recordId: string,
  fieldId: string,
  value: FieldValue,
): void {
  edit(doc, () => {
    const record = need(doc, 'records', recordId, 'record');
    let values = record.get('values');
    if (!(values instanceof Y.Map)) {
      values = new Y.Map<unknown>();
      record.set('values', values);
    }
    (values as Y.Map<unknown>).set(fieldId, value);
  });
}

export function moveRecord(doc: Y.Doc, recordId: string, index: number): void {
  edit(doc, () => move(doc, 'records', recordId, index));
}

export function removeRecord(doc: Y.Doc, recordId: string): void {
  edit(doc, () => {
    need(doc, 'records', recordId, 'record');
    table(doc, 'records').delete(recordId);
  });
}

/** A field an import adds; its values come keyed by `key` until it has an id. */
export interface ImportedField {
  key: string;
  name: string;
  type: FieldType;
  options: string[];
}

function importedFieldProblem(field: ImportedField, fields: readonly Field[]): string | null {
  const name = field.name.trim();
  if (!name || name.length > LIMITS.nameLength)
    return `Give each new field a name of 1 to ${LIMITS.nameLength} characters.`;
  if (!FIELD_TYPES.includes(field.type) || COMPUTED_FIELD_TYPES.includes(field.type))
    return `${name} can’t be a field an import fills in.`;
  if (
    field.options.length > LIMITS.choices ||
    field.options.some((o) => !o || o.length > LIMITS.choiceLength)
  )
    return `${name} can have at most ${LIMITS.choices} choices of up to ${LIMITS.choiceLength} characters.`;
  if (fields.some((f) => f.name.trim().toLowerCase() === name.toLowerCase()))
    return `There is already a field named ${name}.`;
  return null;
}

/** Roughly what the records add to the document: a little per record and per value. */
function importSize(records: readonly Record<string, FieldValue>[]) {
  let bytes = 0;
  let items = 0;
  for (const values of records) {
    bytes += 60 + JSON.stringify(values).length;
    items += 4 + Object.keys(values).length;
  }
  return { bytes, items };
}

function documentSize(doc: Y.Doc) {
  let items = 0;
  for (const structs of doc.store.clients.values()) items += structs.length;
  return { bytes: Y.encodeStateAsUpdate(doc).byteLength, items };
}

/**
 * Adds many records at once (a CSV import, docs/product/app-definition.md), and the new fields
 * their values need: everything is checked first — the collection's limits of fields and records,
 * the document's size, each new field, and every value with `checkFieldValues`, the check forms
 * use — and then written in one transaction, so an import is wholly there (one Undo takes it back)
 * or, refused with a DefinitionError, not there at all. Formula fields are never filled in.
 */
export function importRecords(
  doc: Y.Doc,
  newId: IdFactory,
  collectionId: string,
  input: { fields: readonly ImportedField[]; records: readonly Record<string, FieldValue>[] },
): { fieldIds: Record<string, string>; recordIds: string[] } {
  need(doc, 'collections', collectionId, 'collection');
  const existing = readFields(ordered(doc, 'fields', collectionId));
  if (existing.length + input.fields.length > LIMITS.fieldsPerCollection)
    throw new DefinitionError(
      `A collection can have at most ${LIMITS.fieldsPerCollection} fields; this import would make ${existing.length + input.fields.length}.`,
    );
  const records = ordered(doc, 'records', collectionId);
  if (input.records.length === 0) throw new DefinitionError('There is no record to import.');
  if (records.length + input.records.length > LIMITS.creatorRecords)
    throw new DefinitionError(
      `A collection can have at most ${LIMITS.creatorRecords} creator records; it has ${records.length}, so at most ${LIMITS.creatorRecords - records.length} more can be imported.`,
    );
  const fieldIds: Record<string, string> = {};
  const drafts: Field[] = [];
  for (const field of input.fields) {
    const problem = importedFieldProblem(field, [...existing, ...drafts]);
    if (problem) throw new DefinitionError(problem);
    const id = newId();
    fieldIds[field.key] = id;
    drafts.push({
      id,
      name: field.name.trim(),
      type: field.type,
      required: false,
      default: null,
      options: field.options,
    });
  }
  const fields = [...existing, ...drafts];
  const checked = input.records.map((values, index) => {
    const byId = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [fieldIds[key] ?? key, value]),
    );
    const result = checkFieldValues(fields, byId, { complete: false });
    const problem = Object.values(result.errors)[0];
    if (problem) throw new DefinitionError(`Record ${index + 1} of the import: ${problem}`);
    return result.values;
  });
  const size = documentSize(doc);
  const adding = importSize(checked);
  if (
    size.bytes + adding.bytes > LIMITS.documentBytes ||
    size.items + adding.items > LIMITS.documentItems
  )
    throw new DefinitionError(
      `These records would make the app larger than its limit (${LIMITS.documentBytes / (1024 * 1024)} MB). Import fewer rows or columns.`,
    );
  return edit(doc, () => {
    let order = orderAt(ordered(doc, 'fields', collectionId), Infinity);
    for (const field of drafts) {
      const { id, ...rest } = field;
      insertAt(doc, 'fields', id, { collectionId, ...rest }, order);
      order = generateKeyBetween(order, null);
    }
    order = orderAt(records, Infinity);
    const recordIds: string[] = [];
    for (const values of checked) {
      const id = newId();
      insertAt(doc, 'records', id, { collectionId, values: plainMap(values) }, order);
      recordIds.push(id);
      order = generateKeyBetween(order, null);
    }
    return { fieldIds, recordIds };
  });
}

function insertAt(
  doc: Y.Doc,
  name: Table,
  id: string,
  values: Record<string, unknown>,
  order: string,
) {
  const entity = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(values)) entity.set(key, value);
  entity.set('order', order);
  table(doc, name).set(id, entity);
}
