import { type Field, LIMITS } from '@pipit/app-definition';
import { groupedCount } from '@pipit/protocol';
import { z } from 'zod';
import { SelectField } from '../../../ui/field';
import { DraftNumber, DraftText } from './draft-fields';
import { urlProblem } from './validation';

type Value = string | number | boolean | null;

const emailSchema = z.email();

function textProblem(value: string): string | null {
  return value.length > LIMITS.textLength
    ? `Keep it to ${groupedCount(LIMITS.textLength)} characters.`
    : null;
}

/** Edits one value of a field's type (a record's value, a field's default); empty means none. */
export function ValueInput({
  field,
  label,
  value,
  onChange,
  disabled,
}: {
  field: Field;
  label: string;
  value: Value;
  onChange(value: Value): void;
  disabled: boolean;
}) {
  const text = typeof value === 'string' ? value : value === null ? '' : String(value);
  const orNull = (v: string) => (v === '' ? null : v);
  switch (field.type) {
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
