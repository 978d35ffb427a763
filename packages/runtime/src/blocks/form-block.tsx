import type { ComponentProps, Field } from '@pipit/app-definition';
import type { FormEvent, ReactNode } from 'react';
import { findCollection, findField, type RecordValue } from '../records';
import type { RenderContext } from '../render-context';
import { SetupNote } from './setup-note';

const INPUT_TYPES: Partial<Record<Field['type'], string>> = {
  text: 'text',
  number: 'number',
  date: 'date',
  url: 'url',
  email: 'email',
};

function asText(value: RecordValue): string {
  return value === null || value === undefined ? '' : String(value);
}

/** One labelled control per field type, disabled: the preview shows the form, it never saves. */
function FormField({ field, value }: { field: Field; value: RecordValue }) {
  const text = asText(value);
  if (field.type === 'boolean') {
    return (
      <label className="rt-check">
        <input
          type="checkbox"
          className="rt-checkbox"
          disabled
          defaultChecked={value === true || value === 'true'}
        />
        <span>{field.name}</span>
      </label>
    );
  }
  let control: ReactNode;
  if (field.type === 'longText') {
    control = <textarea className="rt-input" rows={3} disabled defaultValue={text} />;
  } else if (field.type === 'select') {
    control = (
      <select className="rt-input" disabled defaultValue={text}>
        <option value="">Choose…</option>
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    // A date input only takes `yyyy-mm-dd`; anything else would be dropped with a console warning.
    const shown = field.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text) ? '' : text;
    control = (
      <input
        className="rt-input"
        type={INPUT_TYPES[field.type] ?? 'text'}
        disabled
        required={field.required}
        defaultValue={shown}
      />
    );
  }
  return (
    <label className="rt-field">
      <span className="rt-field-label">
        {field.name}
        {field.required && <span className="rt-muted"> (required)</span>}
      </span>
      {control}
    </label>
  );
}

function preventSubmit(event: FormEvent) {
  event.preventDefault();
}

export function FormBlock({
  props,
  context,
}: {
  props: ComponentProps<'form'>;
  context: RenderContext;
}) {
  const collection = findCollection(context.definition.collections, props.collectionId);
  if (!collection) return <SetupNote>Choose a collection for this form.</SetupNote>;
  const fields =
    props.fieldIds.length > 0
      ? props.fieldIds.map((id) => findField(collection, id)).filter((f): f is Field => f !== null)
      : collection.fields;
  const record = props.mode === 'edit' ? collection.records[0] : undefined;
  return (
    <form
      className="rt-card rt-form"
      aria-label={`${props.mode === 'edit' ? 'Edit' : 'New'} ${collection.name}`}
      onSubmit={preventSubmit}
      noValidate
    >
      {fields.length === 0 && <p className="rt-muted">This collection has no fields yet.</p>}
      {fields.map((field) => (
        <FormField
          key={field.id}
          field={field}
          value={record ? record.values[field.id] : field.default}
        />
      ))}
      <button type="button" className="rt-button rt-button-primary">
        {props.submitLabel || 'Save'}
      </button>
    </form>
  );
}
