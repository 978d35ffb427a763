import { type Collection, type Field, fitsViewField } from '@pipit/app-definition';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { lockedMessage } from '../actions';
import { SetupNote } from '../blocks/setup-note';
import { focusFirst } from '../host';
import { findField } from '../records';
import type { RunContext } from '../render-context';
import { type BoardColumn, boardColumns, columnOf } from './board-columns';
import { EmptyView, type ListRecord, RecordText, titleText, type ViewProps } from './view-parts';
import './list-views.css';

type Column = BoardColumn<ListRecord>;

/** What a board uses of a drag's DataTransfer (packages compile without the DOM's types). */
interface DragData {
  setData(format: string, data: string): void;
  getData(format: string): string;
  effectAllowed: string;
  dropEffect: string;
}

/** A drag event's data; null when the event has none. */
function dragData(event: { dataTransfer?: unknown }): DragData | null {
  const data = event.dataTransfer as Partial<DragData> | null | undefined;
  return data && typeof data.getData === 'function' ? (data as DragData) : null;
}

/**
 * Moves a card to another column: its group field takes the column's choice, saved through the
 * runtime's data as a form saves it (a value the collection refuses says why in a toast). A
 * record the person may not change says why, in the words forms use. True when it moved.
 */
function moveRecord(
  run: RunContext,
  collection: Collection,
  field: Field,
  record: ListRecord,
  to: Column,
  title: string,
): boolean {
  if (record.isOwn !== true) {
    run.toast(lockedMessage(record));
    return false;
  }
  if (!run.update(collection, record.id, { [field.id]: to.value })) return false;
  run.toast(`“${title}” moved to ${to.label}.`);
  return true;
}

/**
 * Dragging a card: which one, and the column under it (highlighted as where it would land).
 * State, not a ref: both change what is drawn.
 */
function useDrag() {
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const end = () => {
    setDragging(null);
    setOver(null);
  };
  return { dragging, setDragging, over, setOver, end };
}

/**
 * A list as a board: a column per choice of a select field, and one for records without a choice.
 * A visitor moves a card by dragging it to another column or, from the keyboard or a touch screen,
 * with its "Move to…" menu; focus follows the card to its new column. The columns scroll sideways
 * inside the board on a phone. The editor's preview shows the cards and moves nothing.
 */
export function BoardView(view: ViewProps) {
  const { props, collection, records, context, emptyText } = view;
  const drag = useDrag();
  const boardRef = useRef<HTMLDivElement>(null);
  // The card last moved, a new object each move: its "Move to…" takes focus in its new column.
  const [moved, setMoved] = useState<{ recordId: string } | null>(null);
  useEffect(() => {
    if (moved) focusFirst(boardRef.current, `[data-move-for="${moved.recordId}"]`);
  }, [moved]);
  const field = findField(collection, props.groupFieldId);
  if (!field || !fitsViewField('groupFieldId', field.type)) {
    return <SetupNote>Choose a choice field to group this board by.</SetupNote>;
  }
  if (records.length === 0) return <EmptyView text={emptyText} />;
  const columns = boardColumns(records, field);
  const { run } = context;
  // From "Move to…", focus follows the card (the menu it was in is gone); a drag leaves it be.
  const move = run
    ? (record: ListRecord, to: Column, follow = true) => {
        if (columnOf(columns, record) === to) return;
        const title = titleText(record, view.titleField);
        const done = moveRecord(run, collection, field, record, to, title);
        if (done && follow) setMoved({ recordId: record.id });
      }
    : null;
  const drop = (to: Column) => {
    const record = records.find((r) => r.id === drag.dragging);
    drag.end();
    if (record && move) move(record, to, false);
  };
  return (
    <div className="rt-board" ref={boardRef}>
      {columns.map((column) => (
        <BoardColumnView
          key={column.key}
          column={column}
          columns={columns}
          view={view}
          move={move}
          highlighted={drag.over === column.key && drag.dragging !== null}
          onDragOver={(event) => {
            if (drag.dragging === null) return;
            // Taking the event says a card may land here.
            event.preventDefault();
            const data = dragData(event);
            if (data) data.dropEffect = 'move';
            drag.setOver(column.key);
          }}
          onDrop={(event) => {
            event.preventDefault();
            drop(column);
          }}
          onDragStart={drag.setDragging}
          onDragEnd={drag.end}
        />
      ))}
    </div>
  );
}

