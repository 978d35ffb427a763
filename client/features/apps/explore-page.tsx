import { exploreApiPath, type ExploreParams, exploreResponseSchema } from '@pipit/protocol';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { AppCardGrid } from '../../ui/app-card';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { TextField } from '../../ui/field';
import { formatMoment } from '../../ui/format-time';
import { Loading } from '../../ui/loading';
import { Notice } from '../../ui/notice';
import { Page } from '../../ui/page';
import { Segmented } from '../../ui/segmented';
import { OfflineError } from '../../platform/api/request';
import { useApiGet } from '../../platform/api/use-api-get';
import './explore-page.css';

const SORTS = [
  { value: 'new', label: 'New' },
  { value: 'popular', label: 'Popular' },
] as const;

/** `/explore`: public published apps — search, tags, sort, pages; the copy last seen offline. */
export function ExplorePage({
  search,
  onSearchChange,
}: {
  search: ExploreParams;
  onSearchChange: (next: ExploreParams) => void;
}) {
  const result = useApiGet(exploreApiPath(search), exploreResponseSchema);
  const shown = result.shown;

  const filtered = Boolean(search.q || search.tag || search.author);

  return (
    <Page title="Explore" lead="Public apps made with Pipit. Open one, install it, or remix it.">
      {/* Keyed by the query: back and forward (a new search from outside) reset the field. */}
      <SearchForm
        key={search.q}
        q={search.q}
        onSubmit={(q) => onSearchChange({ ...search, q, page: 1 })}
      />
      <div className="row explore__controls">
        <Segmented
          label="Sort by"
          options={SORTS}
          value={search.sort}
          onChange={(sort) => onSearchChange({ ...search, sort, page: 1 })}
        />
        {search.author ? (
          <Button
            size="small"
            variant="secondary"
            aria-label={`Remove the filter: apps by @${search.author}`}
            onClick={() => onSearchChange({ ...search, author: undefined, page: 1 })}
          >
            By @{search.author} <span aria-hidden="true">✕</span>
          </Button>
        ) : null}
      </div>
      {shown && shown.data.tags.length > 0 ? (
        <TagChips
          tags={shown.data.tags}
          current={search.tag}
          onChange={(tag) => onSearchChange({ ...search, tag, page: 1 })}
        />
      ) : search.tag ? (
        <TagChips
          tags={[]}
          current={search.tag}
          onChange={(tag) => onSearchChange({ ...search, tag, page: 1 })}
        />
      ) : null}

      {result.status === 'ready' && result.isCachedCopy ? (
        <Notice tone="offline">
          You’re offline — showing results from{' '}
          {result.sentAt ? formatMoment(result.sentAt) : 'the last time you were online'}.
        </Notice>
      ) : null}

      {result.status === 'error' ? (
        <Notice
          tone={result.error instanceof OfflineError ? 'offline' : 'danger'}
          title="Apps couldn’t be loaded"
          live="alert"
        >
          <p>{result.message}</p>
          <Button size="small" variant="secondary" onClick={result.retry}>
            Try again
          </Button>
        </Notice>
      ) : !shown ? (
        <Loading label="Finding apps…" />
      ) : (
        <div className="explore__results" aria-busy={result.status === 'loading'}>
          <p className="explore__count" role="status">
            {shown.data.total === 0
              ? 'No apps found'
              : `${shown.data.total} ${shown.data.total === 1 ? 'app' : 'apps'}${filtered ? ' found' : ''}`}
          </p>
          {shown.data.apps.length > 0 ? (
            <AppCardGrid apps={shown.data.apps} level={2} label="Apps" />
          ) : filtered ? (
            <EmptyState icon="🔎" title="No apps match your search">
              Try fewer words, another tag, or clear the search to see every public app.
            </EmptyState>
          ) : (
            <EmptyState icon="🪺" title="No public apps yet">
              When creators publish apps publicly, they appear here, newest first.
            </EmptyState>
          )}
          <Pager search={search} page={shown.data.page} pageCount={shown.data.pageCount} />
        </div>
      )}
    </Page>
  );
}

function SearchForm({ q, onSubmit }: { q: string; onSubmit: (q: string) => void }) {
  const [query, setQuery] = useState(q);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(query.trim());
  };
  return (
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
  );
}

/** The most used tags as toggles: pressing one filters by it, pressing it again clears it. */
function TagChips({
  tags,
  current,
  onChange,
}: {
  tags: Array<{ tag: string; count: number }>;
  current: string | undefined;
  onChange: (tag: string | undefined) => void;
}) {
  const list =
    current && !tags.some((t) => t.tag === current) ? [{ tag: current, count: 0 }, ...tags] : tags;
  return (
    <div className="explore__tags" role="group" aria-label="Filter by tag">
      {list.map(({ tag }) => (
        <button
          key={tag}
          type="button"
          className="explore__tag"
          aria-pressed={tag === current}
          onClick={() => onChange(tag === current ? undefined : tag)}
        >
          #{tag}
        </button>
      ))}
    </div>
  );
}

/** Previous / next as links (they can be opened in a new tab), and where we are. */
function Pager({
  search,
  page,
  pageCount,
}: {
  search: ExploreParams;
  page: number;
  pageCount: number;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav className="explore__pager" aria-label="Pages">
      {page > 1 ? (
        <Link
          to="/explore"
          search={{ ...search, page: page - 1 }}
          className="button button--secondary button--small"
          rel="prev"
        >
          <span aria-hidden="true">←</span> Previous
        </Link>
      ) : (
        <span />
      )}
      <p className="explore__page">
        Page {page} of {pageCount}
      </p>
      {page < pageCount ? (
        <Link
          to="/explore"
          search={{ ...search, page: page + 1 }}
          className="button button--secondary button--small"
          rel="next"
        >
          Next <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
