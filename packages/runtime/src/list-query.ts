import type { Collection, Field } from '@pipit/app-definition';
import { fieldText, isChecked, isEmpty, type ValuesRecord } from './records';

/*
 * What a visitor narrows a list to, in any view (docs/product/app-definition.md, "Views of a
 * list"): words to search for and one choice of a quick filter. Applied after the creator's filter
 * and before the sort, so the creator's list is what a visitor searches in.
 */

/** The row of choices a visitor can narrow a list by: a select field's, or a yes/no field's. */
export interface QuickFilter {
  field: Field;
  choices: ReadonlyArray<{ value: string; label: string }>;
}

export interface VisitorQuery {
  /** What the search box holds. */
  text: string;
  /** The quick filter's choice kept (a select's option, `yes` or `no`), or null for all. */
  choice: string | null;
}

export const NO_QUERY: VisitorQuery = { text: '', choice: null };

const YES_NO = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;

/**
 * The collection's first person field when the person shares a space with others (`me`: theirs
 * are kept, "assigned to me"), else its first select field with choices, else its first yes/no
 * field; `except` is left out (a board's columns already split the records by their group field).
 */
export function quickFilterOf(
  collection: Collection,
  except: string | null,
  me: string | null = null,
): QuickFilter | null {
  const usable = collection.fields.filter((f) => f.id !== except);
  const person = me ? usable.find((f) => f.type === 'person') : undefined;
  if (person && me) return { field: person, choices: [{ value: me, label: 'Me' }] };
  const select = usable.find((f) => f.type === 'select' && f.options.length > 0);
  if (select) {
    const options = [...new Set(select.options)];
    return { field: select, choices: options.map((o) => ({ value: o, label: o })) };
  }
  const yesNo = usable.find((f) => f.type === 'boolean');
  return yesNo ? { field: yesNo, choices: YES_NO } : null;
}

const folded = (text: string) => text.toLocaleLowerCase();

/**
 * Whether any value of the record contains `text`, in any case: as it is shown (`1,200`) or as it
 * is stored (`1200`). Yes/no values are left out: "no" would find every unticked record.
 */
export function matchesSearch(
  record: ValuesRecord,
  fields: readonly Field[],
  text: string,
): boolean {
  const wanted = folded(text.trim());
  if (!wanted) return true;
  return fields.some((field) => {
    if (field.type === 'boolean') return false;
    const value = record.values[field.id];
    if (isEmpty(value)) return false;
    // A relation is found by its linked records' names, a person by theirs, never by ids.
    if (field.type === 'relation' || field.type === 'person')
      return folded(fieldText(record, field)).includes(wanted);
    return (
      folded(fieldText(record, field)).includes(wanted) || folded(String(value)).includes(wanted)
    );
  });
}

export function matchesChoice(record: ValuesRecord, filter: QuickFilter, choice: string): boolean {
  const value = record.values[filter.field.id];
  if (filter.field.type === 'boolean') return isChecked(value) === (choice === 'yes');
  return !isEmpty(value) && String(value) === choice;
}

/** The records the visitor's search and quick filter keep, in their order. */
export function narrowRecords<R extends ValuesRecord>(
  records: readonly R[],
  fields: readonly Field[],
  filter: QuickFilter | null,
  query: VisitorQuery,
): R[] {
  const { text, choice } = query;
  return records.filter(
    (record) =>
      (choice === null || !filter || matchesChoice(record, filter, choice)) &&
      matchesSearch(record, fields, text),
  );
}
