import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  addReminder,
  appDefinitionSchema,
  applyDefinition,
  blankDefinition,
  createApp,
  DefinitionError,
  LIMITS,
  migrateDefinition,
  moveReminder,
  readDefinition,
  type RecordDaySchedule,
  type Reminder,
  removeReminder,
  setReminder,
  type WeeklySchedule,
  writeDefinition,
} from '../src/index';
import { idFactory, newDoc } from './support';

const everyDay: WeeklySchedule = { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' };
const dayBefore: RecordDaySchedule = {
  kind: 'recordDay',
  collectionId: 'c1',
  fieldId: 'f1',
  days: -1,
  time: '09:00',
};
const daily: Reminder = {
  id: 'r1',
  title: 'Log your habits',
  body: 'Did you log today’s habits?',
  schedule: everyDay,
};
const beforeDue: Reminder = { id: 'r2', title: 'Due tomorrow', body: '', schedule: dayBefore };

function app() {
  const doc = newDoc();
  const newId = idFactory();
  createApp(doc, newId, { title: 'Habits' });
  return { doc, newId };
}

describe('reminders in the definition schema', () => {
  it('reads a definition saved before reminders as having none', () => {
    const { reminders: _none, ...older } = blankDefinition('Old');
    const parsed = appDefinitionSchema.parse(older);
    expect(parsed.reminders).toEqual([]);
  });

  it('fills in no reminders when a definition without them is brought forward', () => {
    const { reminders: _none, ...older } = blankDefinition('Old');
    expect((migrateDefinition(older) as { reminders: unknown }).reminders).toEqual([]);
    const kept = migrateDefinition({ ...older, reminders: [daily] }) as { reminders: unknown };
    expect(kept.reminders).toEqual([daily]);
  });

  it(`refuses more than ${LIMITS.reminders} reminders, with a clear message`, () => {
    const many = Array.from({ length: LIMITS.reminders + 1 }, (_, i) => ({
      ...daily,
      id: `r${i}`,
    }));
    const result = appDefinitionSchema.safeParse({ ...blankDefinition('Many'), reminders: many });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(`Use at most ${LIMITS.reminders} reminders.`);
    const fits = many.slice(0, LIMITS.reminders);
    expect(
      appDefinitionSchema.safeParse({ ...blankDefinition('Fits'), reminders: fits }).success,
    ).toBe(true);
  });

  it('refuses a reminder with a bad schedule', () => {
    const bad = { ...daily, schedule: { kind: 'weekly', days: [], time: '20:00' } };
    const result = appDefinitionSchema.safeParse({ ...blankDefinition('Bad'), reminders: [bad] });
    expect(result.error?.issues[0]?.message).toBe('Choose at least one day.');
  });
});

describe('reminders in the document', () => {
  it('writes and reads the same reminders, in order', () => {
    const definition = { ...blankDefinition('Habits'), reminders: [daily, beforeDue] };
    const doc = newDoc();
    writeDefinition(doc, definition);
    expect(readDefinition(doc).reminders).toEqual([daily, beforeDue]);
    expect(readDefinition(doc)).toEqual(appDefinitionSchema.parse(readDefinition(doc)));
  });

  it('applies added, changed and removed reminders with the fewest changes', () => {
    const doc = newDoc();
    writeDefinition(doc, { ...blankDefinition('Habits'), reminders: [daily, beforeDue] });
    const changed = { ...daily, title: 'Habits time', schedule: { ...everyDay, time: '21:00' } };
    const target = { ...readDefinition(doc), reminders: [beforeDue, changed] };
    applyDefinition(doc, target);
    expect(readDefinition(doc).reminders).toEqual([beforeDue, changed]);
    applyDefinition(doc, { ...target, reminders: [] });
    expect(readDefinition(doc).reminders).toEqual([]);
  });

  it('leaves out a malformed reminder from a merged document, keeping the others', () => {
    const doc = newDoc();
    writeDefinition(doc, { ...blankDefinition('Habits'), reminders: [daily, beforeDue] });
    const table = doc.getMap<Y.Map<unknown>>('reminders');
    table.get('r1')!.set('schedule', { kind: 'hourly', every: 2 });
    const orphan = new Y.Map<unknown>();
    orphan.set('title', 42);
    orphan.set('order', 'a9');
    table.set('r3', orphan);
    table.set('r4', 'not a map' as unknown as Y.Map<unknown>);
    const read = readDefinition(doc);
    expect(read.reminders).toEqual([beforeDue]);
    expect(appDefinitionSchema.safeParse(read).success).toBe(true);
  });

  it('reads at most the limit of reminders from a merged document', () => {
    const doc = newDoc();
    const many = Array.from({ length: LIMITS.reminders + 3 }, (_, i) => ({
      ...daily,
      id: `r${String(i).padStart(2, '0')}`,
    }));
    // Two peers adding concurrently can go past the limit; writeDefinition does not check it.
    writeDefinition(doc, { ...blankDefinition('Habits'), reminders: many });
    expect(readDefinition(doc).reminders.map((r) => r.id)).toEqual(
      many.slice(0, LIMITS.reminders).map((r) => r.id),
    );
  });
});

describe('reminder operations', () => {
  it('adds a reminder every day at 20:00 by default, and one with its own schedule', () => {
    const { doc, newId } = app();
    const first = addReminder(doc, newId);
    const second = addReminder(doc, newId, { title: 'Due', schedule: beforeDue.schedule });
    expect(readDefinition(doc).reminders).toEqual([
      { id: first, title: 'Reminder', body: '', schedule: daily.schedule },
      { id: second, title: 'Due', body: '', schedule: beforeDue.schedule },
    ]);
  });

  it('sets a property at a time and refuses a bad one with the schema’s message', () => {
    const { doc, newId } = app();
    const id = addReminder(doc, newId, { title: 'Log' });
    setReminder(doc, id, { body: 'Tap to log', schedule: { ...everyDay, time: '07:30' } });
    expect(readDefinition(doc).reminders[0]).toMatchObject({
      title: 'Log',
      body: 'Tap to log',
      schedule: { kind: 'weekly', time: '07:30' },
    });
    expect(() => setReminder(doc, id, { title: '  ' })).toThrow('Give the reminder a title.');
    expect(() => setReminder(doc, id, { schedule: { ...everyDay, time: '25:00' } })).toThrow(
      'Pick a time between 00:00 and 23:59, written like 07:30.',
    );
    expect(() => setReminder(doc, id, { id: 'x' } as never)).toThrow('A reminder has no “id”.');
    expect(() => setReminder(doc, id, { constructor: 'x' } as never)).toThrow(
      'A reminder has no “constructor”.',
    );
    expect(readDefinition(doc).reminders[0]!.title).toBe('Log');
  });

  it('refuses a bad new reminder and one past the limit', () => {
    const { doc, newId } = app();
    expect(() => addReminder(doc, newId, { schedule: { ...dayBefore, days: 400 } })).toThrow(
      'Remind at most 365 days after the date.',
    );
    for (let i = 0; i < LIMITS.reminders; i++) addReminder(doc, newId);
    expect(() => addReminder(doc, newId)).toThrow(DefinitionError);
    expect(() => addReminder(doc, newId)).toThrow(
      `An app can have at most ${LIMITS.reminders} reminders.`,
    );
  });

  it('moves and removes reminders, and says when one no longer exists', () => {
    const { doc, newId } = app();
    const a = addReminder(doc, newId, { title: 'A' });
    const b = addReminder(doc, newId, { title: 'B' });
    const c = addReminder(doc, newId, { title: 'C' });
    moveReminder(doc, c, 0);
    expect(readDefinition(doc).reminders.map((r) => r.id)).toEqual([c, a, b]);
    removeReminder(doc, a);
    expect(readDefinition(doc).reminders.map((r) => r.id)).toEqual([c, b]);
    expect(() => removeReminder(doc, a)).toThrow('That reminder no longer exists.');
    expect(() => setReminder(doc, a, { title: 'Back' })).toThrow('That reminder no longer exists.');
  });
});
