import { groupedCount } from '@pipit/protocol';
import {
  FILE_FIELD_TYPES,
  type Field,
  type FieldType,
  TYPED_FIELD_TYPES,
} from '../schema/definition';
import { coerceFieldValue, type FieldValue } from '../schema/field-values';
import { LIMITS } from '../schema/limits';
import { detectFieldType } from './detect';
import type { CsvTable } from './read';
import { unprotectCell } from './write';

/** Where one column's cells go: an existing field, a new field, or nowhere. */
export type ColumnTarget =
  | { kind: 'field'; fieldId: string }
  | { kind: 'new'; name: string; type: FieldType; options: string[] }
  | { kind: 'skip' };

/** The fields an import writes into: what a collection's fields are to it. */
export type ImportField = Pick<Field, 'id' | 'name' | 'type' | 'required' | 'options' | 'default'> &
  Partial<Pick<Field, 'scale'>>;

/** A new field an import makes, its values keyed by `key` until it has an id. */
export interface NewFieldDraft {
  key: string;
  name: string;
  type: FieldType;
  options: string[];
}

/** The key a new field's values use in a planned row: `new:` and its column. */
export const newFieldKey = (column: number) => `new:${column}`;

export interface CellError {
  /** The row's number, as a spreadsheet shows it (the header is row 1). */
  row: number;
  /** The column (from 0); null for a problem with the whole row. */
  column: number | null;
  /** The cell as the file has it. */
  cell: string;
  message: string;
}

export interface PlannedRow {
  number: number;
  /** The values as the fields will keep them, by field id (a new field's by its key). */
  values: Record<string, FieldValue>;
  errors: CellError[];
}

export interface ImportPlan {
  newFields: NewFieldDraft[];
  rows: PlannedRow[];
  /** Problems with the mapping as a whole (each blocks the import until it is changed). */
  problems: string[];
}

/** What the person has typed over a cell in the preview, by row number, then column. */
export type CellEdits = Readonly<Record<number, Readonly<Record<number, string>>>>;

/**
 * Fields a column never goes into: computed ones, links to records (a file names no records) and
 * photos or files (a file holds no bytes).
 */
const isComputed = (field: Pick<Field, 'type'>) => !TYPED_FIELD_TYPES.includes(field.type);
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * A first mapping: a column named like a field goes into it (never into a formula field: computed,
 * never imported); any other column makes a new field of the type its values suggest where new
 * fields may be made (`newFields`, the creator), and is skipped elsewhere (a visitor).
 */
export function suggestMapping(
  table: CsvTable,
  fields: readonly ImportField[],
  { newFields }: { newFields: boolean },
): ColumnTarget[] {
  return table.header.map((name, column): ColumnTarget => {
    const field = fields.find((f) => sameName(f.name, name));
    if (field) return isComputed(field) ? { kind: 'skip' } : { kind: 'field', fieldId: field.id };
    if (!newFields) return { kind: 'skip' };
    return {
      kind: 'new',
      name,
      ...detectFieldType(table.rows.map((row) => row.cells[column] ?? '')),
    };
  });
}

const CHOICE_SEPARATOR = /([,;\n])/;

/**
 * A multi-choice cell whose field has a choice holding a comma or semicolon, as its choices: the
 * longest run of parts that names a choice is that choice (so "Salt, pepper, Red" is the choice
 * "Salt, pepper" and "Red"); other fields' cells are left to `coerceFieldValue` as they are.
 */
function cellValue(field: ImportField, cell: string): string | string[] {
  if (field.type !== 'multiChoice' || !field.options.some((o) => /[,;\n]/.test(o))) return cell;
  const options = new Map(field.options.map((o) => [o.trim().toLowerCase(), o]));
  const parts = cell.split(CHOICE_SEPARATOR);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    let taken = parts[i]!.trim();
    let next = i + 2;
    for (let j = parts.length - 1; j > i; j -= 2) {
      const run = parts
        .slice(i, j + 1)
        .join('')
        .trim();
      const option = options.get(run.toLowerCase());
      if (option !== undefined) {
        taken = option;
        next = j + 2;
        break;
      }
    }
    if (taken) out.push(taken);
    i = next - 2;
  }
  return out;
}

/** A row's error as the person reads it: “Row 14: “abc” — Price must be a number, like 12 or 3.5.” */
export function describeCellError(error: CellError): string {
  if (error.column === null || error.cell.trim() === '')
    return `Row ${error.row}: ${error.message}`;
  const cell = error.cell.length > 40 ? `${error.cell.slice(0, 40)}…` : error.cell;
  return `Row ${error.row}: “${cell}” — ${error.message}`;
}

interface Target {
  column: number;
  key: string;
  field: ImportField;
}

