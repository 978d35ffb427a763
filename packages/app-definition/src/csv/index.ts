/**
 * CSV import and export of a collection's records (README.md): reading a file (Papa Parse), a
 * column mapping and the field types a column suggests, a preview of the rows as they will be
 * stored with each row's errors, and writing records back as CSV. Also the package's `./csv`
 * entry, so the installed app loads it (and Papa Parse) only when a visitor imports or exports.
 */
export { CSV_LIMITS } from './limits';
export {
  decodeCsv,
  parseCsv,
  readCsv,
  EMPTY_FILE_MESSAGE,
  type CsvEncoding,
  type CsvRow,
  type CsvTable,
  type DecodedCsv,
  type ParsedCsv,
} from './read';
export { detectFieldType, type DetectedField } from './detect';
export {
  describeCellError,
  newFieldKey,
  planImport,
  readyImport,
  suggestMapping,
  type CellEdits,
  type CellError,
  type ColumnTarget,
  type ImportField,
  type ImportPlan,
  type NewFieldDraft,
  type PlannedRow,
  type ReadyImport,
} from './plan';
export {
  cellText,
  csvFileName,
  protectCell,
  recordsToCsv,
  unprotectCell,
  type CsvField,
} from './write';
