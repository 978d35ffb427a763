import * as Y from 'yjs';
import { metaMap, table, TABLES, type Table, themeMap } from '../document/document';
import type { ReadDefinition } from '../document/reader';
import type { AppDefinition } from '../schema/definition';
import {
  type EntityKind,
  entityKey,
  type FlatDefinition,
  flattenDefinition,
  propertyLabel,
  propertyWords,
} from './changes';

/*
 * What one transaction on an app document changed, entity by entity and property by property, read
 * from what Yjs integrated (the transaction's own record of the types it changed and their keys),
 * never from what an update declares. Who changed what (docs/product/history.md#who-changed-what)
 * is kept from this.
 */

/** One entity a transaction touched, and the paths it changed, as `changedPaths` names them. */
export interface TouchedEntity {
  entity: EntityKind;
  /** The entity's id ('app' and 'theme' for those two). */
  id: string;
  /**
   * 'added' or 'removed' when the entity was (as the document has it after the transaction), else
   * its properties ('title', 'order', 'props.text', 'values.{fieldId}', a theme token).
   */
  paths: string[];
}

export const KIND_OF_TABLE: Record<Table, EntityKind> = {
  screens: 'screen',
  components: 'component',
  collections: 'collection',
  fields: 'field',
  records: 'record',
  actions: 'action',
  steps: 'step',
  aiActions: 'aiAction',
  reminders: 'reminder',
};

/** The maps of an entity's nested properties, by the key they sit under. */
const NESTED = new Set(['props', 'values']);

/** Where a changed shared type sits: an entity's own map, or one nested in it, or neither. */
function placeOf(
  type: Y.AbstractType<unknown>,
  tables: ReadonlyMap<Y.AbstractType<unknown>, Table>,
): { table: Table; id: string; prefix: string } | null {
  const item = type._item;
  if (!item || item.parentSub === null) return null;
  const parent = item.parent as Y.AbstractType<unknown>;
  const own = tables.get(parent);
  if (own) return { table: own, id: item.parentSub, prefix: '' };
  if (!NESTED.has(item.parentSub)) return null;
  const entityItem = parent._item;
  if (!entityItem || entityItem.parentSub === null) return null;
  const entityTable = tables.get(entityItem.parent as Y.AbstractType<unknown>);
  return entityTable
    ? { table: entityTable, id: entityItem.parentSub, prefix: `${item.parentSub}.` }
    : null;
}

/**
 * Calls `onTouched` after every transaction on `doc` that changed an entity, with what it changed
 * (`touchedByTransaction`); answers the function that stops watching. The document's tables are
 * made typed maps first: a document filled from an update holds untyped roots until something
 * asks for them, and a root typed in the middle of a transaction would not be the one the
 * transaction recorded.
 */
export function watchTouched(
  doc: Y.Doc,
  onTouched: (touched: TouchedEntity[], tr: Y.Transaction, waited: boolean) => void,
): () => void {
  metaMap(doc);
  themeMap(doc);
  doc.getMap(MARKS);
  for (const name of TABLES) table(doc, name);
  // Parts kept aside for a missing one are integrated by whichever transaction brings it: with
  // some waiting, what a transaction changed may be another writer's (`waited`).
  let waited = false;
  const before = () => {
    waited = doc.store.pendingStructs !== null || doc.store.pendingDs !== null;
  };
  const listener = (tr: Y.Transaction) => {
    const touched = touchedByTransaction(doc, tr);
    if (touched.length > 0) onTouched(touched, tr, waited);
  };
  doc.on('beforeTransaction', before);
  doc.on('afterTransaction', listener);
  return () => {
    doc.off('beforeTransaction', before);
    doc.off('afterTransaction', listener);
  };
}

/**
 * The entities a transaction changed and which of their paths, in the order first touched. A
 * removed entity's children removed with it are each listed ('removed'). Costs a look at what the
 * transaction changed, nothing more. The document's roots must be typed before the transaction
 * (`watchTouched` does it).
 */
export function touchedByTransaction(doc: Y.Doc, tr: Y.Transaction): TouchedEntity[] {
  const tables = new Map<Y.AbstractType<unknown>, Table>(
    TABLES.map((name) => [table(doc, name) as Y.AbstractType<unknown>, name]),
  );
  const meta = metaMap(doc) as Y.AbstractType<unknown>;
  const theme = themeMap(doc) as Y.AbstractType<unknown>;
  const found = new Map<string, { entity: EntityKind; id: string; paths: Set<string> }>();
  const note = (entity: EntityKind, id: string, path: string) => {
    const key = `${entity}:${id}`;
    const known = found.get(key);
    if (known) known.paths.add(path);
    else found.set(key, { entity, id, paths: new Set([path]) });
  };
  for (const [changed, keys] of tr.changed) {
    if (!(changed instanceof Y.Map)) continue;
    const type = changed as Y.AbstractType<unknown>;
    const named = [...keys].filter((key): key is string => key !== null);
    if (type === meta || type === theme) {
      const which = type === meta ? 'app' : 'theme';
      for (const key of named) note(which, which, key);
      continue;
    }
    const ownTable = tables.get(type);
    if (ownTable) {
      for (const id of named) {
        const entry = type._map.get(id);
        note(KIND_OF_TABLE[ownTable], id, entry && !entry.deleted ? 'added' : 'removed');
      }
      continue;
    }
    const place = placeOf(type, tables);
    if (!place) continue;
    for (const key of named) note(KIND_OF_TABLE[place.table], place.id, `${place.prefix}${key}`);
  }
  return [...found.values()].map(({ entity, id, paths }) => ({ entity, id, paths: [...paths] }));
}

