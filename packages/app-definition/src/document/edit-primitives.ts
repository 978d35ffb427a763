import * as Y from 'yjs';
import { type Entity, ordered, orderAt, PARENT_FIELD, type Table, table } from './document';
import { DefinitionError, LOCAL_EDIT } from '../schema/edit-rules';

/*
 * What every typed edit of the document is made of (operations.ts, action-operations.ts): one
 * local transaction, an entity that must still be there, a limit, and an entity put at its place
 * among its siblings by order key.
 */

/** A new entity id: random, so ids made on different devices never collide. */
export type IdFactory = () => string;

export const edit = <T>(doc: Y.Doc, fn: () => T): T => {
  let result!: T;
  doc.transact(() => {
    result = fn();
  }, LOCAL_EDIT);
  return result;
};

export function need(doc: Y.Doc, name: Table, id: string, what: string): Entity {
  const entity = table(doc, name).get(id);
  if (!(entity instanceof Y.Map)) throw new DefinitionError(`That ${what} no longer exists.`);
  return entity;
}

export function limit(count: number, max: number, message: string) {
  if (count >= max) throw new DefinitionError(message);
}

export function insert(
  doc: Y.Doc,
  name: Table,
  id: string,
  values: Record<string, unknown>,
  parent: string | undefined,
  index: number,
) {
  const siblings = ordered(doc, name, parent);
  const entity = new Y.Map<unknown>();
  for (const [key, value] of Object.entries(values)) entity.set(key, value);
  entity.set('order', orderAt(siblings, index));
  table(doc, name).set(id, entity);
  return id;
}

export function move(doc: Y.Doc, name: Table, id: string, index: number, parent?: string) {
  const entity = need(doc, name, id, 'item');
  const parentField = PARENT_FIELD[name];
  const target = parent ?? (parentField ? (entity.get(parentField) as string) : undefined);
  const siblings = ordered(doc, name, target).filter((s) => s.id !== id);
  if (parentField && parent !== undefined) entity.set(parentField, parent);
  entity.set('order', orderAt(siblings, index));
}

export function removeChildren(doc: Y.Doc, name: Table, parent: string) {
  for (const child of ordered(doc, name, parent)) table(doc, name).delete(child.id);
}
