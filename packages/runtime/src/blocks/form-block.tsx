import {
  type Collection,
  type ComponentProps,
  DEFAULT_CURRENCY,
  DefinitionError,
  type Field,
  FORMER_MEMBER,
  type ReadDefinition,
} from '@pipit/app-definition';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  type FormInput,
  type FormInputValue,
  formFields,
  initialFormInput,
  sameInput,
  validateForm,
} from '../form-state';
import { focusFirst, inputChecked, inputValue } from '../host';
import { findCollection, findField, SOMEONE } from '../records';
import type { FormPrefill } from '../navigation';
import type { RenderContext, RunContext } from '../render-context';
import { lockedMessage } from '../actions';
import { createBlocked } from '../permissions';
import type { LinkSource } from './link-picker';
import { lazyPart } from '../lazy-part';
import { fileControlModule, linkPickerModule } from '../parts';
import { SetupNote } from './setup-note';
import type { RuntimeFiles } from '../runtime-data';
import type { PeopleView } from '../runtime-records';

const INPUT_TYPES: Partial<Record<Field['type'], string>> = {
  text: 'text',
  number: 'number',
  date: 'date',
  dateTime: 'datetime-local',
  url: 'url',
  email: 'email',
};

const PLACEHOLDERS: Partial<Record<Field['type'], string>> = {
  duration: '1:30 or 45 min',
  currency: '0.00',
};

const SAVE_FAILED = 'This couldn’t be saved. Try again.';

interface ControlProps {
  field: Field;
  /** Unique on the page: the error message's id is made from it. */
  id: string;
  value: FormInputValue;
  error: string | undefined;
  /** The app's currency code, for a currency field's sign. */
  currency: string;
  /** Absent in the editor's preview: the control is shown disabled. */
  onChange?: ((value: FormInputValue) => void) | undefined;
  /** Where a relation field finds the records it can link. */
  links: LinkSource;
  /** For an image or file field: its collection, and where the host keeps photos and files. */
  collectionId?: string;
  files?: RuntimeFiles | null;
  /** For a person field: whom it can name (absent in the editor's preview). */
  people?: PeopleView | null;
}

/**
 * A person field's picker: a plain select of the space's people, the person themselves first as
 * "Me", then the others by name; someone no longer in the space stays chosen as "a former member"
 * until changed. Signed out, nobody can be named, and the control says where it works.
 */
function personOptions(view: PeopleView | null | undefined, value: string) {
  const people = view?.people ?? [];
  const me = view?.me;
  const myName = people.find((p) => p.id === me)?.name;
  const options = people
    .filter((p) => p.id !== me)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => ({ value: p.id, label: p.name }));
  if (me) options.unshift({ value: me, label: myName ? `Me (${myName})` : 'Me' });
  if (value && !options.some((o) => o.value === value))
    options.push({ value, label: view?.people ? FORMER_MEMBER : SOMEONE });
  return options;
}

const controlLoading = () => <p className="rt-muted">Loading…</p>;
/** A relation's control: its own chunk, like relations themselves (parts.ts). */
const RelationControl = lazyPart(linkPickerModule, (m) => m.RelationControl, controlLoading);
/** A photo or file's control: its own chunk, only for apps with such fields (parts.ts). */
const FileControl = lazyPart(fileControlModule, (m) => m.FileControl, controlLoading);

/** The sign an amount is written with in this currency ("$", "€"), or its code. */
function currencySign(currency: string): string {
  try {
    const parts = new Intl.NumberFormat(undefined, { style: 'currency', currency }).formatToParts(
      0,
    );
    return parts.find((p) => p.type === 'currency')?.value ?? currency;
  } catch {
    return currency;
  }
}

/**
 * Controls that are a group of choices (a multi-choice field's boxes, a rating's stars): a
 * fieldset whose legend is the field's name, so each box is read with it.
 */
