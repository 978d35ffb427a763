import {
  checkFormula,
  type Collection,
  type Field,
  fieldsForFormulas,
  type ReminderSchedule,
  reminderSchema,
  reminderScheduleSchema,
  scheduleInWords,
  type Weekday,
  WEEKDAYS,
} from '@pipit/app-definition';
import { formulaProblem } from '../common/formula-help';

/*
 * A reminder's schedule as the Reminders panel edits it: one form that holds every kind's inputs
 * as the creator typed them (so switching kinds and back keeps what they wrote), turned into a
 * schedule only when the whole of it is valid. The messages are the schema's own
 * (packages/app-definition/src/schema/reminder.ts), and the references are checked as the publish
 * check does, so nothing the editor writes stops a publish.
 */

export type ScheduleKind = ReminderSchedule['kind'];
export type TimeUnit = 'minutes' | 'hours' | 'days';

export interface ScheduleForm {
  kind: ScheduleKind;
  /** `weekly`, `formula`: the chosen weekdays, Monday (1) first. */
  days: Weekday[];
  /** `weekly`, `recordDay`, `formula`: `HH:MM`. */
  time: string;
  /** Record and formula kinds. */
  collectionId: string;
  /** Record kinds: the date field counted from. */
  fieldId: string;
  /** `recordDay`: how many days, as typed, and which way from the date. */
  dayCount: string;
  dayDirection: 'before' | 'after';
  /** `recordTime`: how long, as typed, in which unit, and which way from the date and time. */
  amount: string;
  unit: TimeUnit;
  timeDirection: 'before' | 'after';
  formula: string;
}

/** The inputs a problem is shown at. */
export type FormPart =
  'days' | 'time' | 'collectionId' | 'fieldId' | 'dayCount' | 'amount' | 'formula';
export type FormProblems = Partial<Record<FormPart, string>>;

export const EVERY_DAY: readonly Weekday[] = WEEKDAYS;
export const WORKDAYS: readonly Weekday[] = [1, 2, 3, 4, 5];

const MINUTES_IN: Record<TimeUnit, number> = { minutes: 1, hours: 60, days: 1440 };

/**
 * The field types each record kind counts from. A day before a date works from a date or a
 * date-and-time; a time before works from a date-and-time (a date alone has no time to count
 * from, though the schema reads it as midnight).
 */
const FIELD_TYPES: Record<'recordDay' | 'recordTime', ReadonlySet<string>> = {
  recordDay: new Set(['date', 'dateTime']),
  recordTime: new Set(['dateTime']),
};

/** The fields of `collection` a record kind can count from. */
export function dateFieldsOf(kind: 'recordDay' | 'recordTime', collection: Collection): Field[] {
  return collection.fields.filter((f) => FIELD_TYPES[kind].has(f.type));
}

/** The collections a kind can be about: for record kinds, those with a field it counts from. */
export function collectionsFor(
  kind: ScheduleKind,
  collections: readonly Collection[],
): Collection[] {
  if (kind === 'weekly') return [];
  if (kind === 'formula') return [...collections];
  return collections.filter((c) => dateFieldsOf(kind, c).length > 0);
}

/** Why a kind can't be chosen in this app yet, or null when it can. */
export function kindUnavailable(
  kind: ScheduleKind,
  collections: readonly Collection[],
): string | null {
  if (kind === 'weekly' || collectionsFor(kind, collections).length > 0) return null;
  if (kind === 'formula') return 'Add a collection first.';
  return kind === 'recordDay'
    ? 'Add a date field to a collection first.'
    : 'Add a date-and-time field to a collection first.';
}

/** The largest whole unit a number of minutes is (90 → 90 minutes, 120 → 2 hours). */
function inUnits(minutes: number): { amount: string; unit: TimeUnit } {
  const size = Math.abs(minutes);
  if (size !== 0 && size % MINUTES_IN.days === 0)
    return { amount: String(size / MINUTES_IN.days), unit: 'days' };
  if (size !== 0 && size % MINUTES_IN.hours === 0)
    return { amount: String(size / MINUTES_IN.hours), unit: 'hours' };
  return { amount: String(size), unit: 'minutes' };
}

/**
 * The form for a stored schedule: its own values as they are (a collection since deleted stays,
 * so the problem shows), and what a new reminder would start with for the other kinds' inputs.
 */
