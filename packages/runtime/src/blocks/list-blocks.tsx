import type { Collection, ComponentProps, Field } from '@pipit/app-definition';
import { findCollection, findField, formatValue, isChecked, queryRecords } from '../records';
import type { RenderContext } from '../render-context';
import type { RuntimeRecord } from '../runtime-data';
import { SetupNote } from './setup-note';

/** The records a data component shows: the running app's, or the creator records in the preview. */
export function recordsFor(
  context: RenderContext,
  collection: Collection,
): ReadonlyArray<Pick<RuntimeRecord, 'id' | 'values'> & { isOwn?: boolean }> {
  return context.run ? context.run.recordsOf(collection.id) : collection.records;
}

function titleOf(record: { values: RuntimeRecord['values'] }, field: Field | null): string {
  return field ? formatValue(record.values[field.id], field) : '';
}

export function ListBlock({
  props,
  context,
}: {
  props: ComponentProps<'list'>;
  context: RenderContext;
}) {
  const collection = findCollection(context.definition.collections, props.collectionId);
  if (!collection) return <SetupNote>Choose a collection for this list.</SetupNote>;
  const records = queryRecords(recordsFor(context, collection), props);
  if (records.length === 0) return <p className="rt-card rt-muted rt-empty">{props.emptyText}</p>;
  const titleField = findField(collection, props.titleFieldId) ?? collection.fields[0] ?? null;
  const subtitleField = findField(collection, props.subtitleFieldId);
  const { onNavigate, run } = context;
  const target = props.detailScreenId;
  const open = (recordId: string) => {
    if (!target) return;
    if (run) run.openRecord(target, recordId);
    else onNavigate?.(target);
  };
  const tappable = target !== null && (run !== undefined || onNavigate !== undefined);
  return (
    <ul className="rt-card rt-list" aria-label={collection.name}>
      {records.map((record) => {
        const title = titleOf(record, titleField);
        const subtitle = titleOf(record, subtitleField);
        const content = (
          <>
            <span className="rt-list-title">{title || 'Untitled'}</span>
            {subtitle && <span className="rt-list-subtitle">{subtitle}</span>}
          </>
        );
        return (
          <li key={record.id} className="rt-list-item">
            {tappable ? (
              <button type="button" className="rt-list-button" onClick={() => open(record.id)}>
                {content}
                <span className="rt-chevron" aria-hidden="true">
                  ›
                </span>
              </button>
            ) : (
              <div className="rt-list-static">{content}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function ChecklistBlock({
  props,
  context,
}: {
  props: ComponentProps<'checklist'>;
  context: RenderContext;
}) {
  const collection = findCollection(context.definition.collections, props.collectionId);
  if (!collection) return <SetupNote>Choose a collection for this checklist.</SetupNote>;
  const checkField = findField(collection, props.checkFieldId);
  if (!checkField) return <SetupNote>Choose a yes/no field to tick.</SetupNote>;
  const titleField = findField(collection, props.titleFieldId) ?? collection.fields[0] ?? null;
  const records = recordsFor(context, collection);
  if (records.length === 0)
    return <p className="rt-card rt-muted rt-empty">Nothing to tick yet.</p>;
  const { run } = context;
  return (
    <ul className="rt-card rt-checklist" aria-label={collection.name}>
      {records.map((record) => {
        const checked = isChecked(record.values[checkField.id]);
        const title = titleOf(record, titleField) || 'Untitled';
        // Creator records show to everyone but only the visitor's own can be ticked.
        const editable = run !== undefined && record.isOwn === true;
        return (
          <li key={record.id}>
            <label className={`rt-check${editable ? '' : ' rt-check-readonly'}`}>
              {run ? (
                <input
                  type="checkbox"
                  className="rt-checkbox"
                  checked={checked}
                  disabled={!editable}
                  onChange={() => run.update(collection, record.id, { [checkField.id]: !checked })}
                />
              ) : (
                <input type="checkbox" className="rt-checkbox" disabled defaultChecked={checked} />
              )}
              <span>{title}</span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}
