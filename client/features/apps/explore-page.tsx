import { type FormEvent, useState } from 'react';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { TextField } from '../../ui/field';
import { Page } from '../../ui/page';
import { Segmented } from '../../ui/segmented';
import './explore-page.css';

export interface ExploreSearch {
  q: string;
  tag?: string | undefined;
  sort: 'new' | 'popular';
  page: number;
}

const SORTS = [
  { value: 'new', label: 'New' },
  { value: 'popular', label: 'Popular' },
] as const;

/** `/explore`: public published apps — search, tags, sort, pages. */
export function ExplorePage({
  search,
  onSearchChange,
}: {
  search: ExploreSearch;
  onSearchChange: (next: ExploreSearch) => void;
}) {
  const [query, setQuery] = useState(search.q);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearchChange({ ...search, q: query.trim(), page: 1 });
  };
  const filtered = Boolean(search.q || search.tag);

  return (
    <Page title="Explore" lead="Public apps made with Pipit. Open one, install it, or remix it.">
      <form className="explore__search" role="search" onSubmit={submit}>
        <TextField
          label="Search apps"
          type="search"
          name="q"
          value={query}
          maxLength={100}
          placeholder="Title, description, tag or author"
          onChange={(e) => setQuery(e.target.value)}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      <div className="row explore__controls">
        <Segmented
          label="Sort by"
          options={SORTS}
          value={search.sort}
          onChange={(sort) => onSearchChange({ ...search, sort, page: 1 })}
        />
        {search.tag ? (
          <Button
            size="small"
            variant="ghost"
            onClick={() => onSearchChange({ ...search, tag: undefined, page: 1 })}
          >
            Tag: {search.tag} ✕
          </Button>
        ) : null}
      </div>
      {filtered ? (
        <EmptyState icon="🔎" title="No apps match your search">
          Try fewer words, another tag, or clear the search to see every public app.
        </EmptyState>
      ) : (
        <EmptyState icon="🪺" title="No public apps yet">
          When creators publish apps publicly, they appear here, newest first.
        </EmptyState>
      )}
    </Page>
  );
}
