import { LIMITS } from '../schema/limits';
import { VALUE_LIMITS } from '../schema/field-values';

/**
 * The bounds of a CSV file read for an import (docs/limits.md, CSV). The rows an import may add are
 * the collection's own limits (a creator's records, a visitor's items); these bound the reading.
 */
export const CSV_LIMITS = {
  /** The largest file read at all: an app's whole document is at most 5 MB. */
  fileBytes: 5 * 1024 * 1024,
  /** Columns in one file: a collection has at most this many fields. */
  columns: LIMITS.fieldsPerCollection,
  /** One cell: the longest value any field keeps (a long text). */
  cellLength: VALUE_LIMITS.longTextLength,
  /** A column's name, as a new field's name. */
  headerLength: LIMITS.nameLength,
  /** How many rows the preview shows before the import. */
  previewRows: 20,
  /** How many of a column's different values still make it a choice field. */
  choiceValues: 12,
} as const;
