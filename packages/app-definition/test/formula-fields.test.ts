import { describe, expect, it } from 'vitest';
import {
  addCollection,
  addField,
  checkForPublish,
  createApp,
  readDefinition,
  renameField,
  setField,
} from '../src/index';
import { idFactory, newDoc } from './support';

function budget() {
  const doc = newDoc();
  const newId = idFactory();
  createApp(doc, newId, { title: 'Budget' });
  const collection = addCollection(doc, newId, 'Costs');
  const price = addField(doc, newId, collection, { name: 'Price', type: 'currency' });
  const count = addField(doc, newId, collection, { name: 'Count', type: 'number' });
  const total = addField(doc, newId, collection, {
    name: 'Total',
    type: 'formula',
    formula: '{Price} * {count}',
  });
  const stars = addField(doc, newId, collection, { name: 'Stars', type: 'rating', scale: 4 });
  return { doc, price, count, total, stars };
}

const formulaOf = (doc: ReturnType<typeof newDoc>, id: string) =>
  readDefinition(doc).collections[0]?.fields.find((f) => f.id === id)?.formula;

describe('formula fields in the document', () => {
  it('publish with their formula and a rating with its scale; other fields carry neither', () => {
    const { doc } = budget();
    const check = checkForPublish(doc);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    const [price, , total, stars] = check.definition.collections[0]!.fields;
    expect(total).toMatchObject({ type: 'formula', formula: '{Price} * {count}' });
    expect(stars).toMatchObject({ type: 'rating', scale: 4 });
    expect(price).not.toHaveProperty('formula');
    expect(price).not.toHaveProperty('scale');
  });

  it('keep working when a field they name is renamed: the formula follows, in one change', () => {
    const { doc, price, count, total } = budget();
    renameField(doc, price, 'Unit price');
    renameField(doc, count, 'Quantity');
    expect(formulaOf(doc, total)).toBe('{Unit price} * {Quantity}');
    expect(checkForPublish(doc).ok).toBe(true);
  });

  it('block publishing when they can’t be worked out, saying which and why', () => {
    const { doc, total } = budget();
    setField(doc, total, { formula: '{Prise} * 2' });
    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toEqual([
      {
        path: 'collections.0.fields.2.formula',
        message: expect.stringMatching(/^The formula of Total can’t be worked out: .*\{Prise\}/),
        entity: { table: 'fields', id: total },
      },
    ]);
  });

  it('block publishing when two formulas need each other', () => {
    const { doc, price } = budget();
    setField(doc, price, { type: 'formula', formula: '{Total} + 1' });
    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.problems.map((p) => p.path).sort()).toEqual([
        'collections.0.fields.0.formula',
        'collections.0.fields.2.formula',
      ]);
  });
});
