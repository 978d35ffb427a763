import { describe, expect, it } from 'vitest';
import {
  type AppDefinition,
  appDefinitionSchema,
  chooseTheirs,
  diffDefinitions,
  mergeDefinitions,
  type Reminder,
  summarizeChanges,
} from '../src/index';

type Draft = Record<string, unknown>;

/** A small app with two reminders: a daily one and one counted from a task's due date. */
function app(parts: Draft = {}): AppDefinition {
  return appDefinitionSchema.parse({
    schemaVersion: 1,
    meta: { title: 'Habits', description: '' },
    theme: {},
    screens: [{ id: 'home', title: 'Home', components: [] }],
    collections: [
      {
        id: 'tasks',
        name: 'Tasks',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'due', name: 'Due', type: 'date' },
        ],
        records: [],
      },
    ],
    actions: [],
    aiActions: [],
    reminders: [
      {
        id: 'daily',
        title: 'Log your habits',
        body: 'Did you log today’s habits?',
        schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
      },
      {
        id: 'due',
        title: 'Task due',
        schedule: {
          kind: 'recordDay',
          collectionId: 'tasks',
          fieldId: 'due',
          days: -1,
          time: '09:00',
        },
      },
    ],
    ...parts,
  });
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function edit(definition: AppDefinition, change: (draft: AppDefinition) => void): AppDefinition {
  const draft = clone(definition);
  change(draft);
  return appDefinitionSchema.parse(draft);
}

const reminder = (d: AppDefinition, id: string) => d.reminders.find((r) => r.id === id)!;

function setTime(d: AppDefinition, id: string, time: string) {
  const found = reminder(d, id);
  if (found.schedule.kind === 'recordTime') throw new Error('This schedule has no time.');
  found.schedule.time = time;
}

const hourBefore: Reminder['schedule'] = {
  kind: 'recordTime',
  collectionId: 'tasks',
  fieldId: 'due',
  minutes: -60,
};

function merge(base: AppDefinition, theirs: AppDefinition, ours: AppDefinition) {
  const result = mergeDefinitions(base, theirs, ours);
  expect(appDefinitionSchema.safeParse(result.definition).success).toBe(true);
  return result;
}

describe('reminders in the history', () => {
  it('names a reminder by its title and a changed schedule by its part', () => {
    const after = edit(app(), (d) => {
      setTime(d, 'daily', '21:00');
      reminder(d, 'due').body = 'Get it done';
      d.reminders.push({
        id: 'weekly',
        title: 'Weekly review',
        body: '',
        schedule: { kind: 'weekly', days: [7], time: '18:00' },
      });
    });
    const changes = diffDefinitions(app(), after);
    expect(changes.changes.map((c) => [c.entity, c.name, c.change, c.properties])).toEqual([
      ['reminder', 'Reminder “Log your habits”', 'changed', ['time']],
      ['reminder', 'Reminder “Task due”', 'changed', ['text']],
      ['reminder', 'Reminder “Weekly review”', 'added', []],
    ]);
    expect(changes.counts.reminders).toBe(3);
    expect(summarizeChanges(changes)).toBe('3 reminders');
  });

  it('lists a schedule that changed kind, a field and a removed reminder', () => {
    const after = edit(app(), (d) => {
      reminder(d, 'due').schedule = hourBefore;
      d.reminders.splice(0, 1);
    });
    const { changes } = diffDefinitions(app(), after);
    expect(changes.map((c) => [c.name, c.change, c.properties])).toEqual([
      [
        'Reminder “Task due”',
        'changed',
        ['kind of schedule', 'minutes from the record’s time', 'days', 'time'],
      ],
      ['Reminder “Log your habits”', 'removed', []],
    ]);
  });

  it('reads a definition saved before reminders as having none, not as all removed', () => {
    const { reminders: _none, ...older } = app({ reminders: [] });
    const changes = diffDefinitions(older as AppDefinition, app({ reminders: [] }));
    expect(changes.changes).toEqual([]);
  });

  it('sees a reminder moved among the others', () => {
    const after = edit(app(), (d) => d.reminders.reverse());
    const { changes } = diffDefinitions(app(), after);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: 'reminder', change: 'moved' });
  });
});

