import {
  coerceFieldValue,
  dateTimeInputText,
  durationInputText,
  type Field,
  type FieldValue,
  LIMITS,
  linkedIds,
  nameField,
} from '@pipit/app-definition';
import { groupedCount } from '@pipit/protocol';
import { z } from 'zod';
import { SelectField } from '../../../ui/field';
import { DraftNumber, DraftText } from './draft-fields';
import { useEditor } from './editor-context';
import { urlProblem } from './validation';

type Value = FieldValue;

/** Checks typed text the way a visitor's form does, without requiring a value. */
function coerced(field: Field, text: string) {
  return coerceFieldValue({ ...field, required: false }, text);
}

function problemOf(field: Field) {
  return (text: string) => {
    const result = coerced(field, text);
    return result.ok ? null : result.message;
  };
}

/** The text a typed value is edited as (a duration's `1:30`, a moment in this device's zone). */
function editText(field: Field, value: Value): string {
  if (value === null) return '';
  if (field.type === 'duration' && typeof value === 'number') return durationInputText(value);
  if (field.type === 'dateTime') return dateTimeInputText(String(value));
  return Array.isArray(value) ? value.join(', ') : String(value);
}

const emailSchema = z.email();

function textProblem(value: string): string | null {
  return value.length > LIMITS.textLength
    ? `Keep it to ${groupedCount(LIMITS.textLength)} characters.`
    : null;
}

interface ValueInputProps {
  field: Field;
  label: string;
  value: Value;
  onChange(value: Value): void;
  disabled: boolean;
}

/** Edits one value of a field's type (a record's value, a field's default); empty means none. */
export function ValueInput({ field, label, value, onChange, disabled }: ValueInputProps) {
  const text = typeof value === 'string' ? value : value === null ? '' : String(value);
  const orNull = (v: string) => (v === '' ? null : v);
  switch (field.type) {
    case 'relation':
      return (
        <LinkInput
          field={field}
          label={label}
          value={value}
          onChange={onChange}
          disabled={disabled}
        />
      );
    case 'multiChoice':
    case 'rating':
    case 'currency':
    case 'duration':
    case 'dateTime':
    case 'formula':
    case 'rollup':
      return (
        <RicherValueInput
          field={field}
          label={label}
          value={value}
          onChange={onChange}
          disabled={disabled}
        />
      );
    case 'number':
      return (
        <DraftNumber
          label={label}
          value={typeof value === 'number' ? value : null}
          allowEmpty
          disabled={disabled}
          onCommit={onChange}
        />
      );
    case 'boolean':
      return (
        <label className="checkbox checkbox--compact">
          <input
            type="checkbox"
            checked={value === true}
            disabled={disabled}
            onChange={(e) => onChange(e.target.checked)}
          />
          <span>{label}</span>
        </label>
      );
    case 'select':
      return (
        <SelectField
          label={label}
          value={text}
          disabled={disabled}
          hint={field.options.length === 0 ? 'Add choices to this field first.' : undefined}
          onChange={(e) => onChange(orNull(e.target.value))}
        >
          <option value="">None</option>
          {field.options.map((option, i) => (
            <option key={`${option}-${i}`} value={option}>
              {option}
            </option>
          ))}
          {text && !field.options.includes(text) ? <option value={text}>{text}</option> : null}
        </SelectField>
      );
    case 'date':
      return (
        <DraftText
          label={label}
          type="date"
          value={text}
          disabled={disabled}
          validate={(v) => (v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v) ? null : 'Use a date.')}
          onCommit={(v) => onChange(orNull(v))}
        />
      );
    case 'url':
      return (
        <DraftText
          label={label}
          value={text}
          disabled={disabled}
          placeholder="https://"
          validate={urlProblem}
          onCommit={(v) => onChange(orNull(v.trim()))}
        />
      );
    case 'email':
      return (
        <DraftText
          label={label}
          type="email"
          value={text}
          disabled={disabled}
          validate={(v) =>
            v.trim() === '' || emailSchema.safeParse(v.trim()).success
              ? null
              : 'Use an email address like name@example.org.'
          }
          onCommit={(v) => onChange(orNull(v.trim()))}
        />
      );
    case 'image':
    case 'file':
      // Kept beside a visitor's own records, on their device and the server: the app's own
      // records hold none.
      return (
        <p className="field__hint">
          {label}: {field.type === 'image' ? 'photos' : 'files'} are added by the people using the
          app.
        </p>
      );
    case 'person':
      // An account of a visitor's space: the app's own records, seen by everyone, name nobody.
      return <p className="field__hint">{label}: people pick someone in their shared space.</p>;
    case 'longText':
    case 'text':
      return (
        <DraftText
          label={label}
          value={text}
          multiline={field.type === 'longText'}
          rows={3}
          disabled={disabled}
          validate={textProblem}
          onCommit={(v) => onChange(orNull(v))}
        />
      );
  }
}

