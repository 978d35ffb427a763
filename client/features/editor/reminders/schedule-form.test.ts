import { collectionSchema, type ReminderSchedule } from '@pipit/app-definition';
import { describe, expect, it } from 'vitest';
import {
  collectionsFor,
  formFromSchedule,
  kindUnavailable,
  type ScheduleForm,
  scheduleFromForm,
  scheduleSentence,
  storedProblem,
  textProblem,
  toggleDay,
  withCollection,
  withKind,
} from './schedule-form';

const events = collectionSchema.parse({
  id: 'events',
  name: 'Events',
  fields: [
    { id: 'name', name: 'Event', type: 'text' },
    { id: 'day', name: 'Day', type: 'date' },
    { id: 'when', name: 'When', type: 'dateTime' },
  ],
  records: [],
});
const stock = collectionSchema.parse({
  id: 'stock',
  name: 'Stock',
  fields: [
    { id: 'item', name: 'Item', type: 'text' },
    { id: 'count', name: 'Count', type: 'number' },
  ],
  records: [],
});
const collections = [stock, events];
const daily: ReminderSchedule = { kind: 'weekly', days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' };

const made = (form: ScheduleForm) => scheduleFromForm(form, collections);

describe('a reminder’s schedule as the Reminders panel edits it', () => {
  it('reads a stored schedule back as the same schedule, for every kind', () => {
    const schedules: ReminderSchedule[] = [
      daily,
      { kind: 'recordDay', collectionId: 'events', fieldId: 'day', days: -1, time: '09:00' },
      { kind: 'recordDay', collectionId: 'events', fieldId: 'when', days: 2, time: '18:30' },
      { kind: 'recordTime', collectionId: 'events', fieldId: 'when', minutes: -90 },
      { kind: 'recordTime', collectionId: 'events', fieldId: 'when', minutes: 2 * 1440 },
      { kind: 'recordTime', collectionId: 'events', fieldId: 'when', minutes: 0 },
      { kind: 'formula', collectionId: 'stock', formula: '{Count} < 3', days: [1], time: '08:00' },
    ];
    for (const schedule of schedules) {
      expect(made(formFromSchedule(schedule))).toEqual({ schedule, problems: {} });
    }
  });

  it('shows minutes in the largest whole unit', () => {
    const at = (minutes: number) =>
      formFromSchedule({ kind: 'recordTime', collectionId: 'events', fieldId: 'when', minutes });
    expect(at(-120)).toMatchObject({ amount: '2', unit: 'hours', timeDirection: 'before' });
    expect(at(-90)).toMatchObject({ amount: '90', unit: 'minutes' });
    expect(at(2880)).toMatchObject({ amount: '2', unit: 'days', timeDirection: 'after' });
  });

  it('turns a count and a direction into a signed offset', () => {
    const form = withKind(formFromSchedule(daily), 'recordDay', collections);
    expect(made({ ...form, dayCount: '3', dayDirection: 'before' }).schedule).toMatchObject({
      days: -3,
    });
    expect(made({ ...form, dayCount: '0', dayDirection: 'before' }).schedule).toMatchObject({
      days: 0,
    });
    const timed = withKind(form, 'recordTime', collections);
    expect(
      made({ ...timed, amount: '1.5', unit: 'hours', timeDirection: 'after' }).schedule,
    ).toMatchObject({ minutes: 90 });
  });

  it('shows the schema’s own message at the input it is about, and makes no schedule', () => {
    const form = withKind(formFromSchedule(daily), 'recordDay', collections);
    expect(made({ ...form, dayCount: '400' })).toEqual({
      schedule: null,
      problems: { dayCount: 'Remind at most 365 days before the date.' },
    });
    expect(made({ ...form, dayCount: '1.5' }).problems).toEqual({
      dayCount: 'Use a whole number of days.',
    });
    expect(made({ ...form, dayCount: '' }).problems).toEqual({
      dayCount: 'Enter a number of days.',
    });
    expect(made({ ...form, dayCount: '-2' }).problems.dayCount).toMatch(/from 0 up/);
    expect(made({ ...form, time: '' }).problems).toEqual({
      time: 'Pick a time between 00:00 and 23:59, written like 07:30.',
    });
    const timed = withKind(form, 'recordTime', collections);
    expect(made({ ...timed, amount: '8', unit: 'days', timeDirection: 'after' }).problems).toEqual({
      amount: 'Remind at most 7 days after the time.',
    });
    const weekly = formFromSchedule(daily);
    expect(made({ ...weekly, days: [] }).problems).toEqual({ days: 'Choose at least one day.' });
  });

  it('checks a formula against the collection’s fields, and wants a yes or no', () => {
    const form = { ...withKind(formFromSchedule(daily), 'formula', collections) };
    expect(form.collectionId).toBe('stock');
    expect(made(form).problems).toEqual({
      formula: 'Write the formula that decides when to remind.',
    });
    expect(made({ ...form, formula: '{Count} + 1' }).problems.formula).toMatch(/yes or no/);
    expect(made({ ...form, formula: '{Nope} < 3' }).problems.formula).toMatch(
      /\(at characters 1–6\)\.$/,
    );
    expect(made({ ...form, formula: ' {Count} < 3 ' }).schedule).toEqual({
      kind: 'formula',
      collectionId: 'stock',
      formula: '{Count} < 3',
      days: [1, 2, 3, 4, 5, 6, 7],
      time: '20:00',
    });
  });

  it('offers each record kind only collections and fields it can count from', () => {
    expect(collectionsFor('recordDay', collections).map((c) => c.id)).toEqual(['events']);
    expect(collectionsFor('formula', collections).map((c) => c.id)).toEqual(['stock', 'events']);
    // Switching picks the first field that fits, and keeps one that still fits.
    const day = withKind(formFromSchedule(daily), 'recordDay', collections);
    expect(day).toMatchObject({ collectionId: 'events', fieldId: 'day', time: '20:00' });
    expect(withKind(day, 'recordTime', collections)).toMatchObject({ fieldId: 'when' });
    expect(withKind({ ...day, fieldId: 'when' }, 'recordDay', collections).fieldId).toBe('when');
    expect(
      withCollection(withKind(day, 'formula', collections), 'stock', collections),
    ).toMatchObject({ collectionId: 'stock' });
    expect(kindUnavailable('recordDay', [stock])).toBe('Add a date field to a collection first.');
    expect(kindUnavailable('formula', [])).toBe('Add a collection first.');
    expect(kindUnavailable('weekly', [])).toBeNull();
  });

  it('names what is gone when a collection or field was deleted since', () => {
    expect(
      storedProblem(
        { kind: 'recordDay', collectionId: 'gone', fieldId: 'day', days: -1, time: '09:00' },
        collections,
      ),
    ).toBe('This collection no longer exists. Choose another one.');
    expect(
      storedProblem(
        { kind: 'recordTime', collectionId: 'events', fieldId: 'gone', minutes: -60 },
        collections,
      ),
    ).toBe('This field is no longer in Events. Choose one of its date-and-time fields.');
    expect(
      storedProblem(
        { kind: 'recordDay', collectionId: 'events', fieldId: 'name', days: -1, time: '09:00' },
        collections,
      ),
    ).toBe('Event holds no date. Choose a date field.');
    expect(storedProblem(daily, collections)).toBeNull();
  });

  it('says a schedule in words, with the names of its collection and field', () => {
    expect(scheduleSentence(daily, collections)).toBe('Every day at 20:00');
    expect(
      scheduleSentence(
        { kind: 'recordDay', collectionId: 'events', fieldId: 'when', days: -1, time: '09:00' },
        collections,
      ),
    ).toBe('1 day before When at 09:00');
  });

  it('toggles a day and keeps the week in order', () => {
    expect(toggleDay([1, 5], 3)).toEqual([1, 3, 5]);
    expect(toggleDay([1, 3, 5], 3)).toEqual([1, 5]);
  });

  it('checks a title and a text with the schema’s messages', () => {
    expect(textProblem('title', '  ')).toBe('Give the reminder a title.');
    expect(textProblem('title', 'x'.repeat(61))).toBe(
      "Keep the reminder's title to 60 characters.",
    );
    expect(textProblem('body', 'x'.repeat(201))).toBe(
      "Keep the reminder's text to 200 characters.",
    );
    expect(textProblem('body', '')).toBeNull();
  });
});