function ChoiceGroup({
  field,
  value,
  a11y,
  live,
  onChange,
}: {
  field: Field;
  value: FormInputValue;
  a11y: Record<string, unknown>;
  live: boolean;
  onChange?: ((value: FormInputValue) => void) | undefined;
}) {
  const name = useId();
  if (field.type === 'rating') {
    const scale = field.scale ?? 5;
    const current = Number(value) || 0;
    return (
      <div className="rt-rating" role="radiogroup" aria-label={field.name} {...a11y}>
        {Array.from({ length: scale }, (_, i) => i + 1).map((stars) => (
          <label key={stars} className="rt-star" data-on={stars <= current || undefined}>
            <input
              type="radio"
              className="rt-visually-hidden"
              name={name}
              value={stars}
              disabled={!live}
              checked={stars === current}
              onChange={() => onChange?.(String(stars))}
            />
            <span aria-hidden="true">{stars <= current ? '★' : '☆'}</span>
            <span className="rt-visually-hidden">{stars === 1 ? '1 star' : `${stars} stars`}</span>
          </label>
        ))}
        {current > 0 && live && !field.required ? (
          <button type="button" className="rt-link-button" onClick={() => onChange?.('')}>
            Clear
          </button>
        ) : null}
      </div>
    );
  }
  const chosen = Array.isArray(value) ? value : [];
  return (
    <div className="rt-choices" {...a11y}>
      {field.options.map((option) => (
        <label key={option} className="rt-check">
          <input
            type="checkbox"
            className="rt-checkbox"
            disabled={!live}
            checked={chosen.includes(option)}
            onChange={(e) =>
              onChange?.(inputChecked(e) ? [...chosen, option] : chosen.filter((c) => c !== option))
            }
          />
          <span>{option}</span>
        </label>
      ))}
    </div>
  );
}

/**
 * One control per field type inside its label; its error, if any, follows the label and is tied to
 * the control (aria-invalid, aria-describedby) so a screen reader reads it with the field.
 */