describe('reminders in a remix’s merge', () => {
  it('takes each side’s change of a different property, schedule parts included', () => {
    const base = app();
    const theirs = edit(base, (d) => setTime(d, 'daily', '21:00'));
    const ours = edit(base, (d) => {
      reminder(d, 'daily').title = 'Habits!';
      const schedule = reminder(d, 'daily').schedule;
      if (schedule.kind === 'weekly') schedule.days = [1, 2, 3, 4, 5];
    });
    const { definition, conflicts, incoming } = merge(base, theirs, ours);
    expect(reminder(definition, 'daily')).toEqual({
      id: 'daily',
      title: 'Habits!',
      body: 'Did you log today’s habits?',
      schedule: { kind: 'weekly', days: [1, 2, 3, 4, 5], time: '21:00' },
    });
    expect(conflicts).toEqual([]);
    expect(incoming.changes).toMatchObject([
      { entity: 'reminder', id: 'daily', change: 'changed', properties: ['time'] },
    ]);
  });

  it('keeps the remix’s time when both changed it, and can take the original’s', () => {
    const base = app();
    const theirs = edit(base, (d) => setTime(d, 'daily', '21:00'));
    const ours = edit(base, (d) => setTime(d, 'daily', '07:00'));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(reminder(definition, 'daily').schedule).toMatchObject({ time: '07:00' });
    expect(conflicts).toMatchObject([
      {
        entity: 'reminder',
        name: 'Reminder “Log your habits”',
        property: 'schedule.time',
        label: 'time',
        ours: '07:00',
        theirs: '21:00',
      },
    ]);
    const chosen = chooseTheirs(definition, conflicts[0]!);
    expect(reminder(chosen, 'daily').schedule).toMatchObject({ kind: 'weekly', time: '21:00' });
  });

  it('keeps a schedule whole when one side changed its kind', () => {
    const base = app();
    const theirs = edit(base, (d) => (reminder(d, 'due').schedule = hourBefore));
    const ours = edit(base, (d) => (reminder(d, 'due').body = 'Soon'));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(reminder(definition, 'due')).toMatchObject({ body: 'Soon', schedule: hourBefore });
    expect(conflicts).toEqual([]);
  });

  it('never mixes two kinds of schedule: the remix’s stays whole, the original’s can be taken', () => {
    const base = app();
    const theirs = edit(base, (d) => (reminder(d, 'due').schedule = hourBefore));
    const ours = edit(base, (d) => setTime(d, 'due', '08:00'));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(reminder(definition, 'due').schedule).toEqual({
      kind: 'recordDay',
      collectionId: 'tasks',
      fieldId: 'due',
      days: -1,
      time: '08:00',
    });
    expect(conflicts).toMatchObject([
      { entity: 'reminder', id: 'due', property: 'schedule', label: 'schedule' },
    ]);
    expect(reminder(chooseTheirs(definition, conflicts[0]!), 'due').schedule).toEqual(hourBefore);
  });

  it('adds, removes and brings back reminders like any other top-level entity', () => {
    const base = app();
    const theirs = edit(base, (d) => {
      d.reminders.push({ ...clone(reminder(d, 'daily')), id: 'new', title: 'New one' });
      setTime(d, 'due', '10:00');
    });
    const ours = edit(base, (d) => d.reminders.splice(1, 1));
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(definition.reminders.map((r) => r.id)).toEqual(['daily', 'new']);
    expect(conflicts).toMatchObject([{ entity: 'reminder', id: 'due', property: 'exists' }]);
    const back = chooseTheirs(definition, conflicts[0]!);
    expect(back.reminders.map((r) => r.id)).toEqual(['daily', 'due', 'new']);
    expect(reminder(back, 'due').schedule).toMatchObject({ time: '10:00' });
  });

  it('keeps a field the original deleted when the remix pointed a reminder at it', () => {
    const base = app({ reminders: [] });
    const theirs = edit(base, (d) => d.collections[0]!.fields.splice(1, 1));
    const ours = edit(base, (d) =>
      d.reminders.push({ id: 'soon', title: 'Soon', body: '', schedule: hourBefore }),
    );
    const { definition, conflicts } = merge(base, theirs, ours);
    expect(definition.collections[0]!.fields.map((f) => f.id)).toEqual(['name', 'due']);
    expect(conflicts).toMatchObject([{ entity: 'field', id: 'due', property: 'exists' }]);
  });
});
