import {
  type Collection,
  fieldsForFormulas,
  isSharedCollection,
  type Reminder,
  setReminder,
  type Weekday,
  WEEKDAYS,
} from '@pipit/app-definition';
import { type FocusEvent, type ReactNode, useId, useState } from 'react';
import { SelectField, TextArea, TextField } from '../../../ui/field';
import { useEditor } from '../common/editor-context';
import { FormulaFunctions } from '../common/formula-help';
import {
  collectionsFor,
  dateFieldsOf,
  EVERY_DAY,
  type FormProblems,
  formFromSchedule,
  kindUnavailable,
  type ScheduleForm,
  type ScheduleKind,
  scheduleFromForm,
  scheduleSentence,
  type TimeUnit,
  toggleDay,
  withCollection,
  withKind,
  WORKDAYS,
} from './schedule-form';

const KIND_LABELS: Record<ScheduleKind, string> = {
  weekly: 'On chosen days',
  recordDay: 'On a day counted from a record’s date',
  recordTime: 'Before or after a record’s date and time',
  formula: 'When a formula is true for a record',
};
const KINDS = Object.keys(KIND_LABELS) as ScheduleKind[];

/**
 * Whose items a reminder about a collection shared in a space reads: each member's spaces', not
 * only their own (docs/product/reminders.md, "Reminders about records").
 */
function sharedItemsHint(
  form: ScheduleForm,
  collections: readonly Collection[],
): string | undefined {
  if (form.kind === 'weekly') return undefined;
  const collection = collections.find((c) => c.id === form.collectionId);
  return collection && isSharedCollection(collection)
    ? 'Shared in a space: each member who turns this on is reminded of their spaces’ items, whoever added them.'
    : undefined;
}

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const sameDays = (a: readonly Weekday[], b: readonly Weekday[]) =>
  a.length === b.length && a.every((d, i) => d === b[i]);

/**
 * A reminder's schedule. What the creator picks and types is kept here as a form; each change that
 * makes a whole valid schedule is written at once (one edit: undo and co-editing see one schedule),
 * and one that doesn't stays here with the problem at its input, the stored schedule unchanged.
 */
export function ScheduleFields({ reminder }: { reminder: Reminder }) {
  const { definition, handle, readOnly } = useEditor();
  const collections = definition.collections;
  const storedKey = JSON.stringify(reminder.schedule);
  const [draft, setDraft] = useState<ScheduleForm | null>(null);
  // The schedule last written from here, and the stored one last seen: a stored schedule that
  // changes to another (undo, a collaborator, Ask AI) replaces what is typed here.
  const [written, setWritten] = useState(storedKey);
  const [seen, setSeen] = useState(storedKey);
  if (seen !== storedKey) {
    setSeen(storedKey);
    if (storedKey !== written) setDraft(null);
  }
  const form = draft ?? formFromSchedule(reminder.schedule);
  const { schedule, problems } = scheduleFromForm(form, collections);

  const update = (next: ScheduleForm) => {
    setDraft(next);
    const made = scheduleFromForm(next, collections).schedule;
    if (!made || JSON.stringify(made) === storedKey) return;
    setWritten(JSON.stringify(made));
    handle.edit(setReminder, reminder.id, { schedule: made });
  };
  // Once focus leaves a valid schedule, it shows as stored (`07` typed reads `7` again).
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (schedule && !event.currentTarget.contains(event.relatedTarget as Node | null)) {
      setDraft(null);
    }
  };

  return (
    <fieldset className="reminder-schedule" disabled={readOnly} onBlur={onBlur}>
      <legend className="reminder-schedule__legend">When</legend>
      <SelectField
        label="Remind"
        value={form.kind}
        hint={sharedItemsHint(form, collections)}
        onChange={(e) => update(withKind(form, e.target.value as ScheduleKind, collections))}
      >
        {KINDS.map((kind) => {
          const why = kind === form.kind ? null : kindUnavailable(kind, collections);
          return (
            <option key={kind} value={kind} disabled={why !== null}>
              {why
                ? `${KIND_LABELS[kind]} (${why.replace(/\.$/, '').toLowerCase()})`
                : KIND_LABELS[kind]}
            </option>
          );
        })}
      </SelectField>
      <KindFields form={form} problems={problems} collections={collections} onChange={update} />
      {schedule ? null : (
        <p className="editor-muted" role="status">
          Until this is fixed, it stays “{scheduleSentence(reminder.schedule, collections)}”.
        </p>
      )}
    </fieldset>
  );
}

