import type { Field } from '@pipit/app-definition';
import { isEmpty, type ValuesRecord } from '../records';

/** One column of a board: a choice of its group field, or the records without one. */
export interface BoardColumn<R> {
  key: string;
  /** What a card moved here gets as its group field's value: the choice, or null for none. */
  value: string | null;
  label: string;
  records: R[];
}

/**
 * A board's columns, one per choice of `field` in the field's order, each with its records in the
 * order given, then "No <field>" for the records without a choice — and for a value that is no
 * longer one of the choices (renamed since), which has no column of its own to be in. That last
 * column shows only when it has records or the field may be left empty: moving a card there
 * would otherwise be refused.
 */
export function boardColumns<R extends ValuesRecord>(
  records: readonly R[],
  field: Field,
): Array<BoardColumn<R>> {
  const choices = [...new Set(field.options)];
  const columns: Array<BoardColumn<R>> = choices.map((choice, i) => ({
    key: `choice-${i}`,
    value: choice,
    label: choice,
    records: [],
  }));
  const byChoice = new Map(columns.map((column) => [column.value, column]));
  const none: BoardColumn<R> = { key: 'none', value: null, label: `No ${field.name}`, records: [] };
  for (const record of records) {
    const value = record.values[field.id];
    const column = isEmpty(value) ? undefined : byChoice.get(String(value));
    (column ?? none).records.push(record);
  }
  return none.records.length > 0 || !field.required ? [...columns, none] : columns;
}

/** The column a record is in, by the same rule. */
export function columnOf<R extends ValuesRecord>(
  columns: ReadonlyArray<BoardColumn<R>>,
  record: R,
): BoardColumn<R> | undefined {
  return columns.find((column) => column.records.includes(record));
}
