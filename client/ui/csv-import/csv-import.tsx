import type { FieldType, FieldValue } from '@pipit/app-definition';
import {
  type CellEdits,
  type ColumnTarget,
  type CsvEncoding,
  type CsvTable,
  type ImportField,
  type NewFieldDraft,
  planImport,
  readCsv,
  readyImport,
  suggestMapping,
} from '@pipit/app-definition/csv';
import { useMemo, useState } from 'react';
import { Button } from '../button';
import { Notice } from '../notice';
import { CsvErrors, CsvPreview } from './csv-preview';
import { CsvColumns } from './csv-columns';
import './csv-import.css';

/** Where an import goes: a collection's fields, and how many records it can still take. */
export interface CsvImportTarget {
  collectionName: string;
  fields: readonly ImportField[];
  /** Whether a column may make a new field (the creator), or only fill existing ones (a visitor). */
  newFields: boolean;
  /** What a person calls each field type (new fields only). */
  typeLabels?: Readonly<Record<FieldType, string>>;
  /** How many more records fit. */
  room: number;
  /** Why no more fit, saying the limit. */
  limitMessage: string;
}

/** What an import writes: the new fields, and each row's values (a new field's by its key). */
export interface CsvImportResult {
  newFields: NewFieldDraft[];
  rows: Record<string, FieldValue>[];
}

interface Chosen {
  name: string;
  bytes: Uint8Array;
}

type Read =
  | { kind: 'none' }
  | { kind: 'failed'; message: string; notUtf8: boolean }
  | { kind: 'read'; table: CsvTable };

function read(file: Chosen, encoding: CsvEncoding, maxRows: number): Read {
  const parsed = readCsv(file.bytes, { maxRows, encoding });
  if (parsed.ok) return { kind: 'read', table: parsed.table };
  return {
    kind: 'failed',
    message: parsed.message,
    notUtf8: 'notUtf8' in parsed && !!parsed.notUtf8,
  };
}

/**
 * Importing a CSV file into a collection (docs/product/app-definition.md, CSV): choose or drop a
 * file, say where each column goes, see the first rows as they will be stored and each row's
 * errors (fix a cell, or choose to skip those rows), then import. `onImport` writes everything in
 * one transaction and answers null, or the reason nothing was written.
 */
export function CsvImport({
  target,
  onImport,
  onDone,
}: {
  target: CsvImportTarget;
  onImport(result: CsvImportResult): string | null;
  onDone(imported: number): void;
}) {
  const [file, setFile] = useState<Chosen | null>(null);
  const [state, setState] = useState<Read>({ kind: 'none' });
  const [columns, setColumns] = useState<ColumnTarget[]>([]);
  const [edits, setEdits] = useState<CellEdits>({});
  const [skipErrors, setSkipErrors] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const open = (chosen: Chosen, encoding: CsvEncoding = 'utf-8') => {
    const next = read(chosen, encoding, target.room);
    setFile(chosen);
    setState(next);
    setEdits({});
    setSkipErrors(false);
    setFailure(null);
    if (next.kind === 'read')
      setColumns(suggestMapping(next.table, target.fields, { newFields: target.newFields }));
  };

  if (target.room <= 0) return <Notice tone="warning">{target.limitMessage}</Notice>;
  return (
    <div className="csv-import">
      <FilePicker onFile={open} chosen={file?.name ?? null} />
      {state.kind === 'failed' && file ? (
        <Notice tone="danger" live="alert">
          <p>{state.message}</p>
          {state.notUtf8 ? (
            <Button size="small" variant="secondary" onClick={() => open(file, 'windows-1252')}>
              Read it as Windows (Western European) text
            </Button>
          ) : null}
        </Notice>
      ) : null}
      {state.kind === 'read' ? (
        <Mapped
          table={state.table}
          target={target}
          columns={columns}
          onColumns={setColumns}
          edits={edits}
          onEdits={setEdits}
          skipErrors={skipErrors}
          onSkipErrors={setSkipErrors}
          failure={failure}
          onImport={(result) => {
            const problem = onImport(result);
            if (problem) setFailure(problem);
            else onDone(result.rows.length);
          }}
        />
      ) : null}
    </div>
  );
}

function FilePicker({ onFile, chosen }: { onFile(file: Chosen): void; chosen: string | null }) {
  const [dragging, setDragging] = useState(false);
  const take = (picked: File | undefined) => {
    if (!picked) return;
    void picked
      .arrayBuffer()
      .then((buffer) => onFile({ name: picked.name, bytes: new Uint8Array(buffer) }));
  };
  return (
    <label
      className={dragging ? 'csv-import__drop csv-import__drop--over' : 'csv-import__drop'}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        take(event.dataTransfer.files[0]);
      }}
    >
      <span className="csv-import__drop-title">
        {chosen ? `Chosen: ${chosen}` : 'Choose a CSV file'}
      </span>
      <span className="csv-import__drop-hint">
        or drop it here. The first row names the columns.
      </span>
      <input
        className="csv-import__file"
        type="file"
        accept=".csv,text/csv,text/plain"
        onChange={(event) => {
          take(event.currentTarget.files?.[0]);
          event.currentTarget.value = '';
        }}
      />
    </label>
  );
}

function Mapped(props: {
  table: CsvTable;
  target: CsvImportTarget;
  columns: ColumnTarget[];
  onColumns(columns: ColumnTarget[]): void;
  edits: CellEdits;
  onEdits(edits: CellEdits): void;
  skipErrors: boolean;
  onSkipErrors(skip: boolean): void;
  failure: string | null;
  onImport(result: CsvImportResult): void;
}) {
  const { table, target, columns, edits, skipErrors } = props;
  const plan = useMemo(
    () => planImport(table, columns, target.fields, edits),
    [table, columns, target.fields, edits],
  );
  const ready = readyImport(plan, {
    skipRowsWithErrors: skipErrors,
    room: target.room,
    limitMessage: target.limitMessage,
  });
  const bad = plan.rows.filter((row) => row.errors.length > 0).length;
  return (
    <>
      <CsvColumns table={table} target={target} columns={columns} onColumns={props.onColumns} />
      {plan.problems.length > 0 ? (
        <Notice tone="warning" title="Change the columns first">
          <ul className="csv-import__list">
            {plan.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <CsvPreview table={table} plan={plan} columns={columns} fields={target.fields} />
      <CsvErrors
        table={table}
        plan={plan}
        edits={edits}
        onEdit={(row, column, text) =>
          props.onEdits({ ...edits, [row]: { ...edits[row], [column]: text } })
        }
      />
      {bad > 0 ? (
        <label className="csv-import__skip">
          <input
            type="checkbox"
            checked={skipErrors}
            onChange={(event) => props.onSkipErrors(event.currentTarget.checked)}
          />
          Skip the {bad} {bad === 1 ? 'row' : 'rows'} with errors
        </label>
      ) : null}
      {props.failure ? (
        <Notice tone="danger" live="alert">
          {props.failure}
        </Notice>
      ) : null}
      <div className="csv-import__actions">
        {!ready.ok ? <p className="csv-import__why">{ready.message}</p> : null}
        <Button
          disabled={!ready.ok}
          onClick={() => {
            if (!ready.ok) return;
            props.onImport({
              newFields: plan.newFields,
              rows: ready.rows.map((row) => row.values),
            });
          }}
        >
          {ready.ok
            ? `Import ${ready.rows.length} ${ready.rows.length === 1 ? 'record' : 'records'}`
            : 'Import'}
        </Button>
      </div>
    </>
  );
}
