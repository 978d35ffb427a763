import type { FieldValue } from '@pipit/app-definition';
import {
  type CellEdits,
  type ColumnTarget,
  CSV_LIMITS,
  type CsvTable,
  describeCellError,
  type ImportField,
  type ImportPlan,
  newFieldKey,
} from '@pipit/app-definition/csv';

/** How many rows' errors are listed (the count says how many more). */
const ERRORS_SHOWN = 30;

function shown(value: FieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** The first rows as they will be stored, one column per field a column goes into. */
export function CsvPreview({
  table,
  plan,
  columns,
  fields,
}: {
  table: CsvTable;
  plan: ImportPlan;
  columns: readonly ColumnTarget[];
  fields: readonly ImportField[];
}) {
  const heads = columns.flatMap((target, column) => {
    if (target.kind === 'skip') return [];
    if (target.kind === 'new') return [{ key: newFieldKey(column), name: target.name }];
    const field = fields.find((f) => f.id === target.fieldId);
    return field ? [{ key: field.id, name: field.name }] : [];
  });
  const rows = plan.rows.slice(0, CSV_LIMITS.previewRows);
  return (
    <section className="csv-import__preview" aria-labelledby="csv-preview-heading">
      <h3 className="csv-import__heading" id="csv-preview-heading">
        Preview{' '}
        <span className="csv-import__muted">
          (first {rows.length} of {table.rows.length} rows, as they will be stored)
        </span>
      </h3>
      <div className="csv-import__scroll" tabIndex={0} aria-label="Preview of the rows">
        <table className="csv-import__table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              {heads.map((head) => (
                <th scope="col" key={head.key}>
                  {head.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.number} className={row.errors.length ? 'csv-import__bad' : undefined}>
                <th scope="row">
                  {row.number}
                  {row.errors.length ? <span className="csv-import__flag"> (error)</span> : null}
                </th>
                {heads.map((head) => (
                  <td key={head.key}>{shown(row.values[head.key])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Each row's errors, with the cell to fix where one cell is the problem. */
export function CsvErrors({
  table,
  plan,
  edits,
  onEdit,
}: {
  table: CsvTable;
  plan: ImportPlan;
  edits: CellEdits;
  onEdit(row: number, column: number, text: string): void;
}) {
  const errors = plan.rows.flatMap((row) => row.errors);
  if (errors.length === 0) return null;
  return (
    <section className="csv-import__errors" aria-labelledby="csv-errors-heading">
      <h3 className="csv-import__heading" id="csv-errors-heading">
        {errors.length === 1 ? '1 error' : `${errors.length} errors`}
      </h3>
      <ul className="csv-import__list">
        {errors.slice(0, ERRORS_SHOWN).map((error) => (
          <li key={`${error.row}-${error.column}`} className="csv-import__error">
            <span>{describeCellError(error)}</span>
            {error.column !== null ? (
              <input
                className="field__control"
                aria-label={`Fix row ${error.row}, ${table.header[error.column]}`}
                value={edits[error.row]?.[error.column] ?? error.cell}
                onChange={(event) => onEdit(error.row, error.column!, event.currentTarget.value)}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {errors.length > ERRORS_SHOWN ? (
        <p className="csv-import__muted">And {errors.length - ERRORS_SHOWN} more.</p>
      ) : null}
    </section>
  );
}
