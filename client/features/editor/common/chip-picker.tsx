import type { ReactNode } from 'react';

/**
 * Pick one of a few named things (collections, actions) as a row of chips; `empty` says what the
 * things are for when there are none yet.
 */
export function ChipPicker({
  label,
  items,
  selectedId,
  onSelect,
  empty,
}: {
  label: string;
  items: ReadonlyArray<{ id: string; name: string }>;
  selectedId: string | undefined;
  onSelect(id: string): void;
  empty: ReactNode;
}) {
  if (items.length === 0) return <p className="editor-muted">{empty}</p>;
  return (
    <ul className="chip-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className="chip"
            aria-current={item.id === selectedId ? 'true' : undefined}
            onClick={() => onSelect(item.id)}
          >
            <span className="chip__label" dir="auto" title={item.name}>
              {item.name}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
