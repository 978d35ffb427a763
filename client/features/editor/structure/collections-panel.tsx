import {
  addCollection,
  addRecord,
  type Collection,
  LIMITS,
  removeCollection,
  removeRecord,
  renameCollection,
  setRecordValue,
} from '@pipit/app-definition';
import { groupedCount } from '@pipit/protocol';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { ConfirmDeleteButton } from '../common/confirm-delete-button';
import { DraftText } from '../common/draft-fields';
import { newId, useEditor } from '../common/editor-context';
import { FieldsEditor } from './fields-editor';
import { nameProblem } from '../common/validation';
import { ValueInput } from '../common/value-input';
import { ChipPicker } from '../common/chip-picker';
import { CollectionSharing } from './collection-sharing';
import { CsvImportButton } from './csv-import-dialog';

const RECORDS_PAGE = 25;

/** Collections: their fields and the creator's records (content every visitor sees). */
export function CollectionsPanel() {
  const { definition, handle, readOnly } = useEditor();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const collections = definition.collections;
  const selected = collections.find((c) => c.id === selectedId) ?? collections[0] ?? null;
  const atLimit = collections.length >= LIMITS.collections;
  return (
    <div className="properties-panel">
      <div className="editor-section__header">
        <h2 className="editor-section__title">Collections</h2>
        {readOnly ? null : (
          <Button
            size="small"
            variant="secondary"
            disabled={atLimit}
            title={
              atLimit ? `An app can have at most ${LIMITS.collections} collections.` : undefined
            }
            onClick={() => {
              const id = handle.edit(addCollection, newId, `Collection ${collections.length + 1}`);
              if (id) setSelectedId(id);
            }}
          >
            + Add collection
          </Button>
        )}
      </div>
      <ChipPicker
        label="Collections"
        items={collections}
        selectedId={selected?.id}
        onSelect={setSelectedId}
        empty="A collection holds records, like a table: tasks, recipes, guests. Lists, forms and charts show and collect them."
      />
      {selected ? <CollectionEditor key={selected.id} collection={selected} /> : null}
    </div>
  );
}

function CollectionEditor({ collection }: { collection: Collection }) {
  const { handle, readOnly } = useEditor();
  return (
    <div className="collection-editor">
      <DraftText
        label="Collection name"
        value={collection.name}
        disabled={readOnly}
        validate={(v) => nameProblem(v, 'collection')}
        onCommit={(name) => handle.edit(renameCollection, collection.id, name)}
      />
      <ConfirmDeleteButton
        label="Delete collection"
        title={`Delete “${collection.name}”?`}
        body={`Its ${collection.fields.length} fields and ${collection.records.length} records will be deleted, and components that show it will show nothing. You can undo this.`}
        confirmLabel="Delete collection"
        onConfirm={() => handle.edit(removeCollection, collection.id)}
      />
      <CollectionSharing collection={collection} />
      <FieldsEditor collection={collection} />
      <RecordsEditor collection={collection} />
    </div>
  );
}

function RecordsEditor({ collection }: { collection: Collection }) {
  const { handle, readOnly } = useEditor();
  const [shown, setShown] = useState(RECORDS_PAGE);
  const [imported, setImported] = useState<number | null>(null);
  const records = collection.records;
  const atLimit = records.length >= LIMITS.creatorRecords;
  return (
    <section className="properties-section" aria-labelledby={`records-${collection.id}`}>
      <div className="editor-section__header">
        <h3 className="properties-section__title" id={`records-${collection.id}`}>
          Records <span className="editor-muted">({records.length})</span>
        </h3>
        {readOnly ? null : <CsvImportButton collection={collection} onImported={setImported} />}
        {readOnly ? null : (
          <Button
            size="small"
            variant="secondary"
            disabled={atLimit || collection.fields.length === 0}
            onClick={() => {
              const defaults = Object.fromEntries(collection.fields.map((f) => [f.id, f.default]));
              handle.edit(addRecord, newId, collection.id, defaults);
            }}
          >
            + Add record
          </Button>
        )}
      </div>
      {imported !== null ? (
        <p className="editor-muted" role="status">
          Imported {groupedCount(imported)} {imported === 1 ? 'record' : 'records'}. Undo takes the
          import back.
        </p>
      ) : null}
      <p className="editor-muted">
        {collection.fields.length === 0
          ? 'Add a field before adding records.'
          : 'Records you add here are content every visitor sees (read-only to them).'}
      </p>
      <ol className="record-list">
        {records.slice(0, shown).map((record, index) => (
          <li key={record.id} className="record-card">
            <fieldset className="prop-group">
              <legend className="field__label">Record {index + 1}</legend>
              {collection.fields.map((field) => (
                <ValueInput
                  key={field.id}
                  field={field}
                  label={field.name}
                  value={record.values[field.id] ?? null}
                  disabled={readOnly}
                  onChange={(value) => handle.edit(setRecordValue, record.id, field.id, value)}
                />
              ))}
              {readOnly ? null : (
                <Button
                  size="small"
                  variant="ghost"
                  className="danger-text"
                  onClick={() => handle.edit(removeRecord, record.id)}
                >
                  Delete record {index + 1}
                </Button>
              )}
            </fieldset>
          </li>
        ))}
      </ol>
      {records.length > shown ? (
        <Button size="small" variant="secondary" onClick={() => setShown(shown + RECORDS_PAGE)}>
          Show more records ({records.length - shown} more)
        </Button>
      ) : null}
    </section>
  );
}
