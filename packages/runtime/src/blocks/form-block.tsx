import {
  type Collection,
  type ComponentProps,
  DefinitionError,
  type Field,
} from '@pipit/app-definition';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type FormInput, initialFormInput, validateForm } from '../form-state';
import { focusFirst, inputChecked, inputValue } from '../host';
import { findCollection, findField } from '../records';
import type { RenderContext, RunContext } from '../render-context';
import { lockedMessage } from '../actions';
import { createBlocked } from '../permissions';
import { SetupNote } from './setup-note';

const INPUT_TYPES: Partial<Record<Field['type'], string>> = {
  text: 'text',
  number: 'number',
  date: 'date',
  url: 'url',
  email: 'email',
};

const SAVE_FAILED = 'This couldn’t be saved. Try again.';

interface ControlProps {
  field: Field;
  /** Unique on the page: the error message's id is made from it. */
  id: string;
  value: string | boolean;
  error: string | undefined;
  /** Absent in the editor's preview: the control is shown disabled. */
  onChange?: ((value: string | boolean) => void) | undefined;
}

/**
 * One control per field type inside its label; its error, if any, follows the label and is tied to
 * the control (aria-invalid, aria-describedby) so a screen reader reads it with the field.
 */
function FormControl({ field, id, value, error, onChange }: ControlProps) {
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
  const text = typeof value === 'string' ? value : '';
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
  } else if (field.type === 'select') {
    control = (
      <select {...common}>
        <option value="">Choose…</option>
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        type={INPUT_TYPES[field.type] ?? 'text'}
        {...(field.type === 'number' ? { inputMode: 'decimal' as const, step: 'any' } : {})}
        {...(field.type === 'email' ? { autoComplete: 'email' } : {})}
        {...common}
      />
    );
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

interface FormParts {
  props: ComponentProps<'form'>;
  collection: Collection;
  fields: Field[];
}

/** The form of a running app: checks each field, saves to the visitor's data, runs its action. */
function LiveForm({ props, collection, fields, run }: FormParts & { run: RunContext }) {
  const idPrefix = useId();
  const editing = props.mode === 'edit';
  const target = editing && run.current?.collectionId === collection.id ? run.current : null;
  const [input, setInput] = useState<FormInput>(() =>
    initialFormInput(fields, target ? target.values : null),
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
  const typed = fields.some((f) => (input[f.id] ?? '') !== (pristine[f.id] ?? ''));
  if (closed && !typed) return <SetupNote>{closed}</SetupNote>;

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
          onChange={(value) => setInput((current) => ({ ...current, [field.id]: value }))}
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
  const fields =
    props.fieldIds.length > 0
      ? props.fieldIds.map((id) => findField(collection, id)).filter((f): f is Field => f !== null)
      : collection.fields;
  if (context.run) {
    return <LiveForm props={props} collection={collection} fields={fields} run={context.run} />;
  }
  // The editor's preview shows the form as it will look, disabled: it never saves.
  const record = props.mode === 'edit' ? collection.records[0] : undefined;
  const input = initialFormInput(fields, record ? record.values : null);
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
        />
      ))}
      <button type="button" className="rt-button rt-button-primary">
        {props.submitLabel || 'Save'}
      </button>
    </form>
  );
}
