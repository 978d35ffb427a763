import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  type AiEdit,
  aiEditsModelSchema,
  applyEdits,
  type Blueprint,
  blueprintSchema,
  checkForPublish,
  editableStructure,
  expandBlueprint,
  LIMITS,
  LOCAL_EDIT,
  parseModelEdits,
  readDefinition,
  summarizeEdits,
  validateEdits,
  writeDefinition,
} from '../src/index';
import { idFactory } from './support';

const habits: Blueprint = {
  title: 'Habits',
  description: 'Track your daily habits.',
  icon: '✅',
  theme: { preset: 'meadow', accent: '' },
  collections: [
    {
      name: 'Habits',
      fields: [
        { name: 'Name', type: 'text', required: true, choices: [] },
        { name: 'Done', type: 'boolean', required: false, choices: [] },
        { name: 'Day', type: 'date', required: false, choices: [] },
      ],
      samples: [],
    },
  ],
  screens: [
    { title: 'Today', icon: '✅', kind: 'list', collection: 'Habits', text: '', components: [] },
  ],
  actions: [],
};

function setup() {
  const definition = expandBlueprint(habits, idFactory('b'));
  const doc = new Y.Doc();
  writeDefinition(doc, definition);
  const collection = definition.collections[0]!;
  const field = (name: string) => collection.fields.find((f) => f.name === name)!.id;
  return { definition, doc, collection, field };
}

describe('AI edits of reminders', () => {
  it('adds a daily reminder, says so in words, and applies it', () => {
    const { doc } = setup();
    const ops: AiEdit[] = [
      {
        op: 'addReminder',
        ref: 'daily',
        title: 'Log your habits',
        body: 'Did you log today’s habits?',
        schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
      },
    ];
    expect(validateEdits(doc, ops)).toEqual([]);
    expect(summarizeEdits(doc, ops)).toEqual([
      'Add reminder “Log your habits”: every day at 20:00',
    ]);
    applyEdits(doc, ops, idFactory('new'), LOCAL_EDIT);
    expect(readDefinition(doc).reminders).toEqual([
      {
        id: 'new1',
        title: 'Log your habits',
        body: 'Did you log today’s habits?',
        schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
      },
    ]);
    expect(checkForPublish(doc).ok).toBe(true);
  });

  it('points a reminder at a collection and field made earlier in the list, by their refs', () => {
    const { doc } = setup();
    const ops: AiEdit[] = [
      { op: 'addCollection', ref: 'tasks', name: 'Tasks' },
      {
        op: 'addField',
        ref: 'due',
        collectionId: 'tasks',
        name: 'Due',
        type: 'date',
        required: false,
        choices: [],
      },
      {
        op: 'addReminder',
        ref: 'soon',
        title: 'Due tomorrow',
        body: '',
        schedule: {
          kind: 'recordDay',
          collectionId: 'tasks',
          fieldId: 'due',
          days: -1,
          time: '09:00',
        },
      },
    ];
    expect(validateEdits(doc, ops)).toEqual([]);
    expect(summarizeEdits(doc, ops)[2]).toBe(
      'Add reminder “Due tomorrow”: 1 day before Due at 09:00',
    );
    applyEdits(doc, ops, idFactory('new'), LOCAL_EDIT);
    const read = readDefinition(doc);
    const tasks = read.collections.find((c) => c.name === 'Tasks')!;
    expect(read.reminders[0]!.schedule).toEqual({
      kind: 'recordDay',
      collectionId: tasks.id,
      fieldId: tasks.fields.find((f) => f.name === 'Due')!.id,
      days: -1,
      time: '09:00',
    });
  });

  it('changes and removes a reminder by its id', () => {
    const { doc } = setup();
    applyEdits(
      doc,
      [
        {
          op: 'addReminder',
          ref: 'r',
          title: 'Log',
          body: '',
          schedule: { kind: 'weekly', days: [1], time: '20:00' },
        },
      ],
      idFactory('new'),
      LOCAL_EDIT,
    );
    const change: AiEdit[] = [
      {
        op: 'setReminder',
        reminderId: 'new1',
        title: 'Log today',
        schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5], time: '19:30' },
      },
    ];
    expect(summarizeEdits(doc, change)).toEqual([
      'Change reminder “Log”: rename it to “Log today”, remind on Mon, Tue, Wed, Thu, Fri at 19:30',
    ]);
    applyEdits(doc, change, idFactory('x'), LOCAL_EDIT);
    expect(readDefinition(doc).reminders[0]).toMatchObject({
      title: 'Log today',
      schedule: { days: [1, 2, 3, 4, 5], time: '19:30' },
    });
    const remove: AiEdit[] = [{ op: 'removeReminder', reminderId: 'new1' }];
    expect(summarizeEdits(doc, remove)).toEqual(['Remove reminder “Log today”']);
    applyEdits(doc, remove, idFactory('y'), LOCAL_EDIT);
    expect(readDefinition(doc).reminders).toEqual([]);
  });

  it('names what does not fit: a missing reminder, a field with no date, a limit', () => {
    const { doc, collection, field } = setup();
    expect(validateEdits(doc, [{ op: 'removeReminder', reminderId: 'nope' }])).toEqual([
      { path: 'operations.0', message: 'That reminder no longer exists.' },
    ]);
    const onName: AiEdit = {
      op: 'addReminder',
      ref: 'r',
      title: 'Named',
      body: '',
      schedule: {
        kind: 'recordTime',
        collectionId: collection.id,
        fieldId: field('Name'),
        minutes: 0,
      },
    };
    expect(validateEdits(doc, [onName])).toEqual([
      {
        path: 'reminders.0.schedule.fieldId',
        message:
          'Reminder “Named” counts from Name, which holds no date. Choose a date or date-and-time field.',
      },
    ]);
    const many: AiEdit[] = Array.from({ length: LIMITS.reminders + 1 }, (_, i) => ({
      op: 'addReminder',
      ref: `r${i}`,
      title: `Reminder ${i}`,
      body: '',
      schedule: { kind: 'weekly', days: [1], time: '20:00' },
    }));
    expect(validateEdits(doc, many)).toEqual([
      {
        path: `operations.${LIMITS.reminders}`,
        message: `An app can have at most ${LIMITS.reminders} reminders.`,
      },
    ]);
    expect(
      validateEdits(doc, [{ ...onName, schedule: { kind: 'weekly', days: [], time: '20:00' } }]),
    ).toEqual([{ path: 'operations.0.schedule.days', message: 'Choose at least one day.' }]);
  });

  it('shows the model the reminders, and reads its strict answer with a schedule', () => {
    const { doc } = setup();
    applyEdits(
      doc,
      [
        {
          op: 'addReminder',
          ref: 'r',
          title: 'Log',
          body: '',
          schedule: { kind: 'weekly', days: [7], time: '20:00' },
        },
      ],
      idFactory('new'),
      LOCAL_EDIT,
    );
    expect(editableStructure(doc).reminders).toEqual([
      { id: 'new1', title: 'Log', schedule: { kind: 'weekly', days: [7], time: '20:00' } },
    ]);
    const strict = aiEditsModelSchema.parse({
      operations: [
        { op: 'setReminder', reminderId: 'new1', title: null, body: 'Now', schedule: null },
        {
          op: 'addReminder',
          ref: 'x',
          title: 'Due',
          body: '',
          schedule: { kind: 'recordTime', collectionId: 'c', fieldId: 'f', minutes: -60 },
        },
      ],
    });
    expect(parseModelEdits(strict)).toEqual({
      ok: true,
      operations: [
        { op: 'setReminder', reminderId: 'new1', body: 'Now' },
        {
          op: 'addReminder',
          ref: 'x',
          title: 'Due',
          body: '',
          schedule: { kind: 'recordTime', collectionId: 'c', fieldId: 'f', minutes: -60 },
        },
      ],
    });
  });
});