export function formFromSchedule(schedule: ReminderSchedule): ScheduleForm {
  const base: ScheduleForm = {
    kind: schedule.kind,
    days: [...EVERY_DAY],
    time: '09:00',
    collectionId: '',
    fieldId: '',
    dayCount: '1',
    dayDirection: 'before',
    amount: '1',
    unit: 'hours',
    timeDirection: 'before',
    formula: '',
  };
  switch (schedule.kind) {
    case 'weekly':
      return { ...base, days: [...schedule.days], time: schedule.time };
    case 'formula':
      return {
        ...base,
        days: [...schedule.days],
        time: schedule.time,
        collectionId: schedule.collectionId,
        formula: schedule.formula,
      };
    case 'recordDay':
      return {
        ...base,
        time: schedule.time,
        collectionId: schedule.collectionId,
        fieldId: schedule.fieldId,
        dayCount: String(Math.abs(schedule.days)),
        dayDirection: schedule.days > 0 ? 'after' : 'before',
      };
    case 'recordTime':
      return {
        ...base,
        collectionId: schedule.collectionId,
        fieldId: schedule.fieldId,
        ...inUnits(schedule.minutes),
        timeDirection: schedule.minutes > 0 ? 'after' : 'before',
      };
  }
}

/**
 * The form switched to another kind: the collection and field kept when they fit it, else the
 * first that does (a date-and-time field for minutes before, say).
 */
export function withKind(
  form: ScheduleForm,
  kind: ScheduleKind,
  collections: readonly Collection[],
): ScheduleForm {
  const next = { ...form, kind };
  if (kind === 'weekly') return next;
  const fitting = collectionsFor(kind, collections);
  const collection = fitting.find((c) => c.id === form.collectionId) ?? fitting[0];
  if (!collection) return next;
  return withCollection(next, collection.id, collections);
}

/** The form about another collection, counting from its first date field when the kind needs one. */
export function withCollection(
  form: ScheduleForm,
  collectionId: string,
  collections: readonly Collection[],
): ScheduleForm {
  const next = { ...form, collectionId };
  if (form.kind !== 'recordDay' && form.kind !== 'recordTime') return next;
  const collection = collections.find((c) => c.id === collectionId);
  const fields = collection ? dateFieldsOf(form.kind, collection) : [];
  return fields.some((f) => f.id === form.fieldId)
    ? next
    : { ...next, fieldId: fields[0]?.id ?? '' };
}

/** The days with `day` turned on or off, in week order. */
export function toggleDay(days: readonly Weekday[], day: Weekday): Weekday[] {
  const next = days.includes(day) ? days.filter((d) => d !== day) : [...days, day];
  return next.sort((a, b) => a - b);
}

/** A count as typed: a number, or why it isn't one the form can use. */
function countOf(text: string, unit: string): number | string {
  if (text.trim() === '') return `Enter a number of ${unit}.`;
  const value = Number(text);
  if (!Number.isFinite(value)) return `Enter a number of ${unit}.`;
  if (value < 0) return `Enter a number of ${unit} from 0 up; choose before or after beside it.`;
  return value;
}

/** Where the schema's issue about a schedule's property is shown in the form. */
function partOf(kind: ScheduleKind, key: PropertyKey | undefined): FormPart | null {
  if (key === 'days') return kind === 'recordDay' ? 'dayCount' : 'days';
  if (key === 'minutes') return 'amount';
  if (key === 'time' || key === 'collectionId' || key === 'fieldId' || key === 'formula')
    return key;
  return null;
}

/** The collection and field a form is about, checked as the publish check checks them. */
function referenceProblems(
  form: ScheduleForm,
  collections: readonly Collection[],
): { problems: FormProblems; collection: Collection | null } {
  if (form.kind === 'weekly') return { problems: {}, collection: null };
  const collection = collections.find((c) => c.id === form.collectionId) ?? null;
  if (!collection) {
    return {
      problems: {
        collectionId:
          form.collectionId === ''
            ? 'Choose a collection.'
            : 'This collection no longer exists. Choose another one.',
      },
      collection,
    };
  }
  if (form.kind === 'formula') return { problems: {}, collection };
  const field = collection.fields.find((f) => f.id === form.fieldId);
  const which = form.kind === 'recordDay' ? 'date' : 'date-and-time';
  let fieldId: string | undefined;
  if (!field) {
    fieldId =
      form.fieldId === ''
        ? `Choose one of ${collection.name}’s ${which} fields.`
        : `This field is no longer in ${collection.name}. Choose one of its ${which} fields.`;
  } else if (!FIELD_TYPES[form.kind].has(field.type)) {
    fieldId = `${field.name} holds no ${form.kind === 'recordDay' ? 'date' : 'date and time'}. Choose a ${which} field.`;
  }
  return { problems: fieldId ? { fieldId } : {}, collection };
}

