import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Collection,
  collectionSchema,
  formulaEnvAt,
  formulaMatches,
  nextRecordOccurrence,
  occurrenceForDate,
  recordTitle,
  recordsDueAt,
  type FormulaSchedule,
  type RecordDaySchedule,
  type RecordTimeSchedule,
  type ReminderPreferences,
  type ReminderRecord,
} from '../src/index';

/*
 * Reminders over a person's records (reminders/record-reminders.ts): the next occurrence is the
 * earliest one after the moment asked, over every record, and names every record that shares it;
 * a formula holds for a record exactly when the app's own evaluation says true.
 */

const RUNS = { seed: 20_261_130, numRuns: 150 };
const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Apia'];
const DAY = 86_400_000;
const base = Date.UTC(2026, 0, 1);

const dayText = (offset: number) => new Date(base + offset * DAY).toISOString().slice(0, 10);

const recordDay: RecordDaySchedule = {
  kind: 'recordDay',
  collectionId: 'tasks',
  fieldId: 'due',
  days: -1,
  time: '09:00',
};

const arbRecords = fc.array(
  fc.record({
    day: fc.integer({ min: 0, max: 60 }),
    other: fc.boolean(),
    empty: fc.boolean(),
  }),
  { maxLength: 12 },
);

function recordsOf(rows: Array<{ day: number; other: boolean; empty: boolean }>): ReminderRecord[] {
  return rows.map((row, i) => ({
    id: `r${i}`,
    collectionId: row.other ? 'notes' : 'tasks',
    values: row.empty ? ({} as Record<string, string>) : { due: dayText(row.day) },
  }));
}

describe('nextRecordOccurrence', () => {
  test.prop(
    [
      arbRecords,
      fc.constantFrom(...ZONES),
      fc.integer({ min: -5 * DAY, max: 70 * DAY }),
      fc.constantFrom(recordDay, {
        kind: 'recordTime',
        collectionId: 'tasks',
        fieldId: 'due',
        minutes: -90,
      } satisfies RecordTimeSchedule),
    ],
    RUNS,
  )(
    'is the earliest occurrence after the moment, with every record due then',
    (rows, zone, after, schedule) => {
      const prefs: ReminderPreferences = { enabled: true, timeZone: zone };
      const records = recordsOf(rows);
      const afterMs = base + after;
      const found = nextRecordOccurrence(schedule, prefs, records, afterMs);
      const all = records
        .filter((r) => r.collectionId === 'tasks')
        .map((r) =>
          occurrenceForDate(
            schedule,
            prefs,
            typeof r.values.due === 'string' ? r.values.due : null,
          ),
        )
        .filter((ms): ms is number => ms !== null && ms > afterMs);
      if (all.length === 0) {
        expect(found).toBeNull();
        return;
      }
      expect(found?.occurrence).toBe(Math.min(...all));
      // Those it names are exactly the ones due then, so one notification can count them.
      expect(found?.records.map((r) => r.id)).toEqual(
        recordsDueAt(schedule, prefs, records, found!.occurrence).map((r) => r.id),
      );
      expect(found!.records.length).toBe(all.filter((ms) => ms === found!.occurrence).length);
    },
  );

  test.prop([arbRecords, fc.constantFrom(...ZONES), fc.integer({ min: 0, max: 60 })], RUNS)(
    'moving a record to another day leaves nothing due at its old occurrence',
    (rows, zone, moveTo) => {
      const prefs: ReminderPreferences = { enabled: true, timeZone: zone };
      const records = [{ id: 'moved', collectionId: 'tasks', values: { due: dayText(70) } }];
      const before = nextRecordOccurrence(recordDay, prefs, records, base)!.occurrence;
      const moved = [{ ...records[0]!, values: { due: dayText(moveTo) } }, ...recordsOf(rows)];
      const left = recordsDueAt(recordDay, prefs, moved, before);
      // Day 70 is out of the generated days, so nothing else is due at the old occurrence.
      expect(left).toEqual([]);
    },
  );
});

