import { type CheckedValues, checkFieldValues, type Field, isIsoDate } from '@pipit/app-definition';
import type { RecordValue } from './records';

/** What a form's controls hold: text for inputs and selects, a tick for yes/no fields. */
export type FormInput = Record<string, string | boolean>;

function asText(field: Field, value: RecordValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  // A date input only takes `YYYY-MM-DD`; anything else would be dropped with a console warning.
  return field.type === 'date' && !isIsoDate(text) ? '' : text;
}

/** The controls' starting values: the record's (editing) or each field's default (a new record). */
export function initialFormInput(
  fields: readonly Field[],
  values: Readonly<Record<string, RecordValue>> | null,
): FormInput {
  const input: FormInput = {};
  for (const field of fields) {
    const value = values ? values[field.id] : field.default;
    input[field.id] =
      field.type === 'boolean' ? value === true || value === 'true' : asText(field, value);
  }
  return input;
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
