import { createFileRoute } from '@tanstack/react-router';
import {
  errorGroupsQuerySchema,
  errorGroupsResponseSchema,
  lazySchema,
  pageSearchSchema,
} from '@pipit/protocol';
import { ApiRequestError, apiGet } from '../../platform/api/request';
import { InboxPage } from '../../features/admin/inbox-page';
import { pageHead } from '../../features/shell/head';
import { NotFoundPage } from '../../features/shell/not-found-page';

/** The server's own query rule; a page number it would refuse shows the first page. */
const searchSchema = lazySchema(() => pageSearchSchema(errorGroupsQuerySchema));

/**
 * The operator's inbox (docs/product/error-reporting.md). The loader reads the page of error groups shown, and the server
 * decides who is an operator: anyone else gets its not-found answer, and this page is the 404 page
 * for them, title included. Offline, the route's error page says so.
 */
export const Route = createFileRoute('/_site/admin')({
  validateSearch: searchSchema,
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: async ({ deps, abortController }) => {
    try {
      const errors = await apiGet(
        `/api/admin/errors?page=${deps.page}`,
        errorGroupsResponseSchema,
        {
          signal: abortController.signal,
        },
      );
      return { errors };
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === 'not_found') return { errors: null };
      throw error;
    }
  },
  head: ({ loaderData }) =>
    pageHead(loaderData?.errors === null ? 'Page not found' : 'Operator’s inbox'),
  component: function AdminRoute() {
    const { errors } = Route.useLoaderData();
    return errors ? <InboxPage errors={errors} /> : <NotFoundPage />;
  },
});