/** The schedule the form's inputs make, before the schema checks it. */
function candidateOf(form: ScheduleForm): { candidate: unknown; problems: FormProblems } {
  switch (form.kind) {
    case 'weekly':
      return { candidate: { kind: 'weekly', days: form.days, time: form.time }, problems: {} };
    case 'formula':
      return {
        candidate: {
          kind: 'formula',
          collectionId: form.collectionId,
          formula: form.formula,
          days: form.days,
          time: form.time,
        },
        problems: {},
      };
    case 'recordDay': {
      const count = countOf(form.dayCount, 'days');
      if (typeof count === 'string') return { candidate: null, problems: { dayCount: count } };
      const days = (form.dayDirection === 'before' ? -count : count) || 0;
      const { collectionId, fieldId, time } = form;
      return { candidate: { kind: 'recordDay', collectionId, fieldId, days, time }, problems: {} };
    }
    case 'recordTime': {
      const count = countOf(form.amount, form.unit);
      if (typeof count === 'string') return { candidate: null, problems: { amount: count } };
      const size = count * MINUTES_IN[form.unit];
      const minutes = (form.timeDirection === 'before' ? -size : size) || 0;
      const { collectionId, fieldId } = form;
      return { candidate: { kind: 'recordTime', collectionId, fieldId, minutes }, problems: {} };
    }
  }
}

/**
 * The schedule the form makes, or null with the problem at each input: the schema's messages, the
 * collection and field as the publish check wants them, and a formula that works out to yes or no.
 */
export function scheduleFromForm(
  form: ScheduleForm,
  collections: readonly Collection[],
): { schedule: ReminderSchedule | null; problems: FormProblems } {
  const references = referenceProblems(form, collections);
  const { candidate, problems: typed } = candidateOf(form);
  const problems: FormProblems = { ...references.problems, ...typed };
  const parsed = candidate === null ? null : reminderScheduleSchema.safeParse(candidate);
  for (const issue of parsed?.error?.issues ?? []) {
    const part = partOf(form.kind, issue.path[0]);
    if (part && !problems[part]) problems[part] = issue.message;
  }
  if (form.kind === 'formula' && references.collection && !problems.formula) {
    const check = checkFormula(form.formula, fieldsForFormulas(collections, references.collection));
    if (!check.ok) problems.formula = formulaProblem(check, form.formula);
    else if (check.type !== 'boolean')
      problems.formula = `The formula must say yes or no for each record of ${references.collection.name}, like {Stock} < 3.`;
  }
  const valid = parsed?.success === true && Object.keys(problems).length === 0;
  return { schedule: valid ? parsed.data : null, problems };
}

/** The first problem with a stored schedule (a collection or field deleted since), if any. */
export function storedProblem(
  schedule: ReminderSchedule,
  collections: readonly Collection[],
): string | null {
  const { problems } = scheduleFromForm(formFromSchedule(schedule), collections);
  return Object.values(problems)[0] ?? null;
}

/** "Every day at 20:00", "1 day before When at 09:00": the schedule as a sentence. */
export function scheduleSentence(
  schedule: ReminderSchedule,
  collections: readonly Collection[],
): string {
  const nameOf = (id: unknown): string => {
    for (const collection of collections) {
      if (collection.id === id) return collection.name;
      const field = collection.fields.find((f) => f.id === id);
      if (field) return field.name;
    }
    return 'a missing field';
  };
  const words = scheduleInWords(schedule, nameOf);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A reminder's title or text as typed: the schema's problem with it, or null. */
export function textProblem(part: 'title' | 'body', text: string): string | null {
  const parsed = reminderSchema.shape[part].safeParse(text);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Check this text.');
}