interface ColumnProps {
  column: Column;
  columns: readonly Column[];
  view: ViewProps;
  move: ((record: ListRecord, to: Column, follow?: boolean) => void) | null;
  highlighted: boolean;
  onDragOver(event: DragEvent): void;
  onDrop(event: DragEvent): void;
  onDragStart(recordId: string): void;
  onDragEnd(): void;
}

function BoardColumnView({ column, columns, view, move, highlighted, ...handlers }: ColumnProps) {
  const count = column.records.length;
  return (
    <div
      className={`rt-board-column${highlighted ? ' rt-board-column-over' : ''}`}
      role="group"
      // Its name is said whole ("Reading, 2 items"): hidden words beside the title would lose
      // their spaces (a screen reader reads a visually hidden box's text as laid out, trimmed).
      aria-label={`${column.label}, ${count} ${count === 1 ? 'item' : 'items'}`}
      onDragOver={handlers.onDragOver}
      onDrop={handlers.onDrop}
    >
      <p className="rt-board-title" aria-hidden="true">
        <span>{column.label}</span>
        <span className="rt-board-count">{count}</span>
      </p>
      {count === 0 ? (
        <p className="rt-muted rt-board-empty">Nothing here.</p>
      ) : (
        <ul className="rt-board-cards">
          {column.records.map((record) => (
            <BoardCard
              key={record.id}
              record={record}
              column={column}
              columns={columns}
              view={view}
              move={move}
              onDragStart={handlers.onDragStart}
              onDragEnd={handlers.onDragEnd}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function BoardCard({
  record,
  column,
  columns,
  view,
  move,
  onDragStart,
  onDragEnd,
}: Omit<ColumnProps, 'highlighted' | 'onDragOver' | 'onDrop'> & { record: ListRecord }) {
  const { titleField, subtitleField, open } = view;
  const movable = move !== null && record.isOwn === true;
  const text = <RecordText record={record} titleField={titleField} subtitleField={subtitleField} />;
  return (
    <li
      className={`rt-board-card${movable ? ' rt-board-card-movable' : ''}`}
      draggable={movable}
      onDragStart={(event) => {
        const data = dragData(event);
        if (data) {
          data.setData('text/plain', record.id);
          data.effectAllowed = 'move';
        }
        onDragStart(record.id);
      }}
      onDragEnd={onDragEnd}
    >
      {open ? (
        <button type="button" className="rt-board-open" onClick={() => open(record.id)}>
          {text}
        </button>
      ) : (
        <div className="rt-board-static">{text}</div>
      )}
      {move && (
        <MoveMenu
          record={record}
          title={titleText(record, titleField)}
          targets={columns.filter((c) => c !== column)}
          onMove={(to) => move(record, to)}
        />
      )}
    </li>
  );
}

/**
 * "Move to…": the keyboard's and touch screen's way to move a card, a disclosure (no script needed
 * to open it) with a button per other column. A card the person may not change says why instead.
 */
function MoveMenu({
  record,
  title,
  targets,
  onMove,
}: {
  record: ListRecord;
  title: string;
  targets: readonly Column[];
  onMove(to: Column): void;
}) {
  return (
    <details className="rt-move">
      {/* The spaces stay outside the hidden words, or they would be lost from the name; one span
          keeps them in the summary's flex box too. */}
      <summary className="rt-move-summary" data-move-for={record.id}>
        <span>
          Move <span className="rt-visually-hidden">“{title}”</span> to…
        </span>
      </summary>
      {record.isOwn === true ? (
        <ul className="rt-move-targets" aria-label={`Move “${title}” to`}>
          {targets.map((target) => (
            <li key={target.key}>
              <button type="button" className="rt-move-target" onClick={() => onMove(target)}>
                {target.label}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rt-move-locked">{lockedMessage(record)}</p>
      )}
    </details>
  );
}
