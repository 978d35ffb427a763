import {
  APP_TEMPLATES,
  createVisitorRecord,
  type ReadDefinition,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
} from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { drawnData, takeOver } from './document-store';
import { type DataOperations, STILL_LOADING } from './view';

/*
 * An installed app draws the visitor's data from this device with its first render, before the
 * data's store opens; the store then takes over that very object when the document is unchanged
 * (so the app has nothing new to render), and the object's writes go to the store from then on.
 */

const template = APP_TEMPLATES.find((t) => t.id === 'household-shopping-list');
if (!template) throw new Error('the household shopping list template is missing');
const definition = template.build() as unknown as ReadDefinition;
const items = definition.collections[0]!;
const itemName = items.fields[0]!.id;

/** A store's writes on `doc`, as visitor-data.ts makes them. */
function writesOn(doc: Y.Doc): DataOperations {
  return {
    create: (collection, values) => createVisitorRecord(doc, collection, values),
    update: (collection, recordId, values) =>
      updateVisitorRecord(doc, collection, recordId, values),
    remove: (recordId) => void removeVisitorRecord(doc, recordId),
    setCounter: (counterId, value) => setCounter(doc, counterId, value),
  };
}

function withMilk(): Y.Doc {
  const doc = new Y.Doc();
  createVisitorRecord(doc, items, { [itemName]: 'Milk' });
  return doc;
}

/** The items' names as drawn now, in alphabetical order (the order of records is not the point). */
const names = (doc: Y.Doc) =>
  drawnData(doc)
    .records.map((r) => String(r.values[itemName]))
    .sort();

describe('the data drawn before its store opens', () => {
  it('is one object while the document is unchanged, and refuses writes until a store has it', () => {
    const doc = withMilk();
    const drawn = drawnData(doc);
    expect(drawnData(doc)).toBe(drawn);
    expect(names(doc)).toEqual(['Milk']);
    expect(() => drawn.create(items, { [itemName]: 'Tea' })).toThrow(STILL_LOADING);
    // Refused means unchanged: the document holds what it held.
    expect(drawnData(doc)).toBe(drawn);
    expect(names(doc)).toEqual(['Milk']);
  });

  it('is taken over as it is, its writes going to the store', () => {
    const doc = withMilk();
    const drawn = drawnData(doc);
    const taken = takeOver(doc, writesOn(doc));
    expect(taken?.data).toBe(drawn);

    const id = drawn.create(items, { [itemName]: 'Tea' });
    expect(typeof id).toBe('string');
    // The document moved on: what is drawn next is read afresh, with the write in it.
    const next = drawnData(doc);
    expect(next).not.toBe(drawn);
    expect(names(doc)).toEqual(['Milk', 'Tea']);
    // A write through the first object still goes to the store that took it over.
    drawn.remove(id);
    expect(names(doc)).toEqual(['Milk']);
  });

  it('is not taken over once the document changed after it was drawn', () => {
    const doc = withMilk();
    drawnData(doc);
    createVisitorRecord(doc, items, { [itemName]: 'Eggs' });
    expect(takeOver(doc, writesOn(doc))).toBeNull();
    // Nothing was drawn from a document never drawn.
    expect(takeOver(new Y.Doc(), writesOn(doc))).toBeNull();
  });

  it('stays current through a transaction that changed nothing', () => {
    const doc = withMilk();
    const drawn = drawnData(doc);
    doc.transact(() => undefined);
    expect(drawnData(doc)).toBe(drawn);
    expect(takeOver(doc, writesOn(doc))?.data).toBe(drawn);
  });

  it('refuses writes again when its store lets go, unless another store took it over since', () => {
    const doc = withMilk();
    const drawn = drawnData(doc);
    const first = takeOver(doc, writesOn(doc))!;
    first.release();
    expect(() => drawn.create(items, { [itemName]: 'Tea' })).toThrow(STILL_LOADING);

    const second = takeOver(doc, writesOn(doc))!;
    first.release(); // late: the second store has it
    expect(second.data).toBe(drawn);
    drawn.create(items, { [itemName]: 'Tea' });
    expect(names(doc)).toEqual(['Milk', 'Tea']);
  });
});
