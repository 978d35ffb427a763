import { type Collection, type Field, TABLE_DEFAULT_COLUMNS } from '@pipit/app-definition';
import type { ListSort } from '../records';

/**
 * A table's columns: the fields chosen that still exist, in the order chosen; none chosen, the
 * collection's first fields, as many as a laptop's width shows (TABLE_DEFAULT_COLUMNS).
 */
export function tableColumns(
  collection: Collection,
  columnFieldIds: readonly string[] | undefined,
): Field[] {
  const chosen = (columnFieldIds ?? [])
    .map((id) => collection.fields.find((f) => f.id === id))
    .filter((f): f is Field => f !== undefined);
  return chosen.length > 0 ? chosen : collection.fields.slice(0, TABLE_DEFAULT_COLUMNS);
}

/** A header pressed: the same column turns around, another sorts ascending. */
export function nextSort(current: ListSort | null, fieldId: string): ListSort {
  if (current?.fieldId === fieldId) {
    return { fieldId, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  }
  return { fieldId, direction: 'asc' };
}

/** A header's `aria-sort`: only the column the rows are sorted by says how. */
export function ariaSort(
  sort: ListSort | null,
  fieldId: string,
): 'ascending' | 'descending' | undefined {
  if (sort?.fieldId !== fieldId) return undefined;
  return sort.direction === 'desc' ? 'descending' : 'ascending';
}
