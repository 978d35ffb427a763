import type { Collection, ComponentProps, ListView } from '@pipit/app-definition';
import {
  type ComponentType,
  lazy,
  type LazyExoticComponent,
  type ReactNode,
  Suspense,
  useState,
} from 'react';
import { narrowRecords, NO_QUERY, quickFilterOf, type VisitorQuery } from '../list-query';
import {
  type ListRecord,
  RecordText,
  titleText,
  type ViewProps,
  EmptyView,
} from '../list-views/view-parts';
import { findCollection, findField, isChecked, queryRecords, sortRecords } from '../records';
import type { RenderContext } from '../render-context';
import type { RuntimeRecord } from '../runtime-data';
import { MoreRows, useGrowingRows } from './growing-rows';
import { ListTools } from './list-tools';
import { SetupNote } from './setup-note';

/** The records a data component shows: the running app's, or the creator records in the preview. */
export function recordsFor(
  context: RenderContext,
  collection: Collection,
): ReadonlyArray<Pick<RuntimeRecord, 'id' | 'values'> & { isOwn?: boolean }> {
  return context.run ? context.run.recordsOf(collection.id) : collection.records;
}

/*
 * A table, board, calendar or gallery is loaded the first time one is shown: an installed app
 * whose lists are plain lists never downloads them, and its first visit stays within its budget
 * (docs/performance.md, "What a first visit loads").
 */
const VIEWS: Record<Exclude<ListView, 'list'>, LazyExoticComponent<ComponentType<ViewProps>>> = {
  table: lazy(() => import('../list-views/table-view').then((m) => ({ default: m.TableView }))),
  board: lazy(() => import('../list-views/board-view').then((m) => ({ default: m.BoardView }))),
  calendar: lazy(() =>
    import('../list-views/calendar-view').then((m) => ({ default: m.CalendarView })),
  ),
  gallery: lazy(() =>
    import('../list-views/gallery-view').then((m) => ({ default: m.GalleryView })),
  ),
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
  const quick = searchable
    ? quickFilterOf(collection, view === 'board' ? props.groupFieldId : null)
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
      <Suspense fallback={<ViewLoading />}>
        <View {...viewProps} />
      </Suspense>
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