interface KindFieldsProps {
  form: ScheduleForm;
  problems: FormProblems;
  collections: readonly Collection[];
  onChange(next: ScheduleForm): void;
}

/** The inputs of the chosen kind. */
function KindFields({ form, problems, collections, onChange }: KindFieldsProps) {
  const set = (patch: Partial<ScheduleForm>) => onChange({ ...form, ...patch });
  const time = (
    <TextField
      label="At"
      type="time"
      value={form.time}
      error={problems.time}
      required
      onChange={(e) => set({ time: e.target.value })}
    />
  );
  const days = (
    <DaysField days={form.days} error={problems.days} onChange={(d) => set({ days: d })} />
  );
  if (form.kind === 'weekly') {
    return (
      <>
        {days}
        {time}
      </>
    );
  }
  const collection = (
    <CollectionField
      form={form}
      problems={problems}
      collections={collections}
      onChange={onChange}
    />
  );
  if (form.kind === 'formula') {
    return (
      <>
        {collection}
        <FormulaField form={form} problems={problems} collections={collections} onChange={set} />
        {days}
        {time}
      </>
    );
  }
  // A day before a date has a time of day; a time before a date and time counts in minutes.
  const byDay = form.kind === 'recordDay';
  return (
    <>
      {collection}
      <FieldField form={form} problems={problems} collections={collections} onChange={set} />
      {byDay ? (
        <CountRow
          label="Days"
          value={form.dayCount}
          error={problems.dayCount}
          onChange={(dayCount) => set({ dayCount })}
        >
          <Direction
            value={form.dayDirection}
            what="the date"
            onChange={(dayDirection) => set({ dayDirection })}
          />
        </CountRow>
      ) : (
        <CountRow
          label="How long"
          value={form.amount}
          error={problems.amount}
          onChange={(amount) => set({ amount })}
        >
          <SelectField
            label="Unit"
            value={form.unit}
            onChange={(e) => set({ unit: e.target.value as TimeUnit })}
          >
            <option value="minutes">minutes</option>
            <option value="hours">hours</option>
            <option value="days">days</option>
          </SelectField>
          <Direction
            value={form.timeDirection}
            what="the time"
            onChange={(timeDirection) => set({ timeDirection })}
          />
        </CountRow>
      )}
      {byDay ? time : null}
    </>
  );
}

/**
 * A count beside its unit and direction, on one line where they fit; its problem goes under the
 * whole line, where it has room to be read.
 */