/** The types typed as text and checked as a visitor's form checks them, or picked from a list. */
function RicherValueInput({ field, label, value, onChange, disabled }: ValueInputProps) {
  const commitTyped = (v: string) => {
    const result = coerced(field, v);
    if (result.ok) onChange(result.value);
  };
  switch (field.type) {
    case 'multiChoice':
      return field.options.length > 0 ? (
        <fieldset className="prop-group">
          <legend className="field__label">{label}</legend>
          {field.options.map((option, i) => {
            const chosen = Array.isArray(value) ? value : [];
            return (
              <label key={`${option}-${i}`} className="checkbox checkbox--compact">
                <input
                  type="checkbox"
                  checked={chosen.includes(option)}
                  disabled={disabled}
                  onChange={(e) =>
                    commitTyped(
                      (e.target.checked
                        ? [...chosen, option]
                        : chosen.filter((c) => c !== option)
                      ).join('\n'),
                    )
                  }
                />
                <span>{option}</span>
              </label>
            );
          })}
        </fieldset>
      ) : (
        <DraftText
          label={label}
          hint="Separate tags with commas."
          value={editText(field, value)}
          disabled={disabled}
          validate={problemOf(field)}
          onCommit={commitTyped}
        />
      );
    case 'rating':
      return (
        <SelectField
          label={label}
          value={typeof value === 'number' ? String(value) : ''}
          disabled={disabled}
          onChange={(e) => commitTyped(e.target.value)}
        >
          <option value="">None</option>
          {Array.from({ length: field.scale ?? 5 }, (_, i) => i + 1).map((stars) => (
            <option key={stars} value={stars}>
              {'★'.repeat(stars)} ({stars})
            </option>
          ))}
        </SelectField>
      );
    case 'currency':
    case 'duration':
    case 'dateTime':
      return (
        <DraftText
          label={label}
          type={field.type === 'dateTime' ? 'datetime-local' : 'text'}
          placeholder={field.type === 'duration' ? '1:30 or 45 min' : undefined}
          value={editText(field, value)}
          disabled={disabled}
          validate={problemOf(field)}
          onCommit={commitTyped}
        />
      );
    case 'formula':
      return <p className="editor-muted">{label}: worked out by its formula.</p>;
    case 'rollup':
      return <p className="editor-muted">{label}: worked out from the linked records.</p>;
    default:
      return null;
  }
}

/** A creator record's links: its target's creator records, by name, one or several. */
function LinkInput({ field, label, value, onChange, disabled }: ValueInputProps) {
  const { definition } = useEditor();
  const target = definition.collections.find((c) => c.id === field.target);
  if (!target) return <p className="editor-muted">{label}: choose the collection it links to.</p>;
  const named = nameField(target);
  const nameOf = (values: Readonly<Record<string, FieldValue>>) =>
    (named && values[named.id] !== null && values[named.id] !== undefined
      ? String(values[named.id])
      : '') || 'Untitled';
  const chosen = linkedIds(value);
  if (!field.many)
    return (
      <SelectField
        label={label}
        value={chosen[0] ?? ''}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value ? [e.target.value] : null)}
      >
        <option value="">None</option>
        {target.records.map((r) => (
          <option key={r.id} value={r.id}>
            {nameOf(r.values)}
          </option>
        ))}
      </SelectField>
    );
  return (
    <fieldset className="prop-group">
      <legend className="field__label">{label}</legend>
      {target.records.length === 0 ? (
        <p className="editor-muted">{target.name} has no records to link yet.</p>
      ) : null}
      {target.records.map((r) => (
        <label key={r.id} className="checkbox checkbox--compact">
          <input
            type="checkbox"
            checked={chosen.includes(r.id)}
            disabled={disabled}
            onChange={(e) => {
              const next = e.target.checked
                ? [...chosen, r.id]
                : chosen.filter((id) => id !== r.id);
              onChange(next.length ? next : null);
            }}
          />
          <span>{nameOf(r.values)}</span>
        </label>
      ))}
    </fieldset>
  );
}