describe('recordsDueAt', () => {
  it('finds two records on one day at one occurrence, in the person’s zone', () => {
    const prefs: ReminderPreferences = { enabled: true, timeZone: 'Europe/Paris', time: '08:30' };
    const records: ReminderRecord[] = [
      { id: 'a', collectionId: 'tasks', values: { due: '2026-06-10' } },
      { id: 'b', collectionId: 'tasks', values: { due: '2026-06-10' } },
      { id: 'c', collectionId: 'tasks', values: { due: '2026-06-12' } },
    ];
    const next = nextRecordOccurrence(recordDay, prefs, records, Date.UTC(2026, 5, 1));
    // The day before, 08:30 in Paris (UTC+2 in June).
    expect(next?.occurrence).toBe(Date.UTC(2026, 5, 9, 6, 30));
    expect(next?.records.map((r) => r.id)).toEqual(['a', 'b']);
  });
});

const tasks: Collection = collectionSchema.parse({
  id: 'tasks',
  name: 'Tasks',
  fields: [
    { id: 'title', name: 'Title', type: 'text' },
    { id: 'stock', name: 'Stock', type: 'number' },
    { id: 'double', name: 'Double', type: 'formula', formula: '{Stock} * 2' },
    { id: 'due', name: 'Due', type: 'date' },
  ],
  records: [],
});

const formula = (text: string): FormulaSchedule => ({
  kind: 'formula',
  collectionId: 'tasks',
  formula: text,
  days: [1, 2, 3, 4, 5, 6, 7],
  time: '09:00',
});

describe('formulaMatches', () => {
  const env = formulaEnvAt(Date.UTC(2026, 5, 10, 12), 'Europe/Paris')!;

  it('reads today in the person’s zone', () => {
    expect(formulaEnvAt(Date.UTC(2026, 5, 10, 23), 'Asia/Tokyo')?.today).toBe('2026-06-11');
    expect(formulaEnvAt(Date.UTC(2026, 5, 10, 23), 'UTC')?.today).toBe('2026-06-10');
    expect(formulaEnvAt(0, 'Not/AZone')).toBeNull();
  });

  test.prop([fc.array(fc.option(fc.integer({ min: -50, max: 50 })), { maxLength: 10 })], RUNS)(
    'holds for exactly the records the formula is true for, through the collection’s formulas',
    (stocks) => {
      const records = stocks.map((stock, i) => ({
        id: `r${i}`,
        collectionId: 'tasks',
        // A value stored under a formula field is not trusted: the formula is worked out again.
        values: { ...(stock === null ? {} : { stock }), double: 1000 },
      }));
      const matched = formulaMatches([tasks], formula('{Double} < 6'), records, env);
      expect(matched?.map((r) => r.id)).toEqual(
        records
          .filter((r) => typeof r.values.stock === 'number' && r.values.stock * 2 < 6)
          .map((r) => r.id),
      );
    },
  );

  it('uses the day the person’s clock shows', () => {
    const records = [{ id: 'a', collectionId: 'tasks', values: { due: '2026-06-10' } }];
    expect(formulaMatches([tasks], formula('{Due} = TODAY()'), records, env)).toHaveLength(1);
    const later = formulaEnvAt(Date.UTC(2026, 5, 11, 12), 'Europe/Paris')!;
    expect(formulaMatches([tasks], formula('{Due} = TODAY()'), records, later)).toEqual([]);
  });

  it('is null for a formula that can’t be worked out or doesn’t say yes or no', () => {
    expect(formulaMatches([tasks], formula('{Nope} < 3'), [], env)).toBeNull();
    expect(formulaMatches([tasks], formula('{Stock} + 1'), [], env)).toBeNull();
    expect(formulaMatches([], formula('{Stock} < 3'), [], env)).toBeNull();
  });
});

describe('recordTitle', () => {
  it('is the naming field’s text, trimmed, or null', () => {
    const record = (values: ReminderRecord['values']) => ({
      id: 'a',
      collectionId: 'tasks',
      values,
    });
    expect(recordTitle(tasks, record({ title: '  Dentist ' }))).toBe('Dentist');
    expect(recordTitle(tasks, record({ title: '' }))).toBeNull();
    expect(recordTitle(tasks, record({}))).toBeNull();
  });
});
