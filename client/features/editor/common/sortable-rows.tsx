import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  type KeyboardEvent,
  type ReactNode,
  startTransition,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { isTyping } from './typing';
import { Icon } from './icons';

interface SortableRowsProps<T extends { id: string }> {
  items: readonly T[];
  /** The list's accessible name, e.g. "Components on Home". */
  label: string;
  /** An item's name in buttons and announcements, e.g. "Heading: Welcome". */
  nameOf(item: T): string;
  /** Moves an item to its new index (its position once moved). */
  onMove(id: string, index: number): void;
  disabled: boolean;
  renderItem(item: T, index: number): ReactNode;
  rowClassName?(item: T): string;
  className?: string;
  /** A row that must be drawn now (the selected one), however far down the list it is. */
  shownId?: string | null | undefined;
}

/**
 * Rows drawn at once: what the structure panel shows in a window 900 px tall (on a taller one, the
 * space the rest will take is in view at once, which draws it). A longer list (a screen can hold
 * 200 components) draws the rest when they are needed — scrolled near, focus or a drag in the
 * list, a row selected further down — or else once the browser is idle, so the editor opens
 * without waiting for rows no one sees yet (`npm run bench -- editor`).
 */
const FIRST_ROWS = 24;

/**
 * An ordered list whose rows move by drag (pointer and touch, from the handle), by the handle's
 * keyboard drag (Space, arrows, Space), by "Move up/down" buttons, and by Alt+↑/↓ on any focused
 * part of a row.
 */
export function SortableRows<T extends { id: string }>({
  items,
  label,
  nameOf,
  onMove,
  disabled,
  renderItem,
  rowClassName,
  className,
  shownId,
}: SortableRowsProps<T>) {
  const [announcer, setAnnouncer] = useState<HTMLDivElement | null>(null);
  const [drawAll, setDrawAll] = useState(false);
  const shownIndex = shownId ? items.findIndex((item) => item.id === shownId) : -1;
  const partial = !drawAll && items.length > FIRST_ROWS && shownIndex < FIRST_ROWS;
  // Once the whole list is drawn (short, or a row far down shown), it stays so: rows never go
  // away under the person's eyes or focus when the list grows or the selection moves up.
  if (!drawAll && !partial) setDrawAll(true);
  const drawn = partial ? items.slice(0, FIRST_ROWS) : items;
  const listRef = useRef<HTMLUListElement>(null);
  const restRef = useRef<HTMLDivElement>(null);
  // Until the rest is drawn, the space it will take keeps the panel's scroll bar true, and
  // scrolling into that space draws it.
  useLayoutEffect(() => {
    const list = listRef.current;
    const rest = restRef.current;
    if (!partial || !list || !rest) return;
    const rowHeight = list.offsetHeight / FIRST_ROWS;
    rest.style.height = `${Math.round(rowHeight * (items.length - FIRST_ROWS))}px`;
  }, [partial, items.length]);
  useEffect(() => {
    const rest = restRef.current;
    if (!partial || !rest) return;
    const drawRest = () => startTransition(() => setDrawAll(true));
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) drawRest();
    });
    observer.observe(rest);
    const idle =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(drawRest, { timeout: 2_000 })
        : undefined;
    const fallback = idle === undefined ? setTimeout(drawRest, 500) : undefined;
    return () => {
      observer.disconnect();
      if (idle !== undefined) cancelIdleCallback(idle);
      clearTimeout(fallback);
    };
  }, [partial]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = (id: unknown) => items.find((item) => item.id === id);
  const name = (id: unknown) => {
    const item = byId(id);
    return item ? nameOf(item) : 'The item';
  };
  const position = (id: unknown) => items.findIndex((item) => item.id === id) + 1;
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const index = items.findIndex((item) => item.id === over.id);
    if (index >= 0) onMove(String(active.id), index);
  };
  return (
    <div
      className={className}
      ref={setAnnouncer}
      // Keyboard moves, Tab and the arrow keys need every row: drawn the moment focus comes in.
      onFocus={partial ? () => setDrawAll(true) : undefined}
    >
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={partial ? () => setDrawAll(true) : undefined}
        onDragEnd={onDragEnd}
        accessibility={{
          container: announcer ?? undefined,
          screenReaderInstructions: {
            draggable:
              'To move this row, press Space. Use the up and down arrow keys to move it, Space to drop it here, or Escape to cancel.',
          },
          announcements: {
            onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
            onDragOver: ({ active, over }) =>
              over
                ? `${name(active.id)} is at position ${position(over.id)} of ${items.length}.`
                : undefined,
            onDragEnd: ({ active, over }) =>
              over
                ? `${name(active.id)} dropped at position ${position(over.id)} of ${items.length}.`
                : `${name(active.id)} dropped.`,
            onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
          },
        }}
      >
        <SortableContext
          items={items.map((item) => item.id)}
          strategy={verticalListSortingStrategy}
          disabled={disabled}
        >
          <ul className="sortable-rows" aria-label={label} ref={listRef}>
            {drawn.map((item, index) => (
              <SortableRow
                key={item.id}
                id={item.id}
                name={nameOf(item)}
                index={index}
                count={items.length}
                // While only the first rows are drawn, each still says where it is in the list.
                ofAll={partial}
                disabled={disabled}
                onMove={onMove}
                className={rowClassName?.(item)}
              >
                {renderItem(item, index)}
              </SortableRow>
            ))}
          </ul>
          {partial ? <div ref={restRef} aria-hidden="true" /> : null}
        </SortableContext>
      </DndContext>
    </div>
  );
}

interface SortableRowProps {
  id: string;
  name: string;
  index: number;
  count: number;
  ofAll: boolean;
  disabled: boolean;
  onMove(id: string, index: number): void;
  className?: string | undefined;
  children: ReactNode;
}

function SortableRow({
  id,
  name,
  index,
  count,
  ofAll,
  disabled,
  onMove,
  className,
  children,
}: SortableRowProps) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id, disabled });
  const move = (to: number) => {
    if (disabled || to < 0 || to >= count || to === index) return;
    onMove(id, to);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!event.altKey || isTyping(event.target)) return;
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    // Handled here: the editor-wide Alt+↑/↓ (which moves the selected component) stays out.
    event.preventDefault();
    event.stopPropagation();
    move(event.key === 'ArrowUp' ? index - 1 : index + 1);
  };
  return (
    <li
      ref={setNodeRef}
      className={`sortable-row${isDragging ? ' sortable-row--dragging' : ''}${className ? ` ${className}` : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      onKeyDown={onKeyDown}
      data-row-id={id}
      aria-posinset={ofAll ? index + 1 : undefined}
      aria-setsize={ofAll ? count : undefined}
    >
      {disabled ? null : (
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="sortable-row__handle"
          {...attributes}
          {...listeners}
          aria-label={`Reorder ${name}`}
        >
          <Icon name="grip" />
        </button>
      )}
      <div className="sortable-row__content">{children}</div>
      {disabled ? null : (
        <span className="sortable-row__moves">
          <button
            type="button"
            className="icon-button"
            aria-label={`Move ${name} up`}
            title="Move up (Alt+↑)"
            disabled={index === 0}
            onClick={() => move(index - 1)}
          >
            <Icon name="up" />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={`Move ${name} down`}
            title="Move down (Alt+↓)"
            disabled={index === count - 1}
            onClick={() => move(index + 1)}
          >
            <Icon name="down" />
          </button>
        </span>
      )}
    </li>
  );
}
