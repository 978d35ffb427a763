import { compileCollectionFormulas } from '../formula/compile';
import { formatDate, isDayInRange, zonedTime } from '../formula/dates';
import { evaluateFormulas } from '../formula/evaluate';
import type { FormulaEnv, FormulaField } from '../formula/types';
import type { Collection } from '../schema/definition';
import { COMPUTED_FIELD_TYPES } from '../schema/field-types';
import type { FieldValue } from '../schema/field-values';
import { fieldsForFormulas, nameField } from '../schema/relations';
import { occurrenceForDate } from './occurrences';
import type { FormulaSchedule, RecordSchedule, ReminderPreferences } from './schedule';

/*
 * Reminders that read a person's records: when the next one counted from a record's date is due,
 * which records an occurrence is about, and which records a formula reminder holds for. Plain
 * values in, plain values out: the server reads the records from the person's data document and
 * hands them here, as the running app hands its own.
 */

/** A record as these reminders read it: its collection and its stored values by field id. */
export interface ReminderRecord {
  id: string;
  collectionId: string;
  values: Readonly<Record<string, FieldValue>>;
}

/** An occurrence and the records that produce it (several records may share one instant). */
export interface RecordOccurrence<R extends ReminderRecord> {
  occurrence: number;
  records: R[];
}

/**
 * The earliest occurrence strictly after `afterMs` over the records of the schedule's collection,
 * with every record that produces it; null when none does (no record, every date past, the
 * reminder off, the zone unreadable).
 */
export function nextRecordOccurrence<R extends ReminderRecord>(
  schedule: RecordSchedule,
  prefs: ReminderPreferences,
  records: readonly R[],
  afterMs: number,
): RecordOccurrence<R> | null {
  let best: RecordOccurrence<R> | null = null;
  for (const record of records) {
    if (record.collectionId !== schedule.collectionId) continue;
    const due = occurrenceForDate(schedule, prefs, dateValue(record, schedule.fieldId));
    if (due === null || due <= afterMs) continue;
    if (best === null || due < best.occurrence) best = { occurrence: due, records: [record] };
    else if (due === best.occurrence) best.records.push(record);
  }
  return best;
}

/** The records whose date makes the reminder due at exactly `occurrence` (none: it moved). */
export function recordsDueAt<R extends ReminderRecord>(
  schedule: RecordSchedule,
  prefs: ReminderPreferences,
  records: readonly R[],
  occurrence: number,
): R[] {
  return records.filter(
    (record) =>
      record.collectionId === schedule.collectionId &&
      occurrenceForDate(schedule, prefs, dateValue(record, schedule.fieldId)) === occurrence,
  );
}

function dateValue(record: ReminderRecord, fieldId: string): string | null {
  const value = Object.hasOwn(record.values, fieldId) ? record.values[fieldId] : null;
  return typeof value === 'string' ? value : null;
}

/**
 * What TODAY(), NOW() and a moment's day are for a formula checked at `now` by a person in `zone`:
 * what their device would give (runtime formulas.ts, deviceFormulaEnv). Null for a zone `Intl`
 * does not know.
 */
export function formulaEnvAt(now: number, timeZone: string): FormulaEnv | null {
  const wall = zonedTime(now, timeZone);
  if (!wall || !isDayInRange(wall.day)) return null;
  return { today: formatDate(wall.day), now, timeZone };
}

/** An id none of the fields has, for the reminder's formula among them. */
function draftId(fields: readonly FormulaField[]): string {
  let id = 'reminder-formula';
  while (fields.some((field) => field.id === id)) id = `${id}'`;
  return id;
}

/**
 * The records of the schedule's collection the formula is true for, worked out as the app works
 * out a formula field: the collection's own formula fields first, then the reminder's formula over
 * them (the publish check's way of checking it, `checkFormula`). What a record holds under a
 * computed field is not trusted (the app drops it too). Null when the formula can't be worked
 * out or doesn't say yes or no: the reminder can never hold.
 *
 * Rollups are not worked out here: a formula reading one sees it empty.
 */
export function formulaMatches<R extends ReminderRecord>(
  collections: readonly Collection[],
  schedule: FormulaSchedule,
  records: readonly R[],
  env: FormulaEnv,
): R[] | null {
  const collection = collections.find((c) => c.id === schedule.collectionId);
  if (!collection) return null;
  const fields = fieldsForFormulas(collections, collection);
  const id = draftId(fields);
  const compiled = compileCollectionFormulas([
    ...fields,
    { id, name: '', type: 'formula', formula: schedule.formula },
  ]);
  const own = compiled.order.find((formula) => formula.fieldId === id);
  if (!own || own.type !== 'boolean') return null;
  const computed = new Set(
    collection.fields.filter((f) => COMPUTED_FIELD_TYPES.includes(f.type)).map((f) => f.id),
  );
  return records.filter((record) => {
    if (record.collectionId !== collection.id) return false;
    const values: Record<string, FieldValue> = {};
    for (const [fieldId, value] of Object.entries(record.values)) {
      if (!computed.has(fieldId)) values[fieldId] = value;
    }
    const result = evaluateFormulas(compiled, values, env)[id];
    return result !== undefined && 'value' in result && result.value === true;
  });
}

/**
 * What names a record in a notification: the text of its collection's naming field (the one a
 * relation's picker shows, `nameField`), trimmed; null when that field holds no text.
 */
export function recordTitle(
  collection: Pick<Collection, 'fields'>,
  record: ReminderRecord,
): string | null {
  const field = nameField(collection);
  const value = field && Object.hasOwn(record.values, field.id) ? record.values[field.id] : null;
  const text = typeof value === 'string' ? value.trim() : '';
  return text === '' ? null : text;
}
