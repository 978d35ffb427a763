import { describe, expect, it } from 'vitest';
import type * as Y from 'yjs';
import {
  addCollection,
  addField,
  addReminder,
  checkForPublish,
  createApp,
  type PublishProblem,
  readDefinition,
  removeCollection,
  removeField,
  type ReminderSchedule,
  setReminder,
} from '../src/index';
import { idFactory, newDoc } from './support';

/** A task list with a due date, a done box and a stock count, and nothing else to complain about. */
function app() {
  const doc = newDoc();
  const newId = idFactory();
  createApp(doc, newId, { title: 'Tasks' });
  const tasks = addCollection(doc, newId, 'Tasks');
  const name = addField(doc, newId, tasks, { name: 'Name', type: 'text' });
  const due = addField(doc, newId, tasks, { name: 'Due', type: 'date' });
  const at = addField(doc, newId, tasks, { name: 'Starts', type: 'dateTime' });
  const stock = addField(doc, newId, tasks, { name: 'Stock', type: 'number' });
  const other = addCollection(doc, newId, 'Notes');
  const written = addField(doc, newId, other, { name: 'Written', type: 'date' });
  return { doc, newId, tasks, name, due, at, stock, other, written };
}

function problemsOf(doc: Parameters<typeof checkForPublish>[0]): PublishProblem[] {
  const check = checkForPublish(doc);
  return check.ok ? [] : check.problems;
}

describe('checkForPublish, reminders', () => {
  it('passes reminders of every kind that point at what exists', () => {
    const { doc, newId, tasks, due, at } = app();
    const schedules: ReminderSchedule[] = [
      { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
      { kind: 'recordDay', collectionId: tasks, fieldId: due, days: -1, time: '09:00' },
      { kind: 'recordTime', collectionId: tasks, fieldId: at, minutes: -60 },
      { kind: 'recordTime', collectionId: tasks, fieldId: due, minutes: 0 },
      { kind: 'formula', collectionId: tasks, formula: '{Stock} < 3', days: [1], time: '08:00' },
    ];
    for (const schedule of schedules) addReminder(doc, newId, { title: 'Remind', schedule });
    const check = checkForPublish(doc);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.definition.reminders).toEqual(readDefinition(doc).reminders);
  });

  it('points at a reminder whose field was deleted, and at one whose collection was', () => {
    const { doc, newId, tasks, due, other, written } = app();
    const first = addReminder(doc, newId, {
      title: 'Due soon',
      schedule: { kind: 'recordDay', collectionId: tasks, fieldId: due, days: 0, time: '09:00' },
    });
    const second = addReminder(doc, newId, {
      title: 'Write',
      schedule: { kind: 'recordTime', collectionId: other, fieldId: written, minutes: 0 },
    });
    removeField(doc, due);
    removeCollection(doc, other);
    expect(problemsOf(doc)).toEqual([
      {
        path: 'reminders.0.schedule.fieldId',
        message:
          'Reminder “Due soon” counts from a field that no longer exists. Choose one of Tasks’s date fields, or remove the reminder.',
        entity: { table: 'reminders', id: first },
      },
      {
        path: 'reminders.1.schedule.collectionId',
        message:
          'Reminder “Write” is about a collection that no longer exists. Choose another one, or remove the reminder.',
        entity: { table: 'reminders', id: second },
      },
    ]);
  });

  it('refuses a field that holds no date, and a field of another collection', () => {
    const { doc, newId, tasks, name, written } = app();
    addReminder(doc, newId, {
      title: 'Named',
      schedule: { kind: 'recordTime', collectionId: tasks, fieldId: name, minutes: 0 },
    });
    addReminder(doc, newId, {
      title: 'Mixed',
      schedule: {
        kind: 'recordDay',
        collectionId: tasks,
        fieldId: written,
        days: 0,
        time: '09:00',
      },
    });
    expect(problemsOf(doc).map((p) => [p.path, p.message])).toEqual([
      [
        'reminders.0.schedule.fieldId',
        'Reminder “Named” counts from Name, which holds no date. Choose a date or date-and-time field.',
      ],
      [
        'reminders.1.schedule.fieldId',
        'Reminder “Mixed” counts from a field of another collection. Choose one of Tasks’s date fields.',
      ],
    ]);
  });

  it('refuses a formula that does not parse, names an unknown field, or is not a yes or no', () => {
    const { doc, newId, tasks } = app();
    const formula = (text: string): ReminderSchedule => ({
      kind: 'formula',
      collectionId: tasks,
      formula: text,
      days: [1],
      time: '08:00',
    });
    addReminder(doc, newId, { title: 'Broken', schedule: formula('{Stock} <') });
    addReminder(doc, newId, { title: 'Unknown', schedule: formula('{Stok} < 3') });
    addReminder(doc, newId, { title: 'Number', schedule: formula('{Stock} + 1') });
    const problems = problemsOf(doc);
    expect(problems.map((p) => p.path)).toEqual([
      'reminders.0.schedule.formula',
      'reminders.1.schedule.formula',
      'reminders.2.schedule.formula',
    ]);
    expect(problems[0]!.message).toMatch(/^The formula of reminder “Broken” can’t be worked out: /);
    expect(problems[1]!.message).toMatch(/can’t be worked out: .*\{Stok\}/);
    expect(problems[2]!.message).toBe(
      'The formula of reminder “Number” must say yes or no for each record of Tasks, like {Stock} < 3.',
    );
  });

  it('reports a reminder past what the schema allows, as a schema problem at its place', () => {
    const { doc, newId } = app();
    const id = addReminder(doc, newId, { title: 'Fine' });
    doc.getMap<Y.Map<unknown>>('reminders').get(id)!.set('title', '');
    expect(problemsOf(doc)).toEqual([
      {
        path: 'reminders.0.title',
        message: 'Give the reminder a title.',
        entity: { table: 'reminders', id },
      },
    ]);
    setReminder(doc, id, { title: 'Fixed' });
    expect(checkForPublish(doc).ok).toBe(true);
  });
});
