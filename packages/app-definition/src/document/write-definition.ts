import { generateKeyBetween } from 'fractional-indexing';
import * as Y from 'yjs';
import type { AppDefinition } from '../schema/definition';
import { appMap, metaMap, plainMap, type Table, table, themeMap } from './document';
import { DefinitionError, LOCAL_EDIT } from '../schema/edit-rules';

/**
 * Appends an entity after the siblings put before it: `siblings` holds the last order key given
 * in that list, so a list of n entities costs n key steps, not n² (a 2,000-record collection).
 */
function put(
  doc: Y.Doc,
  name: Table,
  id: string,
  values: Record<string, unknown>,
  siblings: { last: string | null },
) {
  const entity = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) entity.set(key, value);
  }
  const order = generateKeyBetween(siblings.last, null);
  entity.set('order', order);
  table(doc, name).set(id, entity);
  siblings.last = order;
}

/**
 * Writes a whole definition into an empty document (a new app from an import or a template), in
 * one transaction. Ids are kept: they are only unique within one app.
 */
export function writeDefinition(doc: Y.Doc, definition: AppDefinition): void {
  doc.transact(() => {
    if (appMap(doc).has('schemaVersion')) throw new DefinitionError('This app already exists.');
    appMap(doc).set('schemaVersion', definition.schemaVersion);
    for (const [key, value] of Object.entries(definition.meta)) metaMap(doc).set(key, value);
    for (const [key, value] of Object.entries(definition.theme)) themeMap(doc).set(key, value);
    const screens = { last: null as string | null };
    for (const screen of definition.screens) {
      put(doc, 'screens', screen.id, { title: screen.title, icon: screen.icon }, screens);
      const components = { last: null as string | null };
      for (const c of screen.components) {
        put(
          doc,
          'components',
          c.id,
          { type: c.type, screenId: screen.id, props: plainMap(c.props) },
          components,
        );
      }
    }
    const collections = { last: null as string | null };
    for (const collection of definition.collections) {
      const { name, sharing, recordRule } = collection;
      put(doc, 'collections', collection.id, { name, sharing, recordRule }, collections);
      const fields = { last: null as string | null };
      for (const { id, ...field } of collection.fields)
        put(doc, 'fields', id, { ...field, collectionId: collection.id }, fields);
      const records = { last: null as string | null };
      for (const record of collection.records) {
        put(
          doc,
          'records',
          record.id,
          { collectionId: collection.id, values: plainMap(record.values) },
          records,
        );
      }
    }
    const actions = { last: null as string | null };
    for (const action of definition.actions) {
      put(doc, 'actions', action.id, { name: action.name }, actions);
      const steps = { last: null as string | null };
      for (const step of action.steps)
        put(
          doc,
          'steps',
          step.id,
          { type: step.type, actionId: action.id, props: plainMap(step.props) },
          steps,
        );
    }
    const aiActions = { last: null as string | null };
    for (const { id, ...ai } of definition.aiActions) put(doc, 'aiActions', id, ai, aiActions);
    const reminders = { last: null as string | null };
    for (const { id, ...reminder } of definition.reminders ?? []) {
      put(doc, 'reminders', id, reminder, reminders);
    }
  }, LOCAL_EDIT);
}
