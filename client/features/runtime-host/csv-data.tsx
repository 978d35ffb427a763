import {
  type Collection,
  DefinitionError,
  isSharedCollection,
  type ReadDefinition,
  recordLimitMessage,
  VISITOR_RECORD_LIMIT,
} from '@pipit/app-definition';
import { deviceFormulaEnv, type RuntimeData } from '@pipit/runtime';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../ui/button';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { SelectField } from '../../ui/field';

/** The import's steps and Papa Parse, loaded when the visitor opens the import. */
const CsvImport = lazy(() =>
  import('../../ui/csv-import/csv-import').then((module) => ({ default: module.CsvImport })),
);

/** Saves text as a file the browser downloads. */
function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The visitor's records of a collection (their own, or the shown space's for a shared one). */
const recordsOf = (data: RuntimeData, collection: Collection) =>
  data.records.filter((record) => record.collectionId === collection.id);

/**
 * A visitor's items as CSV, in "Your data on this device" (docs/product/app-definition.md, CSV):
 * each collection exported as its own file (formulas as their values), and a file imported into
 * one collection, all of it or nothing. The CSV code loads when it is first used.
 */
export function CsvData({ definition, data }: { definition: ReadDefinition; data: RuntimeData }) {
  const collections = definition.collections.filter((c) => c.fields.length > 0);
  const [importInto, setImportInto] = useState(collections[0]?.id ?? '');
  const [importing, setImporting] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  if (collections.length === 0) return null;
  const target = collections.find((c) => c.id === importInto) ?? collections[0]!;

  const exportCollection = async (collection: Collection) => {
    const { csvFileName, recordsToCsv } = await import('@pipit/app-definition/csv');
    const csv = recordsToCsv(collection.fields, recordsOf(data, collection), deviceFormulaEnv());
    download(csvFileName(collection.name), csv);
  };
  const shared = isSharedCollection(target);
  const room = shared ? Infinity : VISITOR_RECORD_LIMIT - data.records.length;
  return (
    <section className="csv-data" aria-labelledby="csv-data-heading">
      <h2 className="csv-data__title" id="csv-data-heading">
        Your items as a spreadsheet (CSV)
      </h2>
      <ul className="csv-data__exports">
        {collections.map((collection) => (
          <li key={collection.id}>
            <Button
              size="small"
              variant="secondary"
              onClick={() => void exportCollection(collection)}
            >
              Export {collection.name} ({recordsOf(data, collection).length})
            </Button>
          </li>
        ))}
      </ul>
      {collections.some((c) => c.fields.some((f) => f.type === 'formula')) ? (
        <p className="csv-data__hint">
          Worked-out columns (formulas) are exported as their values; importing skips them, as the
          app works them out.
        </p>
      ) : null}
      {note ? <Notice tone="success">{note}</Notice> : null}
      {importing ? (
        <>
          {collections.length > 1 ? (
            <SelectField
              label="Import into"
              value={target.id}
              onChange={(event) => setImportInto(event.currentTarget.value)}
            >
              {collections.map((collection) => (
                <option key={collection.id} value={collection.id}>
                  {collection.name}
                </option>
              ))}
            </SelectField>
          ) : null}
          <Suspense fallback={<Loading label="Opening the import…" />}>
            <CsvImport
              key={target.id}
              target={{
                collectionName: target.name,
                fields: target.fields,
                newFields: false,
                room: Math.min(room, VISITOR_RECORD_LIMIT),
                limitMessage: recordLimitMessage(),
              }}
              onImport={(result) => {
                try {
                  if (!data.createMany) return 'Your data is still loading. Try again in a moment.';
                  data.createMany(target, result.rows);
                  return null;
                } catch (error) {
                  if (error instanceof DefinitionError || error instanceof Error)
                    return error.message;
                  throw error;
                }
              }}
              onDone={(count) => {
                setImporting(false);
                setNote(`Imported ${count} ${count === 1 ? 'item' : 'items'} into ${target.name}.`);
              }}
            />
          </Suspense>
          <Button size="small" variant="ghost" onClick={() => setImporting(false)}>
            Cancel the import
          </Button>
        </>
      ) : (
        <Button
          size="small"
          variant="secondary"
          onClick={() => {
            setNote(null);
            setImporting(true);
          }}
        >
          Import a CSV file…
        </Button>
      )}
    </section>
  );
}
