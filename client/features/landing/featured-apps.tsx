import { exploreResponseSchema } from '@pipit/protocol';
import { AppCardGrid } from '../../ui/app-card';
import { EmptyState } from '../../ui/empty-state';
import { Loading } from '../../ui/loading';
import { useApiGet } from '../../platform/api/use-api-get';

/** The same address /explore asks for its "popular" sort, so both share the offline copy. */
const POPULAR_PATH = '/api/explore?sort=popular';
const FEATURED_COUNT = 6;

/** The most used public apps; quiet when there are none or they cannot be fetched. */
export function FeaturedApps() {
  const result = useApiGet(POPULAR_PATH, exploreResponseSchema);
  if (result.status === 'loading') return <Loading label="Loading featured apps…" />;
  if (result.status === 'error') {
    return (
      <EmptyState icon="📡" title="Featured apps appear when you’re online" level={3}>
        They couldn’t be loaded just now. Everything else on this page works offline.
      </EmptyState>
    );
  }
  const apps = result.data.apps.slice(0, FEATURED_COUNT);
  if (apps.length === 0) {
    return (
      <EmptyState icon="🪺" title="No featured apps yet" level={3}>
        Public apps that people install and use the most are featured here. Publish one and it could
        be the first.
      </EmptyState>
    );
  }
  return <AppCardGrid apps={apps} />;
}
