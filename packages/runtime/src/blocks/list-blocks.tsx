import type { Collection, ComponentProps, ListView } from '@pipit/app-definition';
import { type ComponentType, type ReactNode, useState } from 'react';
import { lazyPart } from '../lazy-part';
import { viewModules } from '../parts';
import { narrowRecords, NO_QUERY, quickFilterOf, type VisitorQuery } from '../list-query';
import {
  type ListRecord,
  RecordText,
  titleText,
  type ViewProps,
  EmptyView,
} from '../list-views/view-parts';
import { findCollection, findField, isChecked, queryRecords, sortRecords } from '../records';
import { recordsFor, type RenderContext } from '../render-context';
import { MoreRows, useGrowingRows } from './growing-rows';
import { ListTools } from './list-tools';
import { SetupNote } from './setup-note';

/*
 * A table, board, calendar or gallery is loaded the first time one is shown: an installed app
 * whose lists are plain lists never downloads them, and its first visit stays within its budget
 * (docs/performance.md, "What a first visit loads").
 */
const VIEWS: Record<Exclude<ListView, 'list'>, ComponentType<ViewProps>> = {
  table: lazyPart(viewModules.table, (m) => m.TableView, ViewLoading),
  board: lazyPart(viewModules.board, (m) => m.BoardView, ViewLoading),
  calendar: lazyPart(viewModules.calendar, (m) => m.CalendarView, ViewLoading),
  gallery: lazyPart(viewModules.gallery, (m) => m.GalleryView, ViewLoading),
};

/**
 * A list's view, when it is one of these: a version published before views existed has none, and
 * a newer one may name a view this build does not know; either shows the plain list.
 */
function viewOf(props: ComponentProps<'list'>): Exclude<ListView, 'list'> | null {
  const view = props.view as string | undefined;
  return view && Object.hasOwn(VIEWS, view) ? (view as Exclude<ListView, 'list'>) : null;
}

/** Opens a record on the list's detail screen: the running app's, or the preview's navigation. */
function opener(context: RenderContext, target: string | null): ViewProps['open'] {
  if (!target) return null;
  const { run, onNavigate } = context;
  if (run) return (recordId) => run.openRecord(target, recordId);
  if (onNavigate) return () => onNavigate(target);
  return null;
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
  return <CollectionList props={props} collection={collection} context={context} />;
}

/**
 * The creator's filter, then what the visitor searched for and picked in the quick filter, then
 * the creator's sort; shown in the list's view.
 */
function CollectionList({
  props,
  collection,
  context,
}: {
  props: ComponentProps<'list'>;
  collection: Collection;
  context: RenderContext;
}) {
  const [query, setQuery] = useState<VisitorQuery>(NO_QUERY);
  const view = viewOf(props);
  const kept = queryRecords(recordsFor(context, collection), { filter: props.filter });
  // A list published before views existed has no `search`: visitors get it, as in a new one.
  const searchable = props.search !== false && kept.length > 0;
  // "Assigned to me" is worth a filter only among others (alone, every pick is the person's own).
  const data = context.run?.data;
  const me = data?.me && (data.people?.length ?? 0) > 1 ? data.me : null;
  const quick = searchable
    ? quickFilterOf(collection, view === 'board' ? props.groupFieldId : null, me)
    : null;
  const narrowed = searchable ? narrowRecords(kept, collection.fields, quick, query) : kept;
  const records = props.sort ? sortRecords(narrowed, props.sort) : narrowed;
  const viewProps: ViewProps = {
    props,
    collection,
    records,
    titleField: findField(collection, props.titleFieldId) ?? collection.fields[0] ?? null,
    subtitleField: findField(collection, props.subtitleFieldId),
    context,
    open: opener(context, props.detailScreenId),
    emptyText:
      kept.length === 0
        ? props.emptyText
        : query.text.trim()
          ? 'Nothing matches your search.'
          : 'Nothing matches this filter.',
  };
  const View = view ? VIEWS[view] : PlainList;
  return (
    <div className="rt-list-block">
      {searchable && (
        <ListTools
          collection={collection}
          filter={quick}
          query={query}
          onChange={setQuery}
          shown={records.length}
          total={kept.length}
        />
      )}
      <View {...viewProps} />
    </div>
  );
}

/** While a view's code loads: the list's own card, so nothing jumps when it comes. */
function ViewLoading() {
  return (
    <p className="rt-card rt-muted rt-empty rt-view-loading" role="status">
      Loading…
    </p>
  );
}

/**
 * The plain list: title and subtitle per record; tapping one opens the detail screen. A long one
 * draws its first rows and the rest as they come near (growing-rows.tsx).
 */
function PlainList({ collection, records, titleField, subtitleField, open, emptyText }: ViewProps) {
  const { shown, more } = useGrowingRows(records.length);
  if (records.length === 0) return <EmptyView text={emptyText} />;
  return (
    <>
      <ul className="rt-card rt-list" aria-label={collection.name}>
        {records.slice(0, shown).map((record) => (
          <li key={record.id} className="rt-list-item">
            <PlainListItem record={record} open={open}>
              <RecordText record={record} titleField={titleField} subtitleField={subtitleField} />
            </PlainListItem>
          </li>
        ))}
      </ul>
      <MoreRows left={records.length - shown} onMore={more} />
    </>
  );
}

function PlainListItem({
  record,
  open,
  children,
}: {
  record: ListRecord;
  open: ViewProps['open'];
  children: ReactNode;
}) {
  if (!open) return <div className="rt-list-static">{children}</div>;
  return (
    <button type="button" className="rt-list-button" onClick={() => open(record.id)}>
      {children}
      <span className="rt-chevron" aria-hidden="true">
        ›
      </span>
    </button>
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
        const title = titleText(record, titleField);
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