describe('a blueprint’s reminders', () => {
  const reminder = (parts: Partial<NonNullable<Blueprint['reminders']>[number]>) => ({
    title: 'Log your habits',
    text: 'Did you log today’s habits?',
    when: 'everyDay' as const,
    time: '20:00',
    weekday: 1,
    collection: '',
    field: '',
    daysBefore: 0,
    ...parts,
  });

  it('expands every day, weekdays, a weekday and a record’s date to schedules', () => {
    const definition = expandBlueprint(
      blueprintSchema.parse({
        ...habits,
        reminders: [
          reminder({}),
          reminder({ title: 'Work', when: 'weekdays', time: '8:30' }),
          reminder({ title: 'Review', when: 'weekly', weekday: 7 }),
          reminder({
            title: 'Day before',
            when: 'onDate',
            collection: 'Habit',
            field: 'day',
            daysBefore: 1,
            time: '09:00',
          }),
        ],
      }),
      idFactory('b'),
    );
    const habitsCollection = definition.collections[0]!;
    const day = habitsCollection.fields.find((f) => f.name === 'Day')!;
    expect(definition.reminders.map((r) => [r.title, r.body, r.schedule])).toEqual([
      [
        'Log your habits',
        'Did you log today’s habits?',
        { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
      ],
      [
        'Work',
        'Did you log today’s habits?',
        { kind: 'weekly', days: [1, 2, 3, 4, 5], time: '08:30' },
      ],
      ['Review', 'Did you log today’s habits?', { kind: 'weekly', days: [7], time: '20:00' }],
      [
        'Day before',
        'Did you log today’s habits?',
        {
          kind: 'recordDay',
          collectionId: habitsCollection.id,
          fieldId: day.id,
          days: -1,
          time: '09:00',
        },
      ],
    ]);
    const doc = new Y.Doc();
    writeDefinition(doc, definition);
    expect(checkForPublish(doc).ok).toBe(true);
  });

  it('leaves out a reminder it can’t set up as written, and keeps to its limit', () => {
    const definition = expandBlueprint(
      blueprintSchema.parse({
        ...habits,
        reminders: [
          reminder({ title: 'No time', time: 'evening' }),
          reminder({ title: '  ' }),
          reminder({ title: 'Not a date', when: 'onDate', collection: 'Habits', field: 'Name' }),
          reminder({ title: 'Nowhere', when: 'onDate', collection: 'Chores', field: 'Day' }),
          ...Array.from({ length: 8 }, (_, i) => reminder({ title: `Kept ${i}` })),
        ],
      }),
      idFactory('b'),
    );
    expect(definition.reminders.map((r) => r.title)).toEqual([
      'Kept 0',
      'Kept 1',
      'Kept 2',
      'Kept 3',
      'Kept 4',
    ]);
  });

  it('reads a blueprint written before reminders as having none', () => {
    expect(blueprintSchema.parse(habits).reminders).toEqual([]);
    expect(expandBlueprint(habits, idFactory('b')).reminders).toEqual([]);
  });
});
