import { useState } from 'react';
import { ButtonLink } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { Page } from '../../ui/page';
import { Segmented } from '../../ui/segmented';

const FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Drafts' },
  { value: 'published', label: 'Published' },
  { value: 'shared', label: 'Shared with me' },
] as const;
type Filter = (typeof FILTERS)[number]['value'];

const EMPTY_TEXT: Record<Filter, string> = {
  all: 'Apps you create, and apps people share with you, appear here with their sync state.',
  draft: 'Apps you have never published are drafts. You have none.',
  published: 'You have not published an app yet.',
  shared: 'No one has shared an app with you yet.',
};

/** `/studio`: the creator's workspace — own and shared apps, their sync state, filters. */
export function StudioPage() {
  const [filter, setFilter] = useState<Filter>('all');
  return (
    <Page
      title="Studio"
      lead="Everything you build, and everything shared with you."
      actions={<ButtonLink to="/create">New app</ButtonLink>}
    >
      <div className="stack">
        <Segmented label="Show" options={FILTERS} value={filter} onChange={setFilter} />
        <EmptyState
          icon="🛠️"
          title="No apps here yet"
          action={
            filter === 'all' || filter === 'draft' ? (
              <ButtonLink to="/create" variant="secondary">
                Create your first app
              </ButtonLink>
            ) : null
          }
        >
          {EMPTY_TEXT[filter]}
        </EmptyState>
      </div>
    </Page>
  );
}
