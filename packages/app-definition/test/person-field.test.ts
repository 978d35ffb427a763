import { describe, expect, it } from 'vitest';
import {
  addCollection,
  addField,
  aiRecordSchema,
  checkForPublish,
  coerceFieldValue,
  createApp,
  fieldSchema,
  personName,
  setCollectionSharing,
  TYPED_FIELD_TYPES,
} from '../src/index';
import { recordsToCsv } from '../src/csv/index';
import { idFactory, newDoc } from './support';

const ANA = 'anaaaaaaaaaaaaaaaaaaaaaaaa';
const person = (required = false) =>
  fieldSchema.parse({ id: 'who', name: 'Assigned to', type: 'person', required });

describe('a person field’s value', () => {
  it('is one account id, trimmed', () => {
    expect(coerceFieldValue(person(), ANA)).toEqual({ ok: true, value: ANA });
    expect(coerceFieldValue(person(), `  ${ANA} `)).toEqual({ ok: true, value: ANA });
  });

  it('is empty when nobody is chosen, or asks for someone when the field is required', () => {
    expect(coerceFieldValue(person(), '')).toEqual({ ok: true, value: null });
    expect(coerceFieldValue(person(), null)).toEqual({ ok: true, value: null });
    expect(coerceFieldValue(person(true), '')).toEqual({
      ok: false,
      message: 'Fill in Assigned to.',
    });
  });

  it('refuses what can’t be an account id: a name, a list, a number, a long text', () => {
    const refused = { ok: false, message: 'Choose someone for Assigned to.' };
    expect(coerceFieldValue(person(), 'Ana Lopez')).toEqual(refused);
    expect(coerceFieldValue(person(), 'x'.repeat(65))).toEqual(refused);
    expect(coerceFieldValue(person(), 'a<b')).toEqual(refused);
    expect(coerceFieldValue(person(), 42)).toEqual(refused);
    expect(coerceFieldValue(person(), true)).toEqual(refused);
    expect(coerceFieldValue(person(), [ANA])).toEqual({
      ok: false,
      message: 'Assigned to holds one value, not a list.',
    });
  });
});

describe('a person’s name', () => {
  const people = [{ id: ANA, name: 'Ana' }];
  it('is the name the space knows them by, a former member once they left', () => {
    expect(personName(ANA, people)).toBe('Ana');
    expect(personName('someoneelse', people)).toBe('a former member');
  });
  it('is not known while the space’s people aren’t', () => {
    expect(personName(ANA, undefined)).toBeNull();
  });
});

describe('publishing a person field', () => {
  function chores() {
    const doc = newDoc();
    const id = idFactory();
    createApp(doc, id, { title: 'Chores' });
    const collection = addCollection(doc, id, 'Chores');
    addField(doc, id, collection, { name: 'Chore', type: 'text' });
    addField(doc, id, collection, { name: 'Assigned to', type: 'person' });
    return { doc, collection };
  }

  it('refuses one in a collection kept in each visitor’s own data', () => {
    const { doc } = chores();
    const check = checkForPublish(doc);
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.problems.map((p) => p.message)).toEqual([
        'Assigned to picks someone in a shared space, but Chores isn’t shared: share it in a space, or give Assigned to another type.',
      ]);
  });

  it('publishes one in a collection shared in a space', () => {
    const { doc, collection } = chores();
    setCollectionSharing(doc, collection, { sharing: 'space' });
    const check = checkForPublish(doc);
    expect(check.ok ? [] : check.problems).toEqual([]);
  });
});

describe('where a person is never made up or written out', () => {
  it('is not a type AI answers or samples fill', () => {
    expect(TYPED_FIELD_TYPES).not.toContain('person');
    const schema = aiRecordSchema({
      fields: [fieldSchema.parse({ id: 'title', name: 'Title', type: 'text' }), person()],
    });
    expect(Object.keys(schema.shape)).toEqual(['title']);
  });

  it('is left out of a CSV export: a name can’t say which account it is', () => {
    const csv = recordsToCsv(
      [{ id: 'title', name: 'Chore', type: 'text' }, person()],
      [{ values: { title: 'Bins', who: ANA } }],
      { today: '2026-03-01', now: Date.UTC(2026, 2, 1), timeZone: 'UTC' },
    );
    expect(csv).toBe('\uFEFFChore\r\nBins\r\n');
  });
});
