import type { ComponentProps } from '@pipit/app-definition';
import { findCollection, findField, formatValue, queryRecords } from '../records';
import type { RenderContext } from '../render-context';
import { SetupNote } from './setup-note';

export function ListBlock({
  props,
  context,
}: {
  props: ComponentProps<'list'>;
  context: RenderContext;
}) {
  const collection = findCollection(context.definition.collections, props.collectionId);
  if (!collection) return <SetupNote>Choose a collection for this list.</SetupNote>;
  const records = queryRecords(collection.records, props);
  if (records.length === 0) return <p className="rt-card rt-muted rt-empty">{props.emptyText}</p>;
  const titleField = findField(collection, props.titleFieldId) ?? collection.fields[0] ?? null;
  const subtitleField = findField(collection, props.subtitleFieldId);
  const { onNavigate } = context;
  const target = props.detailScreenId;
  return (
    <ul className="rt-card rt-list" aria-label={collection.name}>
      {records.map((record) => {
        const title = titleField ? formatValue(record.values[titleField.id], titleField) : '';
        const subtitle = subtitleField
          ? formatValue(record.values[subtitleField.id], subtitleField)
          : '';
        const content = (
          <>
            <span className="rt-list-title">{title || 'Untitled'}</span>
            {subtitle && <span className="rt-list-subtitle">{subtitle}</span>}
          </>
        );
        return (
          <li key={record.id} className="rt-list-item">
            {target && onNavigate ? (
              <button type="button" className="rt-list-button" onClick={() => onNavigate(target)}>
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
  if (collection.records.length === 0)
    return <p className="rt-card rt-muted rt-empty">Nothing to tick yet.</p>;
  return (
    <ul className="rt-card rt-checklist" aria-label={collection.name}>
      {collection.records.map((record) => {
        const value = record.values[checkField.id];
        const title = titleField ? formatValue(record.values[titleField.id], titleField) : '';
        return (
          <li key={record.id}>
            <label className="rt-check">
              <input
                type="checkbox"
                className="rt-checkbox"
                disabled
                defaultChecked={value === true || value === 'true'}
              />
              <span>{title || 'Untitled'}</span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}
