import {
  type CheckedValues,
  checkFieldValues,
  COMPUTED_FIELD_TYPES,
  dateTimeInputText,
  durationInputText,
  type Field,
  isIsoDate,
} from '@pipit/app-definition';
import type { RecordValue } from './records';

/**
 * What a form's controls hold: text for inputs and selects, a tick for yes/no fields, the ticked
 * choices of a multi-choice field, the ids of a relation's chosen records.
 */
export type FormInputValue = string | boolean | string[];
export type FormInput = Record<string, FormInputValue>;

function asInput(field: Field, value: RecordValue): FormInputValue {
  if (field.type === 'boolean') return value === true || value === 'true';
  if (field.type === 'multiChoice' || field.type === 'relation') {
    if (Array.isArray(value)) return value;
    return typeof value === 'string' && value ? [value] : [];
  }
  if (value === null || value === undefined || Array.isArray(value)) return '';
  if (field.type === 'duration' && typeof value === 'number') return durationInputText(value);
  if (field.type === 'dateTime') return dateTimeInputText(String(value));
  const text = String(value);
  // A date input only takes `YYYY-MM-DD`; anything else would be dropped with a console warning.
  return field.type === 'date' && !isIsoDate(text) ? '' : text;
}

/** The fields a form shows: computed ones are worked out, never typed in. */
export function formFields(fields: readonly Field[]): Field[] {
  return fields.filter((f) => !COMPUTED_FIELD_TYPES.includes(f.type));
}

/** The controls' starting values: the record's (editing) or each field's default (a new record). */
export function initialFormInput(
  fields: readonly Field[],
  values: Readonly<Record<string, RecordValue>> | null,
): FormInput {
  const input: FormInput = {};
  for (const field of fields)
    input[field.id] = asInput(field, values ? values[field.id] : field.default);
  return input;
}

/** Whether a control's value differs from another's (lists by their items). */
export function sameInput(a: FormInputValue | undefined, b: FormInputValue | undefined): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => v === b[i])
    );
  return (a ?? '') === (b ?? '');
}

/**
 * The form's values as their fields store them, and a message per field that is wrong (required,
 * number, date, select, url, email, length): the same rules the visitor's document enforces.
 */
export function validateForm(fields: readonly Field[], input: FormInput): CheckedValues {
  const given: Record<string, unknown> = {};
  for (const field of fields) given[field.id] = input[field.id] ?? '';
  return checkFieldValues(fields, given, { complete: false });
}