/**
 * What a person ran to make a change, when it was not their own hands: the Ask AI suggestion they
 * accepted, a restore, a pull of a remix's original, a draft merged back.
 */
export const MARKED_KINDS = ['ai', 'restore', 'pull', 'draft'] as const;
export type MarkedKind = (typeof MARKED_KINDS)[number];

/** The most entities one mark names; a larger change is credited to the person alone. */
export const MARKED_ENTITIES_MAX = 2_000;

/** The document's one mark: which kind made the entities the transaction that wrote it changed. */
const MARKS = 'authoring';
const MARK_KEY = 'change';

/**
 * Inside a transaction, after its edits: marks what it changed so far as `kind`'s. The mark is
 * one key, written again by each marked change (the document keeps only the newest), so it costs
 * nothing to keep; the server reads it from the transaction that integrates it
 * (`markOfTransaction`), and credits to the kind only the entities it names that the same
 * transaction changed. Nothing is marked when the change names too many.
 */
export function markTouched(doc: Y.Doc, tr: Y.Transaction, kind: MarkedKind): void {
  const touched = touchedByTransaction(doc, tr);
  if (touched.length === 0 || touched.length > MARKED_ENTITIES_MAX) return;
  doc.getMap<unknown>(MARKS).set(MARK_KEY, {
    kind,
    entities: touched.map((t) => `${t.entity}:${t.id}`),
  });
}

/**
 * The mark a transaction integrated, if it did: its kind and the entities it names (`kind:id`).
 * A mark integrated before, or one that is not a mark's shape, is none.
 */
export function markOfTransaction(
  doc: Y.Doc,
  tr: Y.Transaction,
): { kind: MarkedKind; entities: Set<string> } | null {
  const marks = doc.share.get(MARKS);
  if (!marks || !tr.changed.get(marks)?.has(MARK_KEY)) return null;
  const item = marks._map.get(MARK_KEY);
  if (!item || item.deleted || item.id.clock < (tr.beforeState.get(item.id.client) ?? 0)) {
    return null;
  }
  const value: unknown = item.content.getContent().at(-1);
  if (typeof value !== 'object' || value === null) return null;
  const { kind, entities } = value as { kind?: unknown; entities?: unknown };
  if (!(MARKED_KINDS as readonly unknown[]).includes(kind) || !Array.isArray(entities)) return null;
  if (entities.length > MARKED_ENTITIES_MAX) return null;
  const named = entities.filter((e): e is string => typeof e === 'string' && e.length <= 200);
  return { kind: kind as MarkedKind, entities: new Set(named) };
}

/** Each definition flattened once, for the few lines that name its changes. */
const flattened = new WeakMap<object, FlatDefinition>();

/**
 * What a change of `paths` did to an entity, in words: 'added it', 'removed it' (both, when one
 * write of who changed what holds both), or its properties as History names them ('title',
 * 'text', 'position'), each once, as the app is now.
 */
export function touchedWords(
  definition: ReadDefinition | AppDefinition,
  entity: string,
  id: string,
  paths: readonly string[],
): string {
  let flat = flattened.get(definition);
  if (!flat) {
    flat = flattenDefinition(definition);
    flattened.set(definition, flat);
  }
  const found = flat.entities.get(entityKey(entity as EntityKind, id));
  const added = paths.includes('added');
  const removed = paths.includes('removed');
  if (added && removed) return 'added and removed it';
  if (added) return 'added it';
  if (removed) return 'removed it';
  const words = paths.map((path) =>
    found ? propertyLabel(flat, found, path) : propertyWords(path.replace(/^(props|values)\./, '')),
  );
  return `changed the ${[...new Set(words)].join(', ')}`;
}

/** Every entity of a definition (its details and theme among them), as `touchedByTransaction` names them. */
export function entitiesOf(
  definition: ReadDefinition | AppDefinition,
): Array<{ entity: EntityKind; id: string }> {
  return [...flattenDefinition(definition).entities.values()].map(({ kind, id }) => ({
    entity: kind,
    id,
  }));
}
