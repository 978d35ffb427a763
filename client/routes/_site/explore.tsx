import { createFileRoute } from '@tanstack/react-router';
import { exploreSearchSchema } from '@pipit/protocol';
import { ExplorePage } from '../../features/apps/explore-page';
import { pageHead } from '../../features/shell/head';

export const Route = createFileRoute('/_site/explore')({
  // The API's own query schema: a search is normalised here exactly as the server will read it.
  validateSearch: exploreSearchSchema,
  head: () => pageHead('Explore', 'Public apps made with Pipit: search, browse by tag, install.'),
  component: function ExploreRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ExplorePage search={search} onSearchChange={(next) => void navigate({ search: next })} />
    );
  },
});
