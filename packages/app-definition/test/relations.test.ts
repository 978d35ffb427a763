import { describe, expect, it } from 'vitest';
import {
  addCollection,
  addField,
  checkForPublish,
  coerceFieldValue,
  createApp,
  fieldSchema,
  fieldsForFormulas,
  LIMITS,
  readDefinition,
  removeField,
  rollupSource,
  rollupValue,
  setCollectionSharing,
  setField,
} from '../src/index';
import { checkFormula } from '../src/formula/index';
import { idFactory, newDoc } from './support';

const relation = (many = false) =>
  fieldSchema.parse({ id: 'goes', name: 'Goes to', type: 'relation', target: 'events', many });

describe('a relation’s value', () => {
  it('is the linked records’ ids, once each, one at most unless the field links many', () => {
    expect(coerceFieldValue(relation(true), ['e1', 'e2', 'e1'])).toEqual({
      ok: true,
      value: ['e1', 'e2'],
    });
    expect(coerceFieldValue(relation(), 'e1')).toEqual({ ok: true, value: ['e1'] });
    expect(coerceFieldValue(relation(), ['e1', 'e2'])).toEqual({
      ok: false,
      message: 'Goes to links one record: choose one.',
    });
    expect(coerceFieldValue(relation(true), [])).toEqual({ ok: true, value: null });
    expect(coerceFieldValue(relation(true), [1, 2])).toEqual({
      ok: false,
      message: 'Goes to can only link to records.',
    });
    expect(coerceFieldValue(relation(true), ['x'.repeat(65)]).ok).toBe(false);
    const tooMany = Array.from({ length: LIMITS.relationLinks + 1 }, (_, i) => `e${i}`);
    expect(coerceFieldValue(relation(true), tooMany)).toEqual({
      ok: false,
      message: `Link at most ${LIMITS.relationLinks} records in Goes to.`,
    });
  });

  it('is never typed into a rollup', () => {
    const rollup = fieldSchema.parse({ id: 'n', name: 'Count', type: 'rollup', through: 'goes' });
    expect(coerceFieldValue(rollup, 3)).toEqual({
      ok: false,
      message: 'Count is worked out from its linked records.',
    });
  });
});