function FormControl(props: ControlProps) {
  const { field, id, value, error, currency, onChange, links } = props;
  const errorId = `${id}-error`;
  const live = onChange !== undefined;
  const a11y = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  } as const;
  const errorText = error ? (
    <p className="rt-field-error" id={errorId}>
      <span aria-hidden="true">⚠️ </span>
      {error}
    </p>
  ) : null;
  if (field.type === 'image' || field.type === 'file') {
    return (
      <FileControl
        field={field}
        collectionId={props.collectionId ?? ''}
        files={props.files ?? null}
        value={value}
        labelId={`${id}-label`}
        a11y={a11y}
        onChange={onChange}
        errorText={errorText}
      />
    );
  }
  if (field.type === 'boolean') {
    return (
      <div className="rt-field-group">
        <label className="rt-check">
          <input
            type="checkbox"
            className="rt-checkbox"
            {...a11y}
            disabled={!live}
            {...(live
              ? { checked: value === true, onChange: (e) => onChange(inputChecked(e)) }
              : { defaultChecked: value === true })}
          />
          <span>{field.name}</span>
        </label>
        {errorText}
      </div>
    );
  }
  if (field.type === 'person' && live && !props.people?.me) {
    return (
      <div className="rt-field-group">
        <p className="rt-field-label">{field.name}</p>
        <p className="rt-muted">Sign in and share this in a space to assign it to someone.</p>
      </div>
    );
  }
  if (field.type === 'relation') {
    return (
      <fieldset className="rt-field-group rt-fieldset" aria-describedby={a11y['aria-describedby']}>
        <legend className="rt-field-label">
          {field.name}
          {field.required && <span className="rt-muted"> (required)</span>}
        </legend>
        <RelationControl
          field={field}
          value={value}
          live={live}
          onChange={onChange}
          source={links}
        />
        {errorText}
      </fieldset>
    );
  }
  const grouped = field.type === 'rating' || (field.type === 'multiChoice' && field.options.length);
  if (grouped) {
    return (
      <fieldset
        className="rt-field-group rt-fieldset"
        aria-describedby={field.type === 'multiChoice' ? a11y['aria-describedby'] : undefined}
      >
        <legend className="rt-field-label">
          {field.name}
          {field.required && <span className="rt-muted"> (required)</span>}
        </legend>
        <ChoiceGroup
          field={field}
          value={value}
          a11y={field.type === 'rating' ? a11y : {}}
          live={live}
          onChange={onChange}
        />
        {errorText}
      </fieldset>
    );
  }
  const text = Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';
  const common = {
    ...a11y,
    className: 'rt-input',
    disabled: !live,
    required: field.required,
    ...(live
      ? {
          value: text,
          onChange: (e: { currentTarget: unknown }) => onChange(inputValue(e)),
        }
      : { defaultValue: text }),
  };
  let control: ReactNode;
  if (field.type === 'longText') {
    control = <textarea rows={3} {...common} />;
  } else if (field.type === 'select' || field.type === 'person') {
    const choices =
      field.type === 'person'
        ? personOptions(props.people, text)
        : field.options.map((option) => ({ value: option, label: option }));
    control = (
      <select {...common}>
        <option value="">
          {field.type === 'person' && !field.required ? 'Nobody' : 'Choose…'}
        </option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        type={INPUT_TYPES[field.type] ?? 'text'}
        {...(field.type === 'number' ? { inputMode: 'decimal' as const, step: 'any' } : {})}
        {...(field.type === 'currency' ? { inputMode: 'decimal' as const } : {})}
        {...(field.type === 'email' ? { autoComplete: 'email' } : {})}
        placeholder={PLACEHOLDERS[field.type]}
        {...common}
      />
    );
    if (field.type === 'currency') {
      control = (
        <span className="rt-affixed">
          <span className="rt-affix" aria-hidden="true">
            {currencySign(currency)}
          </span>
          {control}
        </span>
      );
    }
  }
  return (
    <div className="rt-field-group">
      <label className="rt-field">
        <span className="rt-field-label">
          {field.name}
          {field.required && <span className="rt-muted"> (required)</span>}
        </span>
        {control}
      </label>
      {errorText}
    </div>
  );
}

/**
 * A new record's controls: each field's default, then what the screen was opened with (a
 * calendar's day) for the fields this form has.
 */
function prefilled(fields: readonly Field[], prefill: FormPrefill | null): FormInput {
  const input = initialFormInput(fields, null);
  for (const field of fields) {
    const given = prefill?.[field.id];
    if (given !== undefined && field.type !== 'boolean') input[field.id] = given;
  }
  return input;
}

interface FormParts {
  props: ComponentProps<'form'>;
  collection: Collection;
  fields: Field[];
  currency: string;
  definition: ReadDefinition;
}