function CountRow({
  label,
  value,
  error,
  onChange,
  children,
}: {
  label: string;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
  children: ReactNode;
}) {
  const errorId = useId();
  return (
    <div className="reminder-schedule__count">
      <div className="reminder-schedule__row">
        <TextField
          label={label}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {children}
      </div>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Direction({
  value,
  what,
  onChange,
}: {
  value: 'before' | 'after';
  what: string;
  onChange(value: 'before' | 'after'): void;
}) {
  return (
    <SelectField
      label="Before or after"
      value={value}
      onChange={(e) => onChange(e.target.value as 'before' | 'after')}
    >
      <option value="before">before {what}</option>
      <option value="after">after {what}</option>
    </SelectField>
  );
}

/** A choice that is no longer there (a collection or field deleted since) stays, named as gone. */
function GoneOption({ shown, label }: { shown: boolean; label: string }): ReactNode {
  return shown ? <option value="">{label}</option> : null;
}

function CollectionField({ form, problems, collections, onChange }: KindFieldsProps) {
  // The chosen collection stays listed when it no longer fits (its date field was deleted): the
  // problem is then at the field, where it is.
  const fitting = collections.filter(
    (c) => c.id === form.collectionId || collectionsFor(form.kind, [c]).length > 0,
  );
  const known = fitting.some((c) => c.id === form.collectionId);
  return (
    <SelectField
      label="Collection"
      value={known ? form.collectionId : ''}
      error={problems.collectionId}
      onChange={(e) => onChange(withCollection(form, e.target.value, collections))}
    >
      <GoneOption shown={!known} label="Choose a collection" />
      {fitting.map((c) => (
        <option key={c.id} value={c.id}>
          {c.name}
        </option>
      ))}
    </SelectField>
  );
}

function FieldField({
  form,
  problems,
  collections,
  onChange,
}: Omit<KindFieldsProps, 'onChange'> & { onChange(patch: Partial<ScheduleForm>): void }) {
  const kind = form.kind === 'recordTime' ? 'recordTime' : 'recordDay';
  const collection = collections.find((c) => c.id === form.collectionId);
  const fields = collection ? dateFieldsOf(kind, collection) : [];
  const known = fields.some((f) => f.id === form.fieldId);
  return (
    <SelectField
      label={kind === 'recordDay' ? 'Date field' : 'Date-and-time field'}
      value={known ? form.fieldId : ''}
      error={problems.fieldId}
      onChange={(e) => onChange({ fieldId: e.target.value })}
    >
      <GoneOption shown={!known} label="Choose a field" />
      {fields.map((f) => (
        <option key={f.id} value={f.id}>
          {f.name}
        </option>
      ))}
    </SelectField>
  );
}

/** The formula, checked against the chosen collection's fields as it is typed. */
function FormulaField({
  form,
  problems,
  collections,
  onChange,
}: Omit<KindFieldsProps, 'onChange'> & { onChange(patch: Partial<ScheduleForm>): void }) {
  const collection = collections.find((c) => c.id === form.collectionId);
  const names = collection
    ? fieldsForFormulas(collections, collection)
        .slice(0, 3)
        .map((f) => `{${f.name}}`)
    : [];
  return (
    <div className="formula-editor">
      <TextArea
        label="Formula"
        rows={2}
        value={form.formula}
        error={problems.formula}
        hint={`Reminds about each record it is true for. Name fields in braces${names.length ? `: ${names.join(', ')}` : ''}.`}
        onChange={(e) => onChange({ formula: e.target.value })}
      />
      <FormulaFunctions />
    </div>
  );
}

/** The weekdays as toggle chips, with "every day" and "weekdays" a click away. */
function DaysField({
  days,
  error,
  onChange,
}: {
  days: readonly Weekday[];
  error: string | undefined;
  onChange(days: Weekday[]): void;
}) {
  const errorId = useId();
  return (
    <fieldset className="reminder-days" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">Days</legend>
      <div className="reminder-days__chips">
        {WEEKDAYS.map((day) => (
          <button
            key={day}
            type="button"
            className="chip reminder-days__day"
            aria-pressed={days.includes(day)}
            aria-label={DAY_NAMES[day - 1]}
            onClick={() => onChange(toggleDay(days, day))}
          >
            {DAY_NAMES[day - 1]!.slice(0, 2)}
          </button>
        ))}
      </div>
      <div className="reminder-days__shortcuts">
        <button
          type="button"
          className="chip reminder-days__shortcut"
          aria-pressed={sameDays(days, EVERY_DAY)}
          onClick={() => onChange([...EVERY_DAY])}
        >
          Every day
        </button>
        <button
          type="button"
          className="chip reminder-days__shortcut"
          aria-pressed={sameDays(days, WORKDAYS)}
          onClick={() => onChange([...WORKDAYS])}
        >
          Weekdays
        </button>
      </div>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
