import { readVisitorData } from '@pipit/app-definition';
import type { RuntimeData } from '@pipit/runtime';
import type * as Y from 'yjs';
import { type DataOperations, REFUSE_WRITES } from './visitor-data-view';

/**
 * A visitor's data drawn from a document of this device before its store opened (an installed app
 * opens it ahead and draws it with its first render, visitor-data.ts `beforeStore`), and the store
 * taking that very object over when nothing changed in between: the app's tree, the page's largest,
 * then has nothing new to render when the store arrives (issue 18: it rendered it all again, one
 * long task on a phone). One drawing per document while the document is unchanged.
 */

interface Drawing {
  data: RuntimeData;
  /** Where the drawn data's writes go: the store that took it over. */
  writes: DataOperations;
  /** The document changed after it was read: this drawing is out of date. */
  changed: boolean;
}

const drawings = new WeakMap<Y.Doc, Drawing>();

/** The visitor's data as the document holds it now: the same object while it is unchanged. */
export function drawnData(doc: Y.Doc): RuntimeData {
  const known = drawings.get(doc);
  if (known && !known.changed) return known.data;
  const drawing = { writes: REFUSE_WRITES, changed: false } as Drawing;
  drawing.data = {
    ...readVisitorData(doc),
    create: (collection, values) => drawing.writes.create(collection, values),
    update: (collection, recordId, values) => drawing.writes.update(collection, recordId, values),
    remove: (recordId) => drawing.writes.remove(recordId),
    setCounter: (counterId, value) => drawing.writes.setCounter(counterId, value),
  };
  const onTransaction = (transaction: Y.Transaction) => {
    if (transaction.changed.size === 0) return;
    drawing.changed = true;
    doc.off('afterTransaction', onTransaction);
  };
  doc.on('afterTransaction', onTransaction);
  drawings.set(doc, drawing);
  return drawing.data;
}

export interface TakenOver {
  /** The object drawn: the store shows it until the document changes. */
  data: RuntimeData;
  /** The drawn object's writes are refused again (the store closed). */
  release(): void;
}

/**
 * The data drawn from `doc` if the document has not changed since, its writes going to `writes`
 * from now on; null when nothing was drawn or the document moved on (the store reads it afresh).
 */
export function takeOver(doc: Y.Doc, writes: DataOperations): TakenOver | null {
  const drawing = drawings.get(doc);
  if (!drawing || drawing.changed) return null;
  drawing.writes = writes;
  return {
    data: drawing.data,
    release: () => {
      if (drawing.writes === writes) drawing.writes = REFUSE_WRITES;
    },
  };
}
