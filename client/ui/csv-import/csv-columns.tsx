import { type FieldType, LIMITS, TYPED_FIELD_TYPES } from '@pipit/app-definition';
import { type ColumnTarget, type CsvTable, detectFieldType } from '@pipit/app-definition/csv';
import type { CsvImportTarget } from './csv-import';

const CHOICE_TYPES: readonly FieldType[] = ['select', 'multiChoice'];

/** The choices a new choice field gets: the column's values (split, for several choices). */
function choicesOf(table: CsvTable, column: number, type: FieldType): string[] {
  if (!CHOICE_TYPES.includes(type)) return [];
  const seen = new Map<string, string>();
  for (const row of table.rows) {
    const cell = row.cells[column] ?? '';
    const parts = type === 'multiChoice' ? cell.split(/[,;]/) : [cell];
    for (const part of parts.map((p) => p.trim())) {
      if (part && part.length <= LIMITS.choiceLength && !seen.has(part.toLowerCase()))
        seen.set(part.toLowerCase(), part);
    }
  }
  return [...seen.values()].slice(0, LIMITS.choices);
}

function selectValue(target: ColumnTarget): string {
  return target.kind === 'field' ? `field:${target.fieldId}` : target.kind;
}

/** Where each column goes: an existing field, a new field (its name and type), or nowhere. */
export function CsvColumns({
  table,
  target,
  columns,
  onColumns,
}: {
  table: CsvTable;
  target: CsvImportTarget;
  columns: ColumnTarget[];
  onColumns(columns: ColumnTarget[]): void;
}) {
  const set = (column: number, next: ColumnTarget) =>
    onColumns(columns.map((c, i) => (i === column ? next : c)));
  const cellsOf = (column: number) => table.rows.map((row) => row.cells[column] ?? '');
  return (
    <fieldset className="csv-import__columns">
      <legend className="csv-import__heading">Columns</legend>
      {table.header.map((name, column) => {
        const current = columns[column] ?? { kind: 'skip' };
        const sample = table.rows.find((row) => row.cells[column]?.trim())?.cells[column] ?? '';
        const formula = target.fields.find(
          (f) => f.type === 'formula' && f.name.trim().toLowerCase() === name.toLowerCase(),
        );
        if (formula && current.kind === 'skip') {
          return (
            <p className="csv-import__column csv-import__sample" key={`${column}-${name}`}>
              <strong>{name}</strong>: worked out by its formula, so this column is not imported
              (the app works it out again).
            </p>
          );
        }
        return (
          <div className="csv-import__column" key={`${column}-${name}`}>
            <label className="csv-import__column-name">
              <span>
                {name}
                {sample ? (
                  <span className="csv-import__sample"> e.g. {sample.slice(0, 30)}</span>
                ) : null}
              </span>
              <select
                className="field__control"
                value={selectValue(current)}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  if (value === 'skip') set(column, { kind: 'skip' });
                  else if (value === 'new')
                    set(column, { kind: 'new', name, ...detectFieldType(cellsOf(column)) });
                  else set(column, { kind: 'field', fieldId: value.slice('field:'.length) });
                }}
              >
                <option value="skip">Skip this column</option>
                {target.fields.map((field) =>
                  field.type === 'formula' ? null : (
                    <option key={field.id} value={`field:${field.id}`}>
                      Into {field.name}
                    </option>
                  ),
                )}
                {target.newFields ? <option value="new">Into a new field</option> : null}
              </select>
            </label>
            {current.kind === 'new' && target.typeLabels ? (
              <NewFieldInputs
                column={column}
                current={current}
                labels={target.typeLabels}
                onChange={(next) => set(column, next)}
                choices={(type) => choicesOf(table, column, type)}
              />
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}

function NewFieldInputs({
  column,
  current,
  labels,
  onChange,
  choices,
}: {
  column: number;
  current: Extract<ColumnTarget, { kind: 'new' }>;
  labels: Readonly<Record<FieldType, string>>;
  onChange(next: ColumnTarget): void;
  choices(type: FieldType): string[];
}) {
  return (
    <div className="csv-import__new-field">
      <label>
        <span className="visually-hidden">New field name for column {column + 1}</span>
        <input
          className="field__control"
          value={current.name}
          maxLength={LIMITS.nameLength}
          aria-label={`New field name for column ${column + 1}`}
          onChange={(event) => onChange({ ...current, name: event.currentTarget.value })}
        />
      </label>
      <select
        className="field__control"
        aria-label={`New field type for column ${column + 1}`}
        value={current.type}
        onChange={(event) => {
          const type = event.currentTarget.value as FieldType;
          onChange({ ...current, type, options: choices(type) });
        }}
      >
        {TYPED_FIELD_TYPES.map((type) => (
          <option key={type} value={type}>
            {labels[type]}
          </option>
        ))}
      </select>
    </div>
  );
}
