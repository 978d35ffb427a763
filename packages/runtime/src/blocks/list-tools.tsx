import type { Collection } from '@pipit/app-definition';
import { useId } from 'react';
import { inputValue } from '../host';
import type { QuickFilter, VisitorQuery } from '../list-query';

/**
 * What a visitor narrows a list with, above it in every view: a search box and, when the
 * collection has a select or yes/no field, a row of its choices. How many records are left is said
 * to screen readers as it changes (the list itself only changes silently).
 */
export function ListTools({
  collection,
  filter,
  query,
  onChange,
  shown,
  total,
}: {
  collection: Collection;
  filter: QuickFilter | null;
  query: VisitorQuery;
  onChange(query: VisitorQuery): void;
  shown: number;
  total: number;
}) {
  const narrowed = query.text.trim() !== '' || query.choice !== null;
  return (
    <div className="rt-list-tools">
      <input
        type="search"
        className="rt-input"
        aria-label={`Search ${collection.name}`}
        placeholder="Search"
        autoComplete="off"
        enterKeyHint="search"
        value={query.text}
        onChange={(event) => onChange({ ...query, text: inputValue(event) })}
      />
      {filter && (
        <ChoiceChips
          filter={filter}
          choice={query.choice}
          onChoose={(choice) => onChange({ ...query, choice })}
        />
      )}
      <p className="rt-visually-hidden" role="status">
        {narrowed ? `${shown} of ${total} shown` : ''}
      </p>
    </div>
  );
}

/** "All" and one toggle per choice; pressing the chosen one again shows all. */
function ChoiceChips({
  filter,
  choice,
  onChoose,
}: {
  filter: QuickFilter;
  choice: string | null;
  onChoose(choice: string | null): void;
}) {
  const labelId = useId();
  const chip = (value: string | null, label: string) => {
    const pressed = choice === value;
    return (
      <button
        key={value ?? ''}
        type="button"
        className="rt-chip"
        aria-pressed={pressed}
        onClick={() => onChoose(pressed || value === null ? null : value)}
      >
        {label}
      </button>
    );
  };
  return (
    <div className="rt-chips" role="group" aria-labelledby={labelId}>
      <span className="rt-chips-label" id={labelId}>
        {filter.field.name}
      </span>
      {chip(null, 'All')}
      {filter.choices.map((c) => chip(c.value, c.label))}
    </div>
  );
}
