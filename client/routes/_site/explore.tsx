import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ExplorePage } from '../../features/apps/explore-page';
import { pageHead } from '../../features/shell/head';

const searchSchema = z.object({
  q: z.string().max(100).default('').catch(''),
  tag: z.string().max(24).optional().catch(undefined),
  author: z.string().max(30).optional().catch(undefined),
  sort: z.enum(['new', 'popular']).default('new').catch('new'),
  page: z.coerce.number().int().min(1).max(1000).default(1).catch(1),
});

export const Route = createFileRoute('/_site/explore')({
  validateSearch: searchSchema,
  head: () => pageHead('Explore', 'Public apps made with Pipit: search, browse by tag, install.'),
  component: function ExploreRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <ExplorePage search={search} onSearchChange={(next) => void navigate({ search: next })} />
    );
  },
});
