import type * as Y from 'yjs';
import { appMap, type Entity, metaMap, table, type Table, TABLES, themeMap } from './document';
import { type AppIcon, appIconSchema } from '../schema/meta';

/*
 * What code outside this package may know of the documents' layout (the lint rule in
 * eslint.config.mjs keeps `getMap` inside the package): whether an app document holds a
 * definition, its listing, the shared types an UndoManager follows, and the map of a person's
 * library in their `user/{userId}` document.
 */

/** Whether the app document holds a definition yet (it is empty until its first sync or creation). */
export function hasDefinition(doc: Y.Doc): boolean {
  return appMap(doc).has('schemaVersion');
}

/**
 * The shared types that hold what a creator edits (meta, theme and every entity table): the scope
 * of an undo manager, in a fixed order.
 */
export function undoRoots(doc: Y.Doc): Array<Y.Map<unknown> | Y.Map<Entity>> {
  return [metaMap(doc), themeMap(doc), ...TABLES.map((name) => table(doc, name))];
}

/** How an app list shows an app: read straight from the document, without a full read. */
export interface AppListing {
  title: string;
  /** '' when the document has none. */
  description: string;
  /** null when the document's icon is missing or not a valid icon. */
  icon: AppIcon | null;
}

/** The app's listing, or null while the document has no title (no definition yet). */
export function appListing(doc: Y.Doc): AppListing | null {
  const meta = metaMap(doc);
  const title = meta.get('title');
  if (typeof title !== 'string') return null;
  const description = meta.get('description');
  const icon = appIconSchema.safeParse(meta.get('icon'));
  return {
    title,
    description: typeof description === 'string' ? description : '',
    icon: icon.success ? icon.data : null,
  };
}

/** How many entities a table of the app document holds (whatever their shape). */
export function entityCount(doc: Y.Doc, name: Table): number {
  return table(doc, name).size;
}

/** The map of a person's library in their `user/{userId}` document, keyed by app id. */
export function libraryMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap<unknown>('library');
}
