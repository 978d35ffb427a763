import { generateKeyBetween } from 'fractional-indexing';
import * as Y from 'yjs';
import type { AppDefinition } from '../schema/definition';
import {
  appMap,
  metaMap,
  PARENT_FIELD,
  plainMap,
  PlainMap,
  type Table,
  table,
  themeMap,
} from './document';
import { DefinitionError, LOCAL_EDIT } from '../schema/edit-rules';

/** Where a definition's parts go: a document's maps, or plain maps standing in for them. */
interface Layout {
  /** A key of the app, meta or theme map. */
  root(map: 'app' | 'meta' | 'theme', key: string, value: unknown): void;
  /** An entity of a table; `nested` values (props, a record's values) are maps of their own. */
  put(name: Table, id: string, values: Record<string, unknown>): void;
}

/**
 * A definition laid out as the document holds it (see the package README: Document layout): the
 * root maps, then each table's entities in order, children after their parent.
 */
function layOut(definition: AppDefinition, to: Layout): void {
  to.root('app', 'schemaVersion', definition.schemaVersion);
  for (const [key, value] of Object.entries(definition.meta)) to.root('meta', key, value);
  for (const [key, value] of Object.entries(definition.theme)) to.root('theme', key, value);
  for (const screen of definition.screens) {
    to.put('screens', screen.id, { title: screen.title, icon: screen.icon });
    for (const c of screen.components) {
      to.put('components', c.id, { type: c.type, screenId: screen.id, props: c.props });
    }
  }
  for (const collection of definition.collections) {
    const { name, sharing, recordRule } = collection;
    to.put('collections', collection.id, { name, sharing, recordRule });
    for (const { id, ...field } of collection.fields) {
      to.put('fields', id, { ...field, collectionId: collection.id });
    }
    for (const record of collection.records) {
      to.put('records', record.id, { collectionId: collection.id, values: record.values });
    }
  }
  for (const action of definition.actions) {
    to.put('actions', action.id, { name: action.name });
    for (const step of action.steps) {
      to.put('steps', step.id, { type: step.type, actionId: action.id, props: step.props });
    }
  }
  for (const { id, ...ai } of definition.aiActions) to.put('aiActions', id, ai);
  for (const { id, ...reminder } of definition.reminders ?? []) to.put('reminders', id, reminder);
}

/** The keys whose value is a map of its own in the document (one key per property). */
const NESTED = new Set(['props', 'values']);

/**
 * Order keys for a table's entities as they are put: each parent's children (or a top-level
 * table) from the start, so a list of n entities costs n key steps, not n² (a 2,000-record
 * collection).
 */
function orderKeys() {
  const last = new Map<string, string | null>();
  return (name: Table, values: Record<string, unknown>): string => {
    const parentField = PARENT_FIELD[name];
    const list = `${name}:${parentField ? String(values[parentField]) : ''}`;
    const order = generateKeyBetween(last.get(list) ?? null, null);
    last.set(list, order);
    return order;
  };
}

/**
 * Writes a whole definition into an empty document (a new app from an import or a template), in
 * one transaction. Ids are kept: they are only unique within one app.
 */
export function writeDefinition(doc: Y.Doc, definition: AppDefinition): void {
  const roots = { app: appMap(doc), meta: metaMap(doc), theme: themeMap(doc) };
  const order = orderKeys();
  doc.transact(() => {
    if (roots.app.has('schemaVersion')) throw new DefinitionError('This app already exists.');
    layOut(definition, {
      root: (map, key, value) => roots[map].set(key, value),
      put: (name, id, values) => {
        const entity = new Y.Map<unknown>();
        for (const [key, value] of Object.entries(values)) {
          if (value === undefined) continue;
          entity.set(key, NESTED.has(key) ? plainMap(value as Record<string, unknown>) : value);
        }
        entity.set('order', order(name, values));
        table(doc, name).set(id, entity);
      },
    });
  }, LOCAL_EDIT);
}

/** A copy of a JSON value (what a document's map keeps of a value set into it). */
const copied = (value: unknown): unknown =>
  value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);

/**
 * The definition laid out as `writeDefinition` writes it, in plain maps instead of a document:
 * what the reader reads (`readDefinition`) without the cost of a Yjs document — the merge reads
 * every result it makes this way. Only `getMap` is there: nothing else of a document may be asked
 * of it.
 */
export function plainDocument(definition: AppDefinition): Y.Doc {
  const maps = new Map<string, PlainMap>();
  const mapOf = (name: string) => {
    let map = maps.get(name);
    if (!map) maps.set(name, (map = new PlainMap()));
    return map;
  };
  const order = orderKeys();
  layOut(definition, {
    root: (map, key, value) => mapOf(map).set(key, copied(value)),
    put: (name, id, values) => {
      const entity = new PlainMap();
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) continue;
        if (!NESTED.has(key)) {
          entity.set(key, copied(value));
          continue;
        }
        const nested = new PlainMap();
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
          if (v !== undefined) nested.set(k, copied(v));
        }
        entity.set(key, nested);
      }
      entity.set('order', order(name, values));
      mapOf(name).set(id, entity);
    },
  });
  return { getMap: mapOf } as unknown as Y.Doc;
}
