import {
  addField,
  type Collection,
  COMPUTED_FIELD_TYPES,
  FILE_FIELD_TYPES,
  type Field,
  FIELD_TYPES,
  type FieldType,
  isSharedCollection,
  LIMITS,
  moveField,
  removeField,
  renameField,
  setField,
} from '@pipit/app-definition';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { SelectField } from '../../../ui/field';
import { ConfirmDeleteButton } from '../common/confirm-delete-button';
import { DraftText } from '../common/draft-fields';
import { newId, useEditor } from '../common/editor-context';
import { FIELD_TYPE_LABELS } from '../common/labels';
import { SortableRows } from '../common/sortable-rows';
import { nameProblem } from '../common/validation';
import { ValueInput } from '../common/value-input';
import { FormulaEditor } from './formula-editor';
import { RelationSettings, RollupSettings } from './relation-settings';

function optionsOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function optionsProblem(text: string): string | null {
  const options = optionsOf(text);
  if (options.length > LIMITS.choices) return `Use at most ${LIMITS.choices} choices.`;
  const long = options.find((o) => o.length > LIMITS.choiceLength);
  return long
    ? `Keep each choice to ${LIMITS.choiceLength} characters (“${long.slice(0, 20)}…”).`
    : null;
}

/** A field as its row names it: "Title: Text, required". */
function fieldSummary(field: Field): string {
  return `${field.name}: ${FIELD_TYPE_LABELS[field.type]}${field.required ? ', required' : ''}`;
}

/** A collection's fields: add, reorder, rename, type, required, default, choices, delete. */
export function FieldsEditor({ collection }: { collection: Collection }) {
  const { handle, readOnly } = useEditor();
  const [open, setOpen] = useState<string | null>(null);
  const atLimit = collection.fields.length >= LIMITS.fieldsPerCollection;
  return (
    <section className="properties-section" aria-labelledby={`fields-${collection.id}`}>
      <div className="editor-section__header">
        <h3 className="properties-section__title" id={`fields-${collection.id}`}>
          Fields
        </h3>
        {readOnly ? null : (
          <Button
            size="small"
            variant="secondary"
            disabled={atLimit}
            title={
              atLimit
                ? `A collection can have at most ${LIMITS.fieldsPerCollection} fields.`
                : undefined
            }
            onClick={() => {
              const id = handle.edit(addField, newId, collection.id, {
                name: `Field ${collection.fields.length + 1}`,
                type: 'text',
              });
              if (id) setOpen(id);
            }}
          >
            + Add field
          </Button>
        )}
      </div>
      {collection.fields.length === 0 ? <p className="editor-muted">No fields yet.</p> : null}
      <SortableRows
        items={collection.fields}
        label={`Fields of ${collection.name}`}
        nameOf={(f) => f.name}
        disabled={readOnly}
        onMove={(id, index) => handle.edit(moveField, id, index)}
        renderItem={(field) => (
          <div className="field-row">
            <button
              type="button"
              className="tree-row__select"
              aria-expanded={open === field.id}
              onClick={() => setOpen(open === field.id ? null : field.id)}
            >
              <span className="tree-row__name tree-row__name--parts" title={fieldSummary(field)}>
                <bdi className="tree-row__text">{field.name}</bdi>{' '}
                <span className="tree-row__detail">
                  {FIELD_TYPE_LABELS[field.type]}
                  {field.required ? ', required' : ''}
                </span>
              </span>
            </button>
            {open === field.id ? <FieldEditor collection={collection} field={field} /> : null}
          </div>
        )}
      />
    </section>
  );
}

function FieldEditor({ collection, field }: { collection: Collection; field: Field }) {
  const { handle, readOnly, definition } = useEditor();
  const set = (patch: Parameters<typeof setField>[2]) => handle.edit(setField, field.id, patch);
  return (
    <div className="field-editor">
      <DraftText
        label="Field name"
        value={field.name}
        disabled={readOnly}
        validate={(v) => nameProblem(v, 'field')}
        onCommit={(name) => handle.edit(renameField, field.id, name)}
      />
      <SelectField
        label="Type"
        value={field.type}
        disabled={readOnly}
        onChange={(e) => {
          const type = e.target.value as FieldType;
          // A new relation links to another collection at first (this one if there is none).
          const target =
            type === 'relation' && !field.target
              ? (definition.collections.find((c) => c.id !== collection.id) ?? collection).id
              : undefined;
          set({ type, default: null, ...(target ? { target } : {}) });
        }}
      >
        {FIELD_TYPES.map((type) => (
          <option key={type} value={type}>
            {FIELD_TYPE_LABELS[type]}
          </option>
        ))}
      </SelectField>
      {field.type === 'formula' ? (
        // Worked out, never typed in: nothing to require and no default.
        <FormulaEditor collection={collection} field={field} />
      ) : field.type === 'rollup' ? (
        <RollupSettings collection={collection} field={field} />
      ) : (
        <label className="checkbox checkbox--compact">
          <input
            type="checkbox"
            checked={field.required}
            disabled={readOnly}
            onChange={(e) => set({ required: e.target.checked })}
          />
          <span>Required</span>
        </label>
      )}
      {field.type === 'relation' ? <RelationSettings field={field} /> : null}
      {field.type === 'person' ? (
        <p className="field__hint">
          {isSharedCollection(collection)
            ? 'People pick someone in their shared space: “Me” or another member.'
            : 'This collection isn’t shared, so each visitor can only pick themselves. Share it in a space to assign items to others.'}
        </p>
      ) : null}
      {field.type === 'rating' ? (
        <SelectField
          label="Stars"
          value={String(field.scale ?? 5)}
          disabled={readOnly}
          onChange={(e) => set({ scale: Number(e.target.value) })}
        >
          {[3, 4, 5, 6, 7, 8, 9, 10].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
      ) : null}
      {field.type === 'select' || field.type === 'multiChoice' ? (
        <DraftText
          label="Choices"
          hint="One per line."
          multiline
          rows={4}
          value={field.options.join('\n')}
          disabled={readOnly}
          validate={optionsProblem}
          onCommit={(text) => set({ options: optionsOf(text) })}
        />
      ) : null}
      {COMPUTED_FIELD_TYPES.includes(field.type) ||
      field.type === 'relation' ||
      field.type === 'person' ||
      FILE_FIELD_TYPES.includes(field.type) ? null : (
        <ValueInput
          field={field}
          label="Default value"
          value={field.default}
          disabled={readOnly}
          onChange={(value) => set({ default: value })}
        />
      )}
      <ConfirmDeleteButton
        label="Delete field"
        title={`Delete the field “${field.name}”?`}
        body="Its values in every record go with it, and components that use it stop showing it. You can undo this."
        confirmLabel="Delete field"
        onConfirm={() => handle.edit(removeField, field.id)}
      />
    </div>
  );
}
