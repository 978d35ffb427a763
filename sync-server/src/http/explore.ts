import type { Hono } from 'hono';
import { EXPLORE_PAGE_SIZE, type ExploreResponse, exploreQuerySchema } from '@pipit/protocol';
import { toAppCard } from '../publishing/cards';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { fieldsOf } from './body';
import type { ApiEnv } from './context';

/** `GET /api/explore`: public, published, non-archived apps, searched, filtered, sorted, paged. */
export function registerExplore(app: Hono<ApiEnv>, { storage }: ApiDependencies): void {
  app.get('/explore', async (c) => {
    const query = exploreQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new ApiError('validation_failed', 'That search can’t be run. Check the filters.', {
        fields: fieldsOf(query.error),
      });
    }
    const { q, tag, author, sort, page } = query.data;
    const found = await storage.publishing.explore({
      q,
      tag,
      author,
      sort,
      page,
      pageSize: EXPLORE_PAGE_SIZE,
    });
    const body: ExploreResponse = {
      apps: found.apps.map(toAppCard),
      page,
      pageCount: Math.max(1, Math.ceil(found.total / EXPLORE_PAGE_SIZE)),
      total: found.total,
      tags: found.tags,
    };
    return c.json(body);
  });
}