/** The form of a running app: checks each field, saves to the visitor's data, runs its action. */
function LiveForm({
  props,
  collection,
  fields,
  currency,
  definition,
  run,
}: FormParts & { run: RunContext }) {
  const idPrefix = useId();
  const editing = props.mode === 'edit';
  const target = editing && run.current?.collectionId === collection.id ? run.current : null;
  const [input, setInput] = useState<FormInput>(() =>
    target ? initialFormInput(fields, target.values) : prefilled(fields, run.prefill),
  );
  const pristine = useMemo(() => initialFormInput(fields, null), [fields]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  // After a refused submit, focus goes to the first field to fix (its message is read with it).
  useEffect(() => {
    if (attempt > 0) focusFirst(formRef.current, '[aria-invalid="true"]');
  }, [attempt]);

  if (editing && !target) {
    return (
      <SetupNote>{`Open an item from a list of ${collection.name} to edit it here.`}</SetupNote>
    );
  }
  if (target && !target.isOwn) return <SetupNote>{lockedMessage(target)}</SetupNote>;
  // Closed to the person (a space they can only view): nothing to type that could be refused. A
  // form closed while something is typed in it keeps what was typed, and says why it can't save.
  const closed = target ? null : createBlocked(run.data, collection.id);
  const typed = fields.some((f) => !sameInput(input[f.id], pristine[f.id]));
  if (closed && !typed) return <SetupNote>{closed}</SetupNote>;
  const links: LinkSource = { definition, recordsOf: run.recordsOf };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (closed) {
      setFormError(closed);
      return;
    }
    const checked = validateForm(fields, input);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length > 0) {
      setFormError(null);
      setAttempt((n) => n + 1);
      return;
    }
    try {
      if (target) run.data.update(collection, target.id, checked.values);
      else run.data.create(collection, checked.values);
    } catch (error) {
      setFormError(error instanceof DefinitionError ? error.message : SAVE_FAILED);
      return;
    }
    setFormError(null);
    if (!target) setInput(initialFormInput(fields, null));
    if (!props.actionId) {
      run.toast(target ? 'Changes saved.' : 'Saved.');
      return;
    }
    setBusy(true);
    try {
      await run.runAction(props.actionId, { collection, values: checked.values });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      className="rt-card rt-form"
      aria-label={`${target ? 'Edit' : 'New'} ${collection.name}`}
      onSubmit={onSubmit}
      noValidate
    >
      {fields.length === 0 && <p className="rt-muted">This collection has no fields yet.</p>}
      {fields.map((field, i) => (
        <FormControl
          key={field.id}
          field={field}
          id={`${idPrefix}-f${i}`}
          value={input[field.id] ?? ''}
          error={errors[field.id]}
          currency={currency}
          collectionId={collection.id}
          files={run.files}
          people={run.data}
          onChange={(value) => setInput((current) => ({ ...current, [field.id]: value }))}
          links={links}
        />
      ))}
      {(formError ?? closed) && (
        <p className="rt-form-error" role="alert">
          {formError ?? closed}
        </p>
      )}
      <button
        type="submit"
        className="rt-button rt-button-primary"
        aria-disabled={busy || undefined}
      >
        {props.submitLabel || 'Save'}
      </button>
    </form>
  );
}

function preventSubmit(event: FormEvent) {
  event.preventDefault();
}

export function FormBlock({
  props,
  context,
  componentId,
}: {
  props: ComponentProps<'form'>;
  context: RenderContext;
  componentId: string;
}) {
  const collection = findCollection(context.definition.collections, props.collectionId);
  if (!collection) return <SetupNote>Choose a collection for this form.</SetupNote>;
  const fields = formFields(
    props.fieldIds.length > 0
      ? props.fieldIds.map((id) => findField(collection, id)).filter((f): f is Field => f !== null)
      : collection.fields,
  );
  const currency = context.definition.meta.currency ?? DEFAULT_CURRENCY;
  if (context.run) {
    return (
      <LiveForm
        props={props}
        collection={collection}
        fields={fields}
        currency={currency}
        definition={context.definition}
        run={context.run}
      />
    );
  }
  // The editor's preview shows the form as it will look, disabled: it never saves.
  const record = props.mode === 'edit' ? collection.records[0] : undefined;
  const input = initialFormInput(fields, record ? record.values : null);
  const links: LinkSource = {
    definition: context.definition,
    recordsOf: (id) => context.definition.collections.find((c) => c.id === id)?.records ?? [],
  };
  return (
    <form
      className="rt-card rt-form"
      aria-label={`${props.mode === 'edit' ? 'Edit' : 'New'} ${collection.name}`}
      onSubmit={preventSubmit}
      noValidate
    >
      {fields.length === 0 && <p className="rt-muted">This collection has no fields yet.</p>}
      {fields.map((field, i) => (
        <FormControl
          key={field.id}
          field={field}
          id={`${componentId}-f${i}`}
          value={input[field.id] ?? ''}
          error={undefined}
          currency={currency}
          links={links}
        />
      ))}
      <button type="button" className="rt-button rt-button-primary">
        {props.submitLabel || 'Save'}
      </button>
    </form>
  );
}
