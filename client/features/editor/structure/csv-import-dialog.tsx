import { type Collection, DefinitionError, importRecords, LIMITS } from '@pipit/app-definition';
import { groupedCount } from '@pipit/protocol';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../../ui/button';
import { Loading } from '../../../ui/loading';
import type { CsvImportResult } from '../../../ui/csv-import/csv-import';
import { EditorDialog } from '../common/editor-dialog';
import { newId, useEditor } from '../common/editor-context';
import { FIELD_TYPE_LABELS } from '../common/labels';

/** The import's steps and Papa Parse, loaded when a creator opens it. */
const CsvImport = lazy(() =>
  import('../../../ui/csv-import/csv-import').then((module) => ({ default: module.CsvImport })),
);

/**
 * "Import CSV" for a collection's creator records (docs/product/app-definition.md, CSV): a dialog
 * with the file, its columns, a preview and each row's errors; the rows and any new fields go in
 * with `importRecords`, one undoable step, or not at all.
 */
export function CsvImportButton({
  collection,
  onImported,
}: {
  collection: Collection;
  /** How many records went in, once they did. */
  onImported(count: number): void;
}) {
  const { handle } = useEditor();
  const [open, setOpen] = useState(false);
  const have = collection.records.length;
  const room = LIMITS.creatorRecords - have;
  const write = (result: CsvImportResult): string | null => {
    try {
      handle.stopCapturing();
      handle.run(importRecords, newId, collection.id, {
        fields: result.newFields,
        records: result.rows,
      });
      return null;
    } catch (error) {
      if (error instanceof DefinitionError) return error.message;
      throw error;
    }
  };
  return (
    <>
      <Button size="small" variant="secondary" onClick={() => setOpen(true)}>
        Import CSV
      </Button>
      {open ? (
        <EditorDialog
          title={`Import a CSV file into ${collection.name}`}
          wide
          onClose={() => setOpen(false)}
          actions={
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          }
        >
          <Suspense fallback={<Loading label="Opening the import…" />}>
            <CsvImport
              target={{
                collectionName: collection.name,
                fields: collection.fields,
                newFields: true,
                typeLabels: FIELD_TYPE_LABELS,
                room,
                limitMessage: `A collection can have at most ${groupedCount(LIMITS.creatorRecords)} records; ${collection.name} has ${groupedCount(have)}, so at most ${groupedCount(Math.max(0, room))} more can be imported.`,
              }}
              onImport={write}
              onDone={(count) => {
                setOpen(false);
                onImported(count);
              }}
            />
          </Suspense>
        </EditorDialog>
      ) : null}
    </>
  );
}