function mappingProblems(
  targets: Target[],
  columns: readonly ColumnTarget[],
  fields: readonly ImportField[],
  header: readonly string[],
): string[] {
  const problems: string[] = [];
  const used = new Map<string, number>();
  for (const target of targets) {
    const before = used.get(target.key);
    if (before !== undefined) {
      problems.push(
        `Columns “${header[before]}” and “${header[target.column]}” both go into ${target.field.name}. Choose another field for one of them, or skip it.`,
      );
    }
    used.set(target.key, target.column);
    if (isComputed(target.field)) {
      problems.push(
        target.field.type === 'relation'
          ? `${target.field.name} links to other records, which a CSV file can’t name, so “${header[target.column]}” can’t be imported into it. Skip that column.`
          : target.field.type === 'person'
            ? `${target.field.name} names someone in a shared space, which a CSV file can’t, so “${header[target.column]}” can’t be imported into it. Skip that column.`
            : FILE_FIELD_TYPES.includes(target.field.type)
              ? `${target.field.name} holds a photo or file, which a CSV file can’t carry, so “${header[target.column]}” can’t be imported into it. Skip that column.`
              : `${target.field.name} is worked out ${target.field.type === 'rollup' ? 'from its linked records' : 'by its formula'}, so “${header[target.column]}” can’t be imported into it. Skip that column.`,
      );
    }
  }
  const drafts = columns.filter((c) => c.kind === 'new');
  const total = fields.length + drafts.length;
  if (total > LIMITS.fieldsPerCollection) {
    problems.push(
      `A collection can have at most ${LIMITS.fieldsPerCollection} fields; this import would make ${total}. Skip ${total - LIMITS.fieldsPerCollection} of the new columns or put them into existing fields.`,
    );
  }
  for (const [column, target] of columns.entries()) {
    if (target.kind !== 'new') continue;
    const name = target.name.trim();
    if (!name) problems.push(`Name the new field for column ${column + 1}.`);
    else if (name.length > LIMITS.nameLength)
      problems.push(`“${name.slice(0, 40)}…” is too long for a field’s name.`);
    else if (fields.some((f) => sameName(f.name, name)))
      problems.push(
        `There is already a field named ${name}. Put column ${column + 1} into it, or give the new field another name.`,
      );
  }
  for (const field of fields) {
    if (isComputed(field) || targets.some((t) => t.key === field.id)) continue;
    if (field.required && !coerceFieldValue(field, field.default).ok) {
      problems.push(`${field.name} must be filled in: choose the column that goes into it.`);
    }
  }
  return problems;
}

/**
 * The rows as they will be stored, each value through `coerceFieldValue` (the check a form
 * applies), with every cell that can't be stored as an error of its row. Fields no column goes
 * into take their default. `edits` are the cells the person fixed in the preview.
 */
export function planImport(
  table: CsvTable,
  columns: readonly ColumnTarget[],
  fields: readonly ImportField[],
  edits: CellEdits = {},
): ImportPlan {
  const newFields: NewFieldDraft[] = [];
  const targets: Target[] = [];
  for (const [column, target] of columns.entries()) {
    if (target.kind === 'skip') continue;
    if (target.kind === 'new') {
      const key = newFieldKey(column);
      const draft = { key, name: target.name.trim(), type: target.type, options: target.options };
      newFields.push(draft);
      targets.push({ column, key, field: { ...draft, id: key, required: false, default: null } });
      continue;
    }
    const field = fields.find((f) => f.id === target.fieldId);
    if (field) targets.push({ column, key: field.id, field });
  }
  const problems = mappingProblems(targets, columns, fields, table.header);
  const defaults: Record<string, FieldValue> = {};
  for (const field of fields) {
    if (isComputed(field) || targets.some((t) => t.key === field.id)) continue;
    // A default that no longer fits its field (an option since renamed) counts as none, as in forms.
    const coerced = coerceFieldValue(field, field.default);
    const value = coerced.ok ? coerced : coerceFieldValue(field, null);
    if (value.ok) defaults[field.id] = value.value;
  }
  const rows = table.rows.map((row): PlannedRow => {
    const values: Record<string, FieldValue> = { ...defaults };
    const errors: CellError[] = [];
    const fixed = edits[row.number] ?? {};
    if (row.problem) errors.push({ row: row.number, column: null, cell: '', message: row.problem });
    for (const target of targets) {
      if (isComputed(target.field)) continue;
      const cell = fixed[target.column] ?? row.cells[target.column] ?? '';
      const coerced = coerceFieldValue(target.field, cellValue(target.field, unprotectCell(cell)));
      if (coerced.ok) values[target.key] = coerced.value;
      else errors.push({ row: row.number, column: target.column, cell, message: coerced.message });
    }
    return { number: row.number, values, errors };
  });
  return { newFields, rows, problems };
}

export type ReadyImport =
  { ok: true; rows: PlannedRow[]; skipped: number } | { ok: false; message: string };

/**
 * The rows that go in, or why nothing can: a mapping problem, rows with errors the person has not
 * chosen to skip, or more rows than `room` (what the collection can still take: `limitMessage`).
 */
export function readyImport(
  plan: ImportPlan,
  {
    skipRowsWithErrors,
    room,
    limitMessage,
  }: {
    skipRowsWithErrors: boolean;
    room: number;
    limitMessage: string;
  },
): ReadyImport {
  if (plan.problems.length > 0) return { ok: false, message: plan.problems[0]! };
  const bad = plan.rows.filter((row) => row.errors.length > 0);
  if (bad.length > 0 && !skipRowsWithErrors) {
    return {
      ok: false,
      message: `${groupedCount(bad.length)} ${bad.length === 1 ? 'row has an error' : 'rows have errors'}. Fix ${bad.length === 1 ? 'it' : 'them'} in the preview, or choose to skip ${bad.length === 1 ? 'it' : 'them'}.`,
    };
  }
  const rows = plan.rows.filter((row) => row.errors.length === 0);
  if (rows.length === 0) return { ok: false, message: 'No row is left to import.' };
  if (rows.length > room) return { ok: false, message: limitMessage };
  return { ok: true, rows, skipped: plan.rows.length - rows.length };
}