describe('rollups', () => {
  const events = {
    id: 'events',
    name: 'Events',
    fields: [
      fieldSchema.parse({ id: 'name', name: 'Name', type: 'text' }),
      fieldSchema.parse({ id: 'day', name: 'Day', type: 'date' }),
      fieldSchema.parse({ id: 'price', name: 'Price', type: 'currency' }),
    ],
  };
  const guests = {
    id: 'guests',
    name: 'Guests',
    fields: [relation(true), fieldSchema.parse({ id: 'fee', name: 'Fee', type: 'currency' })],
  };
  const collections = [events, guests];
  const rollup = (props: object) =>
    fieldSchema.parse({ id: 'r', name: 'Total', type: 'rollup', ...props });

  it('reads a relation of its own collection, or one of another collection linking here', () => {
    const forward = rollupSource(
      collections,
      guests,
      rollup({ through: 'goes', aggregate: 'sum', aggregateFieldId: 'price' }),
    );
    expect(forward).toMatchObject({ reverse: false, linked: events, valueType: 'currency' });
    const reverse = rollupSource(
      collections,
      events,
      rollup({
        through: 'goes',
        throughCollection: 'guests',
        aggregate: 'average',
        aggregateFieldId: 'fee',
      }),
    );
    expect(reverse).toMatchObject({ reverse: true, linked: guests, valueType: 'currency' });
  });

  it('says what is wrong: no relation, a relation not linking here, a field that can’t add up', () => {
    expect(rollupSource(collections, events, rollup({ through: 'nothing' }))).toEqual({
      problem: 'Choose the relation Total works out over.',
    });
    expect(
      rollupSource(collections, guests, rollup({ through: 'goes', throughCollection: 'guests' })),
    ).toMatchObject({ reverse: false });
    const other = { id: 'other', name: 'Other', fields: [] };
    expect(
      rollupSource(
        [...collections, other],
        other,
        rollup({ through: 'goes', throughCollection: 'guests' }),
      ),
    ).toEqual({ problem: 'Goes to in Guests doesn’t link to Other.' });
    expect(
      rollupSource(
        collections,
        guests,
        rollup({ through: 'goes', aggregate: 'sum', aggregateFieldId: 'name' }),
      ),
    ).toEqual({ problem: 'Total can’t add up Name: choose a number, amount or date.' });
    expect(
      rollupSource(
        collections,
        guests,
        rollup({ through: 'goes', aggregate: 'max', aggregateFieldId: 'day' }),
      ),
    ).toMatchObject({ valueType: 'date' });
  });

  it('works out counts, sums, averages, extremes and the latest, leaving empty values out', () => {
    expect(rollupValue('count', [1, null, 3])).toBe(3);
    expect(rollupValue('sum', [])).toBe(0);
    expect(rollupValue('sum', [0.1, 0.2, null], 'currency')).toBe(0.3);
    expect(rollupValue('average', [1, 2, null, 6])).toBe(3);
    expect(rollupValue('average', [null])).toBeNull();
    expect(rollupValue('min', ['2026-05-02', '2026-01-09', null])).toBe('2026-01-09');
    expect(rollupValue('max', [4, 9, 2])).toBe(9);
    expect(rollupValue('latest', ['a', 'b', null, ''])).toBe('b');
    expect(rollupValue('latest', [])).toBeNull();
  });

  it('reaches formulas as the type of value it gives', () => {
    const withRollups = {
      ...events,
      fields: [
        ...events.fields,
        rollup({
          id: 'r',
          name: 'Fees',
          through: 'goes',
          throughCollection: 'guests',
          aggregate: 'sum',
          aggregateFieldId: 'fee',
        }),
      ],
    };
    const fields = fieldsForFormulas([withRollups, guests], withRollups);
    expect(checkFormula('{Fees} * 2', fields)).toMatchObject({ ok: true, type: 'number' });
    expect(checkFormula('UPPER({Fees})', fields).ok).toBe(false);
  });
});

describe('publishing an app with relations', () => {
  function guestList() {
    const doc = newDoc();
    const id = idFactory();
    createApp(doc, id, { title: 'Guests' });
    const events = addCollection(doc, id, 'Events');
    addField(doc, id, events, { name: 'Name', type: 'text' });
    const guests = addField(doc, id, addCollection(doc, id, 'Guests'), {
      name: 'Goes to',
      type: 'relation',
      target: events,
      many: true,
    });
    const count = addField(doc, id, events, {
      name: 'Guests',
      type: 'rollup',
      through: guests,
      throughCollection: readDefinition(doc).collections[1]!.id,
    });
    return { doc, events, guests, count };
  }

  it('publishes relations and rollups that fit together, settings kept', () => {
    const { doc } = guestList();
    const check = checkForPublish(doc);
    expect(check.ok).toBe(true);
    if (check.ok) {
      expect(check.definition.collections[1]!.fields[0]).toMatchObject({ many: true });
      expect(check.definition.collections[0]!.fields[1]).toMatchObject({ type: 'rollup' });
    }
  });

  it('refuses a rollup whose relation was deleted, and a relation into a shared collection', () => {
    const { doc, guests } = guestList();
    removeField(doc, guests);
    let check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.problems.map((p) => p.message)).toEqual([
        'Choose the relation Guests works out over.',
      ]);
    const fresh = guestList();
    setCollectionSharing(fresh.doc, fresh.events, { sharing: 'space' });
    check = checkForPublish(fresh.doc);
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.problems.map((p) => p.message)).toContain(
        'Goes to links Guests to Events, but only one of them is shared in a space: share both or neither.',
      );
  });

  it('takes a setting off when it is set to null', () => {
    const { doc, count } = guestList();
    setField(doc, count, { throughCollection: null });
    const field = readDefinition(doc).collections[0]!.fields[1]!;
    expect(field).not.toHaveProperty('throughCollection');
  });
});
