import type { Field } from '@pipit/app-definition';
import { useState } from 'react';
import { MoreRows, useGrowingRows } from '../blocks/growing-rows';
import { type ListSort, sortRecords } from '../records';
import { ariaSort, nextSort, tableColumns } from './table-sort';
import { EmptyView, type ListRecord, titleText, valueText, type ViewProps } from './view-parts';
import './list-views.css';

const SORT_MARKS = { ascending: '↑', descending: '↓' } as const;

/**
 * A list as a table: a column per chosen field, sorted by a header's button (pressed again, the
 * other way), a row opening its record. On a phone the table scrolls sideways inside its own box:
 * the page never does.
 */
export function TableView({ props, collection, records, titleField, open, emptyText }: ViewProps) {
  // The creator's order until the visitor picks a column (a list published before views has none).
  const [sort, setSort] = useState<ListSort | null>(props.sort ?? null);
  // A long table grows as a long list does: its first rows, then more near the end (sorting
  // orders every record first).
  const { shown, more } = useGrowingRows(records.length);
  if (records.length === 0) return <EmptyView text={emptyText} />;
  const columns = tableColumns(collection, props.columnFieldIds);
  const rows = sort ? sortRecords(records, sort) : records;
  const sortedBy = columns.find((f) => f.id === sort?.fieldId);
  return (
    <>
      <div className="rt-card rt-table-box">
        <table className="rt-table">
          <caption className="rt-visually-hidden">
            {collection.name}
            {sortedBy && sort
              ? `, sorted by ${sortedBy.name}, ${sort.direction === 'desc' ? 'descending' : 'ascending'}`
              : ''}
          </caption>
          <thead>
            <tr>
              {columns.map((field) => (
                <HeaderCell
                  key={field.id}
                  field={field}
                  sort={sort}
                  onSort={() => setSort(nextSort(sort, field.id))}
                />
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, shown).map((record) => (
              <TableRow
                key={record.id}
                record={record}
                columns={columns}
                title={titleText(record, titleField)}
                open={open}
              />
            ))}
          </tbody>
        </table>
      </div>
      <MoreRows left={records.length - shown} onMore={more} />
    </>
  );
}

function HeaderCell({
  field,
  sort,
  onSort,
}: {
  field: Field;
  sort: ListSort | null;
  onSort(): void;
}) {
  const order = ariaSort(sort, field.id);
  return (
    <th scope="col" aria-sort={order} className={cellClass(field)}>
      <button type="button" className="rt-table-sort" onClick={onSort}>
        {field.name}
        <span className="rt-table-sort-mark" aria-hidden="true">
          {order ? SORT_MARKS[order] : '↕'}
        </span>
      </button>
    </th>
  );
}

/** Amounts line up on the right; strings, so types added later (a currency) are named here now. */
const NUMERIC_TYPES: ReadonlySet<string> = new Set(['number', 'currency', 'rating', 'duration']);
const cellClass = (field: Field) => (NUMERIC_TYPES.has(field.type) ? 'rt-cell-number' : undefined);

/**
 * A record's row. Its first cell is a button (keyboard: Tab to it, Enter), and a click anywhere on
 * the row does the same: the button's own click reaches the row, so it has no handler of its own.
 */
function TableRow({
  record,
  columns,
  title,
  open,
}: {
  record: ListRecord;
  columns: Field[];
  title: string;
  open: ViewProps['open'];
}) {
  const [first, ...rest] = columns;
  const firstText = first ? valueText(record, first) : '';
  return (
    <tr
      className={open ? 'rt-table-row-open' : undefined}
      onClick={open ? () => open(record.id) : undefined}
    >
      {first && (
        <th scope="row" className={cellClass(first)}>
          {open ? (
            <button
              type="button"
              className="rt-table-open"
              // An empty first cell still names the record it opens.
              aria-label={firstText ? undefined : `Open ${title}`}
            >
              {firstText}
            </button>
          ) : (
            firstText
          )}
        </th>
      )}
      {rest.map((field) => (
        <td key={field.id} className={cellClass(field)}>
          {valueText(record, field)}
        </td>
      ))}
    </tr>
  );
}
